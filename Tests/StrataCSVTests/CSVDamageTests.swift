import Foundation
import Strata
import StrataCSV
import StrataConformance
import StrataTestSupport
import Testing

/// Issue 8's findings on the CSV backend: reading never deletes, every byte is checked, references
/// must resolve, changes underneath are noticed, clean-up happens only inside a save.
struct CSVDamageTests {
    typealias T = CSVFileTests

    static func sample() throws -> (dir: URL, folder: URL) {
        let dir = try T.directory()
        let folder = dir.appendingPathComponent("store")
        try FixtureDomain.writeSample(into: try T.open(folder))
        return (dir, folder)
    }

    static func listing(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) { files[name] = try Data(contentsOf: folder.appendingPathComponent(name)) }
        return files
    }

    static func runStrata(_ arguments: [String]) throws -> Int32 { try ChildProcess.run(BuiltProducts.strata, arguments).status }

    /// Finding 3: without its manifest the folder is a damaged store; neither `strata dump` nor a
    /// writer's open creates an empty store or removes a table.
    @Test func aMissingManifestDeletesNothing() throws {
        let (dir, folder) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("manifest.json"))
        let before = try Self.listing(folder)
        #expect(try Self.runStrata(["dump", "--backend", "csv", "--path", dir.path]) != 0)
        #expect(try Self.listing(folder) == before)
        let error = try #require(throws: StrataError.self) { try T.open(folder) }
        #expect(error.code == .corruptStore && error.message.contains("manifest.json is missing"), "\(error)")
        #expect(try Self.listing(folder) == before)
    }

    /// Finding 3: a manifest naming the wrong file is refused, and the real file stays.
    @Test func aManifestNamingTheWrongFileRemovesNothing() throws {
        let (dir, folder) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        let books = try T.manifestFile(folder, "Book"), authors = try T.manifestFile(folder, "Author")
        try T.rewriteManifest(folder) { object in
            var files = object["files"] as! [String: String]
            files["Book@0"] = authors.lastPathComponent
            object["files"] = files
        }
        let before = try Self.listing(folder)
        #expect(throws: StrataError.self) { try T.open(folder) }
        #expect(try Self.runStrata(["dump", "--backend", "csv", "--path", dir.path]) != 0)
        #expect(try Self.listing(folder) == before)
        #expect(FileManager.default.fileExists(atPath: books.path))
    }

    /// Every byte of every table and of the manifest is covered by a checksum (seeded sample).
    @Test func everyByteOfEveryFileIsChecked() throws {
        let (dir, folder) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        var random = SeededGenerator(state: 3)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") || $0 == "manifest.json" }.sorted()
        for name in names {
            let url = folder.appendingPathComponent(name)
            let original = [UInt8](try Data(contentsOf: url))
            for _ in 0..<6 where !original.isEmpty {
                var damaged = original
                let position = Int(random.next() % UInt64(original.count))
                damaged[position] ^= UInt8(1 << (random.next() % 8))
                try Data(damaged).write(to: url)
                let error = try #require(throws: StrataError.self, "\(name) byte \(position)") { try T.open(folder) }
                #expect(error.code == .corruptStore, "\(name) byte \(position): \(error)")
            }
            try Data(original).write(to: url)
        }
        _ = try T.open(folder)  // all restored: opens again
    }

    /// Finding 9: a table referencing a record that does not exist is refused, not loaded silently.
    @Test func aReferenceToAMissingRecordIsCorrupt() throws {
        let (dir, folder) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        let chapters = try String(contentsOf: try T.manifestFile(folder, "Chapter"), encoding: .utf8)
        _ = try T.replaceTable(folder, "Chapter", with: chapters + "90,\"Lost\",77,0\r\n")
        let error = try #require(throws: StrataError.self) { try T.open(folder) }
        #expect(error.code == .corruptStore && error.entity == "Chapter", "\(error)")
    }

    /// Finding 8: files changed underneath an open store are noticed and reloaded, as in JSON.
    @Test func aChangeUnderneathIsNoticed() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let store = try T.open(folder)
        _ = try store.save(SaveRequest(inserted: [try CSVSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "one"])]))
        let backup = try Self.listing(folder)
        _ = try store.save(SaveRequest(inserted: [try CSVSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "two"])]))
        for (name, data) in backup { try data.write(to: folder.appendingPathComponent(name)) }  // someone restores the older state
        // The next save looks at the files first and works on what is there now.
        _ = try store.save(SaveRequest(inserted: [try CSVSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "three"])]))
        let names = try CSVSharingTests.reader(folder).fetch(FetchDescriptor(entity: "Tag", sortBy: [SortKey("name")])).map { try $0.value("name") }
        #expect(names == ["one", "three"])
    }

    /// Stray tables and temporary files are removed by a save, never by open; files that are not the
    /// store's stay.
    @Test func straysAreRemovedBySavesOnly() throws {
        let (dir, folder) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        let strays = ["Book.999.csv", "manifest.json.tmp-31337"], foreign = ["notes.txt", "Book.backup.csv"]
        for name in strays + foreign { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        let store = try T.open(folder)
        #expect(strays.allSatisfy { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) })
        _ = try store.save(SaveRequest(inserted: [try CSVSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "new"])]))
        #expect(strays.allSatisfy { !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) })
        #expect(foreign.allSatisfy { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) })
        let named = Set((try T.manifest(folder)["files"] as! [String: String]).values)
        let tables = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") && $0 != "Book.backup.csv" })
        #expect(tables == named)
    }

    /// Finding 4 on CSV: a deeply nested manifest is corrupt before any recursive parser sees it.
    @Test func aDeeplyNestedManifestIsCorruptNotACrash() throws {
        let (dir, folder) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(repeating: UInt8(ascii: "["), count: 100_000).write(to: folder.appendingPathComponent("manifest.json"))
        let error = try #require(throws: StrataError.self) { try T.open(folder) }
        #expect(error.code == .corruptStore, "\(error)")
    }
}
