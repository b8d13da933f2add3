import Foundation
@_spi(StrataEngine) import Strata
import StrataBuiltinBackends
import StrataCSV
import StrataConformance
import StrataJSON
import StrataXML
import Testing

/// A file store answers fetches from memory and looks at its files at most every 5 ms
/// (`OutsideChangeCheck`): a reader woken by another store's commit within 5 ms of its last look
/// would fetch the old state and then wait for a next commit that may never come (a lost wake-up).
/// `WatchableStore.lookForCommits` looks now; the live sequences call it on every wake-up.
@Suite struct LookForCommitsTests {
    struct Backend: CustomStringConvertible, Sendable {
        let name: String
        let run: @Sendable (URL) async throws -> Void
        var description: String { name }
    }

    static let all = [
        Backend(name: "json") { try await commitRightAfterARead(BuiltinStores.json, $0) },
        Backend(name: "xml") { try await commitRightAfterARead(BuiltinStores.xml, $0) },
        Backend(name: "csv") { try await commitRightAfterARead(BuiltinStores.csv, $0) },
    ]

    static let tag = FixtureDomain.schema.entity(named: "Tag")!

    /// A read-only store beside a writer on one path (it shares no lock with it, so only its files
    /// tell it about the writer's saves): each round it reads, the writer commits at once, and
    /// after the watcher's wake-up it looks for commits and must see the new record. Every round
    /// whose wake-up comes within 5 ms of the read fails without `lookForCommits`; 20 rounds make
    /// that near certain on any machine, and none of them waits for anything but an observed event.
    static func commitRightAfterARead<Store: WatchableStore>(_ factory: StoreFactory<Store>, _ dir: URL) async throws {
        let configuration = factory.configuration(dir, FixtureDomain.schema)
        let writer = try Store(configuration)
        var reading = configuration
        reading.isReadOnly = true
        let reader = try Store(reading)
        let watcher = try StoreWatcher(files: reader.watchedFiles)
        defer { watcher.close() }
        var wakes = watcher.wakes.makeAsyncIterator()
        let tags = FetchDescriptor(entity: "Tag")
        var stale: [Int] = []
        for n in 1...20 {
            _ = try reader.fetchCount(tags)  // the reader looks at its files now
            _ = try writer.save(SaveRequest(inserted: [try Store.Snapshot.inserting(tag, values: ["name": .string("t\(n)")])]))
            #expect(await wakes.next() != nil, "the commit wakes the watcher")
            try reader.lookForCommits()
            if try reader.fetchCount(tags) != n { stale.append(n) }
        }
        #expect(stale.isEmpty, "rounds whose commit the reader did not see after its wake-up: \(stale)")
    }

    @Test(arguments: all) func aCommitRightAfterAReadIsSeenOnTheWakeUp(_ backend: Backend) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-look-\(backend.name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await backend.run(dir)
    }
}
