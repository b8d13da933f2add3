import Foundation
@_spi(StrataEngine) import Strata
import StrataBuiltinBackends
import StrataCSV
import StrataConformance
@_spi(StrataEngine) import StrataFileSupport
import StrataJSON
import StrataXML
import Testing

/// History on the file backends (JSON, XML, CSV) lives in a file of its own. CSV writes it before
/// the save's commit point (an older Strata did so for JSON and XML too): a save killed between the
/// two leaves a history line past the committed sequence, which readers ignore and the next save
/// (CSV) or the next writer to open (JSON, XML) cuts off — never a transaction without data.
@Suite struct FileHistoryTests {
    struct Backend: CustomStringConvertible, Sendable {
        let name: String
        let run: @Sendable (URL) throws -> Void
        var description: String { name }
    }

    static let all = [
        Backend(name: "json") { try killedSaveLeavesNoTransaction(BuiltinStores.json, $0) },
        Backend(name: "xml") { try killedSaveLeavesNoTransaction(BuiltinStores.xml, $0) },
        Backend(name: "csv") { try killedSaveLeavesNoTransaction(BuiltinStores.csv, $0) },
    ]

    static let tag = FixtureDomain.schema.entity(named: "Tag")!

    static func killedSaveLeavesNoTransaction<Store: HistoryRecordingStore & WatchableStore>(_ factory: StoreFactory<Store>, _ dir: URL) throws {
        var configuration = factory.configuration(dir, FixtureDomain.schema)
        configuration.recordsHistory = true
        let writer = try Store(configuration)
        for n in 0..<2 { _ = try writer.save(SaveRequest(inserted: [try Store.Snapshot.inserting(tag, values: ["name": .string("t\(n)")])], author: "w")) }
        let committed = try writer.fetchHistory(HistoryQuery())
        #expect(committed.map(\.token.transaction) == [1, 2])
        let path = try #require(writer.watchedFiles.first { $0.hasSuffix("history") || $0.hasSuffix("history.journal") })
        let file = HistoryFile(path: path)
        let end = FileStamp(path)?.size ?? 0  // JSON and XML: none before a fold (their journal holds the transactions)

        // What a writer killed after its history line and before its commit point leaves: a line
        // for transaction 3 under a commit number the store never reached.
        var ghost = committed[1]
        ghost.token.transaction = 3
        ghost.author = "killed"
        _ = try file.append(ghost, sequence: 1_000, end: Int(end), needsLineEnd: false)
        #expect(try #require(FileStamp(path)).size > end)

        var reading = configuration
        reading.isReadOnly = true
        #expect(try Store(reading).fetchHistory(HistoryQuery()).map(\.author) == ["w", "w"], "a reader ignores the uncommitted line")
        let reopened = try Store(configuration)
        #expect(try reopened.fetchHistory(HistoryQuery()).count == 2)
        _ = try reopened.save(SaveRequest(inserted: [try Store.Snapshot.inserting(tag, values: ["name": "t2"])], author: "next"))
        let after = try Store(reading).fetchHistory(HistoryQuery())
        #expect(after.map(\.token.transaction) == [1, 2, 3] && after.last?.author == "next", "the next save's transaction replaces the line: \(after)")
        #expect(try reopened.fetchCount(FetchDescriptor(entity: "Tag")) == 3)
    }

    @Test(arguments: all) func aKilledSaveLeavesNoTransaction(_ backend: Backend) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-file-history-\(backend.name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try backend.run(dir)
    }
}
