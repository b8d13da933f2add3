import Foundation
import Strata
import StrataCSV
import StrataConformance
import StrataTestSupport
import Testing

/// Issue 8, findings 8 and 11, on CSV: the lock is the folder itself, readers open beside a writer,
/// reading never writes.
struct CSVSharingTests {
    typealias T = CSVFileTests

    static func reader(_ folder: URL) throws -> CSVStore {
        try CSVStore(CSVStoreConfiguration(folder: folder, schema: FixtureDomain.schema, isReadOnly: true))
    }

    static func tag(_ name: String) throws -> CSVSnapshot {
        try CSVSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": .string(name)])
    }

    @Test func readersOpenBesideAWriterAndSeeItsSaves() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let writer = try T.open(folder, wait: nil)
        let first = try Self.reader(folder), second = try Self.reader(folder)
        _ = try writer.save(SaveRequest(inserted: [try Self.tag("seen")]))
        let deadline = ContinuousClock.now + .seconds(10)
        while try first.fetchCount(FetchDescriptor(entity: "Tag")) == 0, ContinuousClock.now < deadline { usleep(1_000) }
        #expect(try first.fetchCount(FetchDescriptor(entity: "Tag")) == 1)
        let error = try #require(throws: StrataError.self) { try second.save(SaveRequest(inserted: [try Self.tag("no")])) }
        #expect(error.code == .readOnlyStore)
        _ = try T.open(folder, wait: nil)  // a second writer in this process shares the store (issue 25)
    }

    /// The point lookup (`CSVStore.snapshot(for:)`, not the protocol's fetch) looks for another
    /// store's commits as a fetch does: a reader that holds a record sees its update and its delete.
    /// Without the look it would answer from the state it loaded and wait out the deadline.
    @Test func aReaderPointLookupSeesTheWritersUpdateAndDelete() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let writer = try T.open(folder, wait: nil)
        let tag = try Self.tag("before")
        let id = try #require(try writer.save(SaveRequest(inserted: [tag])).remappedIdentifiers[tag.persistentIdentifier])
        let reader = try Self.reader(folder)
        #expect(try reader.snapshot(for: id)?.value("name") == "before")
        let stored = try #require(try writer.snapshot(for: id))
        _ = try writer.save(SaveRequest(updated: [try stored.updating(["name": "after"])]))
        let deadline = ContinuousClock.now + .seconds(10)
        while try reader.snapshot(for: id)?.value("name") != "after", ContinuousClock.now < deadline { usleep(1_000) }
        #expect(try reader.snapshot(for: id)?.value("name") == "after")
        _ = try writer.save(SaveRequest(deleted: [try #require(try writer.snapshot(for: id))]))
        while try reader.snapshot(for: id) != nil, ContinuousClock.now < deadline { usleep(1_000) }
        #expect(try reader.snapshot(for: id) == nil)
    }

    @Test func deletingFilesDoesNotLetASecondWriterIn() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let writer = try T.open(folder, wait: nil)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix(".") {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        // Another process trying the same folder lock.
        let holder = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/flock"), ["-n", "-x", folder.path, "-c", "true"])
        #expect(holder.status != 0, "another process got the lock beside an open writer")
        _ = writer
    }

    @Test func aReadOnlyOpenNeverWrites() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        try FixtureDomain.writeSample(into: try T.open(folder))
        try Data("x".utf8).write(to: folder.appendingPathComponent("Book.999.csv"))
        let before = try CSVDamageTests.listing(folder)
        #expect(try Self.reader(folder).fetchCount(FetchDescriptor(entity: "Book")) == 3)
        #expect(try CSVDamageTests.listing(folder) == before)
        let empty = dir.appendingPathComponent("empty")
        #expect(throws: StrataError.self) { try Self.reader(empty) }
        #expect(!FileManager.default.fileExists(atPath: empty.path))
    }
}
