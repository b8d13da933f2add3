import Foundation
import Strata
import StrataCSV
import StrataConformance
import Testing

/// Format 3: tables cut into chunks of 1,024 keys, a save rewriting only the chunks it changed, and
/// format-2 stores (whole tables) read and migrated by a writer's first save.
struct CSVChunkTests {
    typealias T = CSVFileTests
    static let schema = FixtureDomain.schema

    static func files(_ folder: URL) throws -> [String: String] { try T.manifest(folder)["files"] as! [String: String] }

    /// A library with `count` shelves, in key order, and the store.
    static func shelves(_ folder: URL, count: Int) throws -> (CSVStore, PersistentIdentifier) {
        let store = try T.open(folder)
        let library = try CSVSnapshot.inserting(schema.entity(named: "Library")!, values: ["name": "big"])
        let id = try #require(try store.save(SaveRequest(inserted: [library])).remappedIdentifiers.permanentIdentifiers.first)
        let shelf = schema.entity(named: "Shelf")!
        let inserted = try (0..<count).map { try CSVSnapshot.inserting(shelf, values: ["label": .string("s\($0)")], relationships: ["library": .toOne(id)]) }
        _ = try store.save(SaveRequest(inserted: inserted))
        return (store, id)
    }

    static func labels(_ folder: URL) throws -> [String] {
        let library = try #require(try CSVSharingTests.reader(folder).fetch(FetchDescriptor(entity: "Library")).first)
        let reader = try CSVSharingTests.reader(folder)
        let shelves = try reader.fetch(FetchDescriptor(entity: "Shelf"))
        var label: [PersistentIdentifier: String] = [:]
        for s in shelves { if case .string(let text) = try s.value("label") { label[s.persistentIdentifier] = text } }
        return try library.related("shelves").targets.map { label[$0] ?? "?" }
    }

    @Test func aOneRecordSaveRewritesOnlyItsChunk() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let (store, _) = try Self.shelves(folder, count: 3_000)
        let before = try Self.files(folder)
        #expect(Set(before.keys.filter { $0.hasPrefix("Shelf@") }) == ["Shelf@0", "Shelf@1", "Shelf@2"])
        let shelf = try #require(try store.fetch(FetchDescriptor(entity: "Shelf", predicate: .compare("label", .equal, "s1500"))).first)
        _ = try store.save(SaveRequest(updated: [try shelf.updating(["label": "changed"])]))
        let after = try Self.files(folder)
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after.filter { before[$0.key] != $0.value }.keys.sorted() == ["Shelf@1"])
        let reread = try CSVSharingTests.reader(folder).fetch(FetchDescriptor(entity: "Shelf", predicate: .compare("label", .equal, "changed")))
        #expect(reread.map(\.persistentIdentifier) == [shelf.persistentIdentifier])
    }

    /// Reordering a list rewrites the chunks holding its members' order columns, wherever they are.
    @Test func aReorderRewritesEveryChunkOfItsMembers() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let (store, id) = try Self.shelves(folder, count: 2_100)
        let library = try #require(try store.fetch(FetchDescriptor(entity: "Library")).first)
        let order = try library.related("shelves").targets
        #expect(order.count == 2_100)
        _ = try store.save(SaveRequest(updated: [try library.updating(relationships: ["shelves": .toMany(order.reversed())])]))
        #expect(try Self.labels(folder) == (0..<2_100).reversed().map { "s\($0)" })
        #expect(try store.fetch(FetchDescriptor(entity: "Library")).first?.persistentIdentifier == id)
    }

    /// A row in the wrong chunk is damage, reported with the file and line.
    @Test func aRowOutsideItsChunkIsCorrupt() throws {
        let (dir, folder) = try CSVDamageTests.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try T.replaceTable(folder, "Tag", with: "@id,name\r\n5000,\"far\"\r\n")
        let error = try #require(throws: StrataError.self) { try T.open(folder) }
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("does not belong in chunk 0"), "\(error)")
    }

    /// A format-2 manifest names whole tables: read as it is, migrated to chunks by the first save,
    /// its old tables removed after the commit.
    @Test func aFormatTwoStoreIsReadAndMigratedByTheFirstSave() throws {
        let (dir, folder) = try CSVDamageTests.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        func contents() throws -> [String: Int] {
            let reader = try CSVSharingTests.reader(folder)
            var counts: [String: Int] = [:]
            for entity in Self.schema.entities { counts[entity.name] = try reader.fetchCount(FetchDescriptor(entity: entity.name)) }
            return counts
        }
        let reference = try contents()
        try T.rewriteManifest(folder) { object in
            object["version"] = 2
            object["files"] = Dictionary(uniqueKeysWithValues: (object["files"] as! [String: String]).map { (String($0.key.dropLast(2)), $0.value) })
        }
        let old = Set(try Self.files(folder).values)
        #expect(try contents() == reference)
        let store = try T.open(folder)
        _ = try store.save(SaveRequest(inserted: [try CSVSnapshot.inserting(Self.schema.entity(named: "Tag")!, values: ["name": "new"])]))
        #expect(try T.manifest(folder)["version"] as? Int == 3)
        let files = try Self.files(folder)
        #expect(files.keys.allSatisfy { $0.hasSuffix("@0") })
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(old.isDisjoint(with: present))
        #expect(Set(files.values).isSubset(of: present))
        var expected = reference
        expected["Tag", default: 0] += 1
        #expect(try contents() == expected)
    }
}
