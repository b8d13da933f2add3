import Foundation
import Strata
import StrataConformance
import StrataJSON
import StrataTestSupport
import Testing

/// The JSON backend's files: readable by other tools, crash-safe, locked, damage reported with offsets.
struct JSONFileTests {
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Opens with a lock wait by default: while another test spawns a process, a lock this process
    /// just released can be held for an instant by the child being started.
    static func open(_ file: URL, wait: Duration? = .seconds(5), threshold: Int = 1 << 20) throws -> JSONStore {
        try JSONStore(JSONStoreConfiguration(url: file, schema: FixtureDomain.schema, lockWait: wait, journalThreshold: threshold))
    }

    static func tag(_ name: String) throws -> DefaultSnapshot {
        try DefaultSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": .string(name)])
    }

    @Test func pythonReadsTheDocumentAndFindsTheRecords() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do {
            let store = try Self.open(file, threshold: 0)  // fold every save: the document holds everything
            try FixtureDomain.writeSample(into: store)
        }
        let python = try ChildProcess.run(ChildProcess.onPath("python3"), ["-c", """
            import json, sys
            d = json.load(open(sys.argv[1]))
            books = d["entities"]["Book"]["records"]
            print(d["format"], len(books), sorted(b["title"] for b in books)[0], d["entities"]["Sample"]["records"][1]["double"])
            """, file.path])
        #expect(python.status == 0, "\(python.errors)")
        #expect(python.output.trimmingCharacters(in: .whitespacesAndNewlines) == "strata-json 3 Dune NaN")
    }

    @Test func aKilledWriterAlwaysLeavesTheOldOrTheNewState() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CrashWorkload.killBuiltWriter(backend: "json", in: dir) {
            try CrashWorkload.check(try Self.open(dir.appendingPathComponent("store.json")))
        }
    }

    @Test func aTruncatedDocumentIsCorruptWithItsOffset() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do {
            let store = try Self.open(file, threshold: 0)
            try FixtureDomain.writeSample(into: store)
        }
        let data = try Data(contentsOf: file)
        try data.prefix(data.count / 2).write(to: file)
        let error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .corruptStore)
        #expect(error.offset == data.count / 2)
        try Data().write(to: file)
        #expect(throws: StrataError.self) { try Self.open(file) }  // empty is damage too, never a new store
    }

    @Test func aTornJournalTailIsASaveThatNeverHappened() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do {
            let store = try Self.open(file)
            _ = try store.save(SaveRequest(inserted: [try Self.tag("kept")]))
            _ = try store.save(SaveRequest(inserted: [try Self.tag("torn")]))
        }
        let journal = URL(fileURLWithPath: file.path + ".journal")
        let bytes = try Data(contentsOf: journal)
        try bytes.dropLast(7).write(to: journal)
        let store = try Self.open(file)
        #expect(try store.fetch(FetchDescriptor(entity: "Tag")).map { $0["name"] } == ["kept"])
    }

    @Test func aDamagedJournalLineIsCorruptWithItsOffset() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do {
            let store = try Self.open(file)
            for name in ["a", "b", "c"] { _ = try store.save(SaveRequest(inserted: [try Self.tag(name)])) }
        }
        let journal = URL(fileURLWithPath: file.path + ".journal")
        var bytes = [UInt8](try Data(contentsOf: journal))
        let second = bytes.firstIndex(of: 0x0A)! + 1
        bytes[second + 40] ^= 0x01
        try Data(bytes).write(to: journal)
        let error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .corruptStore)
        #expect(error.offset == second)
    }

    /// Issue 25: a second writer in this process (a second container on one store) shares the
    /// store: each sees the other's saves at once, none is lost. Another process is still locked
    /// out (`JSONSharingTests.theLockIsOnTheJournalAndNamesAnotherProcess`).
    @Test func aSecondWriterInThisProcessSharesTheStore() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do {
            let first = try Self.open(file, wait: nil, threshold: 200), second = try Self.open(file, wait: nil, threshold: 200)
            for n in 0..<8 {
                _ = try (n % 2 == 0 ? first : second).save(SaveRequest(inserted: [try Self.tag("tag \(n)")]))
                #expect(try first.fetchCount(FetchDescriptor(entity: "Tag")) == n + 1)
                #expect(try second.fetchCount(FetchDescriptor(entity: "Tag")) == n + 1)
            }
        }
        #expect(try Self.open(file).fetchCount(FetchDescriptor(entity: "Tag")) == 8, "every save kept, through journal folds")
    }

    @Test func anOutsideChangeIsNoticedAndAHandEditIsReportedAsDamage() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        let store = try Self.open(file, threshold: 0)
        _ = try store.save(SaveRequest(inserted: [try Self.tag("before")]))
        #expect(try store.fetch(FetchDescriptor(entity: "Tag")).map { $0["name"] } == ["before"])
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"before\"", with: "\"edited by hand\"")
        try text.write(to: file, atomically: true, encoding: .utf8)
        // Saves look at the files every time (fetches at most every 5 ms): the edit breaks the checksum.
        let error = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: [try Self.tag("after")])) }
        #expect(error.code == .corruptStore, "\(error)")
    }
}
