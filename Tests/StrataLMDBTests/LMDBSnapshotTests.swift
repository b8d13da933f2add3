import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import Testing

@testable import StrataLMDB

/// `LMDBSnapshot`: a fetched record keeps its checked bytes (many records to a shared block) and
/// decodes values when they are read, so what it reads must not depend on when it is read.
struct LMDBSnapshotTests {
    static let sample = FixtureDomain.schema.entity(named: "Sample")!

    /// Every attribute type, nil and set, with labels of varying length; 1,500 records fill more
    /// than one 32 KB block. Every fifth has a URL (the full check's path), the others not.
    static func values(_ i: Int) -> [String: Value] {
        [
            "label": .string("sample-\(i)-" + String(repeating: "x", count: i % 50)),
            "flag": i % 3 == 0 ? .null : .bool(i % 2 == 0),
            "int": .int(Int64(i) * -7),
            "double": .double(Double(i) / 3),
            "string": i % 4 == 0 ? .null : .string("é\(i)"),
            "date": .date(Date(timeIntervalSinceReferenceDate: Double(i) + 0.25)),
            "data": .data(Data([UInt8(i & 0xFF), 0, 1])),
            "uuid": .uuid(UUID()),
            "url": i % 5 == 0 ? .url(URL(string: "https://example.com/\(i)")!) : .null,
        ]
    }

    @Test func fetchedSnapshotsReadWhatWasStoredAfterTheStoreChanged() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try LMDBFileTests.open(dir.appendingPathComponent("store"))
        let inserted = try (0..<1_500).map { try LMDBSnapshot.inserting(Self.sample, values: Self.values($0)) }
        let saved = try store.save(SaveRequest(inserted: inserted))
        let fetched = try store.fetch(FetchDescriptor(entity: "Sample"))
        #expect(fetched.count == inserted.count)
        let one = try #require(try store.snapshot(for: fetched[700].persistentIdentifier))

        // Every record changes after the fetch; the fetched snapshots keep what they read.
        let label = Self.sample.attributeIndex("label")!
        _ = try store.save(SaveRequest(updated: fetched.map { s in
            var values = s.attributeValues
            values[label] = .string("changed")
            return LMDBSnapshot(entity: Self.sample, persistentIdentifier: s.persistentIdentifier, attributes: values, relationships: s.relationshipValues)
        }))
        for (i, s) in fetched.enumerated() {
            let expected = inserted[i].attributeValues
            #expect(s.persistentIdentifier == saved.remappedIdentifiers[inserted[i].persistentIdentifier])
            #expect(s.attributeValues == expected)
            #expect(Self.sample.attributes.indices.map(s.attributeValue(at:)) == expected)
            #expect(s["label"] == Self.values(i)["label"])
        }
        #expect(one.attributeValues == inserted[700].attributeValues)
        #expect(try store.snapshot(for: fetched[700].persistentIdentifier)?["label"] == .string("changed"))
    }

    @Test func toOnesDecodeFromTheBytesAndListsAreReadWithTheRecord() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try LMDBFileTests.open(dir.appendingPathComponent("store"))
        // Parts have two to-ones and no list: both are decoded from the bytes, the second one
        // set only where the store filled the inverse.
        let part = FixtureDomain.schema.entity(named: "Part")!
        let first = try LMDBSnapshot.inserting(part, values: ["name": "first"])
        let second = try LMDBSnapshot.inserting(part, values: ["name": "second"], relationships: ["previous": .toOne(first.persistentIdentifier)])
        // A tag has a list: read with the record, while the transaction is open.
        let tag = try LMDBSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "t"])
        let note = FixtureDomain.schema.entity(named: "Note")!
        let notes = try (0..<3).map { try LMDBSnapshot.inserting(note, values: ["text": .string("n\($0)")], relationships: ["tag": .toOne(tag.persistentIdentifier)]) }
        let saved = try store.save(SaveRequest(inserted: [first, second, tag] + notes))
        func id(_ s: LMDBSnapshot) -> PersistentIdentifier { saved.remappedIdentifiers[s.persistentIdentifier]! }
        let next = part.relationshipIndex("next")!, previous = part.relationshipIndex("previous")!
        let parts = try store.fetch(FetchDescriptor(entity: "Part"))  // the scan: key order, insert order
        #expect(parts.map(\.persistentIdentifier) == [id(first), id(second)])
        #expect(parts[0].relationshipValue(at: next) == .toOne(id(second)))
        #expect(parts[0].relationshipValue(at: previous) == .toOne(nil))
        var expected: [RelationshipValue] = Array(repeating: .toOne(nil), count: part.relationships.count)
        expected[previous] = .toOne(id(first))
        #expect(parts[1].relationshipValues == expected)
        let stored = try #require(try store.snapshot(for: id(tag)))
        #expect(Set(stored.relationshipValue(at: 0).targets) == Set(notes.map(id)))
        for fetched in try store.fetch(FetchDescriptor(entity: "Note")) {
            #expect(fetched.relationshipValues == [.toOne(id(tag))])
        }
    }

    /// A stored snapshot reaches its entity through its block (or its values), which is what keeps
    /// it at 32 bytes: every snapshot of a fetch, a point lookup and a built one names its own entity,
    /// whichever entities were read before it into the same fetch's blocks.
    @Test func everySnapshotNamesItsEntityAndAStoredOneIsThirtyTwoBytes() throws {
        #expect(MemoryLayout<LMDBSnapshot>.stride == 32, "the scan's result array grows with it (Benchmarks/Thresholds/lmdb-scan.txt)")
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try LMDBFileTests.open(dir.appendingPathComponent("store"))
        let tagEntity = FixtureDomain.schema.entity(named: "Tag")!, note = FixtureDomain.schema.entity(named: "Note")!
        let tag = try LMDBSnapshot.inserting(tagEntity, values: ["name": "t"])
        let notes = try (0..<3).map { try LMDBSnapshot.inserting(note, values: ["text": .string("n\($0)")], relationships: ["tag": .toOne(tag.persistentIdentifier)]) }
        #expect(tag.entity === tagEntity && notes.allSatisfy { $0.entity === note })
        let saved = try store.save(SaveRequest(inserted: [tag] + notes))
        let ids = notes.map { saved.remappedIdentifiers[$0.persistentIdentifier]! }
        let fetched = try store.fetch(FetchDescriptor(entity: "Note"))
        #expect(fetched.map(\.persistentIdentifier) == ids)
        #expect(fetched.allSatisfy { $0.entity === note && $0.persistentIdentifier.entityName == "Note" })
        let tags = try store.fetch(FetchDescriptor(entity: "Tag"))
        #expect(tags.count == 1 && tags[0].entity === tagEntity && tags[0].persistentIdentifier.entityName == "Tag")
        let one = try #require(try store.snapshot(for: ids[1]))
        #expect(one.entity === note && one["text"] == .string("n1"))
        // Both kinds of fetch in one query: an identifier filter's lookups and their snapshots.
        let mixed = try store.fetch(FetchDescriptor(entity: "Note", predicate: .identifierIn([ids[2], ids[0]])))
        #expect(Set(mixed.map(\.persistentIdentifier)) == [ids[0], ids[2]] && mixed.allSatisfy { $0.entity === note })
    }
}
