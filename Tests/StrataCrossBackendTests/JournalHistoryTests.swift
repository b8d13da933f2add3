import Foundation
@_spi(StrataEngine) import Strata
import StrataBuiltinBackends
import StrataConformance
@_spi(StrataEngine) import StrataFileSupport
import StrataJSON
import StrataXML
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// JSON and XML keep a save's history transaction in the journal line that commits the save (a
/// `strata-history` line written with it, one write and one `fsync`), and move the journal's
/// transactions into `<document>.history` (synced) when a fold empties the journal. These cases
/// make by hand the states a crash or a power loss can leave — the history file without the
/// journal's transactions, cut inside a fold's append, a history line whose save line never made
/// it — and an older Strata's layout, and check that readers and writers get every committed
/// transaction exactly once, numbered once.
@Suite struct JournalHistoryTests {
    struct Backend: CustomStringConvertible, Sendable {
        let name: String
        let run: @Sendable (Case, URL) throws -> Void
        var description: String { name }

        init<Store: HistoryRecordingStore & WatchableStore>(_ name: String, _ factory: StoreFactory<Store>, threshold: @escaping @Sendable (inout Store.Configuration, Int) -> Void) {
            self.name = name
            run = { which, dir in try Harness(factory: factory, threshold: threshold, dir: dir).run(which) }
        }
    }

    enum Case: String, CaseIterable, CustomStringConvertible, Sendable {
        case journalCarriesTransactionsUntilAFold, powerLossInAFoldsAppend, historyLineWithoutItsSaveLine, olderLayoutReadsOn
        var description: String { rawValue }
    }

    static let all = [
        Backend("json", BuiltinStores.json) { $0.journalThreshold = $1 },
        Backend("xml", BuiltinStores.xml) { $0.journalThreshold = $1 },
    ]

    @Test(arguments: all, Case.allCases) func historyInTheJournal(_ backend: Backend, _ which: Case) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-journal-history-\(backend.name)-\(which)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try backend.run(which, dir)
    }

    struct Harness<Store: HistoryRecordingStore & WatchableStore> {
        let factory: StoreFactory<Store>
        let threshold: @Sendable (inout Store.Configuration, Int) -> Void
        let dir: URL
        static var tag: EntitySchema { FixtureDomain.schema.entity(named: "Tag")! }

        /// A store recording history; `folding`: a writer that folds on every save.
        func open(readOnly: Bool = false, folding: Bool = false) throws -> Store {
            var configuration = factory.configuration(dir, FixtureDomain.schema)
            configuration.recordsHistory = true
            configuration.isReadOnly = readOnly
            threshold(&configuration, folding ? 0 : 1 << 20)
            return try Store(configuration)
        }

        func insert(_ store: Store, _ name: String, author: String = "w") throws {
            _ = try store.save(SaveRequest(inserted: [try Store.Snapshot.inserting(Self.tag, values: ["name": .string(name)])], author: author))
        }

        func paths(_ store: Store) throws -> (journal: String, history: String) {
            (try #require(store.watchedFiles.first { $0.hasSuffix(".journal") }), try #require(store.watchedFiles.first { $0.hasSuffix(".history") }))
        }

        /// The journal's history lines (committed ones: each followed by its save line).
        func journalHistory(_ path: String) throws -> Int {
            try Journal.scan(try #require(try DurableFile.read(path)), file: path).history.count
        }

        /// The transactions the history file holds, by number (every line, committed or not).
        func fileHistory(_ path: String, storeIdentifier: String) throws -> [Int64] {
            try HistoryFile(path: path).load(committedThrough: .max, storeIdentifier: storeIdentifier).log.transactions.map(\.token.transaction)
        }

        /// Writes `bytes` into the file at `path` in place (the journal keeps its inode, as the
        /// writer lock asks).
        func overwrite(_ path: String, with bytes: [UInt8]) throws {
            let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
            try #require(fd >= 0)
            defer { close(fd) }
            try #require(ftruncate(fd, off_t(bytes.count)) == 0)
            let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            try #require(written == bytes.count)
        }

        func numbers(_ store: Store) throws -> [Int64] { try store.fetchHistory(HistoryQuery()).map(\.token.transaction) }

        func run(_ which: Case) throws {
            switch which {
            case .journalCarriesTransactionsUntilAFold: try journalCarriesTransactionsUntilAFold()
            case .powerLossInAFoldsAppend: try powerLossInAFoldsAppend()
            case .historyLineWithoutItsSaveLine: try historyLineWithoutItsSaveLine()
            case .olderLayoutReadsOn: try olderLayoutReadsOn()
            }
        }

        /// A save writes its transaction into the journal, not the history file; readers, a
        /// reopened writer and a follower read it from there; a fold moves it into the file once.
        func journalCarriesTransactionsUntilAFold() throws {
            let writer = try open()
            let identifier = writer.identifier, files = try paths(writer)
            let follower = try open(readOnly: true)
            for n in 1...3 {
                try insert(writer, "t\(n)")
                #expect(try follower.fetchHistory(HistoryQuery()).last?.token.transaction == Int64(n), "a follower sees each transaction as its save commits")
            }
            #expect(try journalHistory(files.journal) == 3)
            #expect(try fileHistory(files.history, storeIdentifier: identifier) == [], "nothing written to the history file before a fold")
            #expect(try numbers(try open(readOnly: true)) == [1, 2, 3])
            do {
                let writer = try open()
                #expect(try numbers(writer) == [1, 2, 3])
                try insert(writer, "t4")
            }
            #expect(try numbers(try open(readOnly: true)) == [1, 2, 3, 4])
            do {
                let folding = try open(folding: true)
                try insert(folding, "t5", author: "folded")
            }
            #expect(try journalHistory(files.journal) == 0, "the fold emptied the journal")
            #expect(try fileHistory(files.history, storeIdentifier: identifier) == [1, 2, 3, 4, 5], "and moved every transaction into the file, once")
            let reader = try open(readOnly: true)
            #expect(try numbers(reader) == [1, 2, 3, 4, 5])
            #expect(try reader.fetchHistory(HistoryQuery()).last?.author == "folded")
            #expect(try numbers(follower) == [1, 2, 3, 4, 5], "a follower across the fold")
            #expect(try reader.fetchCount(FetchDescriptor(entity: "Tag")) == 5)
        }

        /// A power loss while a fold appended the journal's transactions to the history file, before
        /// its sync (so before the document's rename): the file keeps a prefix of the append — whole
        /// lines, or one cut anywhere — and the journal all of them. Readers take the rest from the
        /// journal; the writer numbers on and its next fold appends exactly what the file lacks.
        func powerLossInAFoldsAppend() throws {
            let (identifier, files, committed) = try { () throws -> (String, (journal: String, history: String), [StoreHistoryTransaction]) in
                let writer = try open()
                for n in 1...4 { try insert(writer, "t\(n)") }
                return (writer.identifier, try paths(writer), try writer.fetchHistory(HistoryQuery()))
            }()
            let journal = try #require(try DurableFile.read(files.journal))
            let document = try #require(try DurableFile.read(String(files.journal.dropLast(".journal".count))))
            // What the fold's append writes, at its sequence.
            _ = try HistoryFile(path: files.history).appendMissing(from: HistoryLog(transactions: committed), sequence: 4, after: HistoryFile.Loaded())
            let whole = try #require(try DurableFile.read(files.history))
            let lineEnds = whole.indices.filter { whole[$0] == 0x0A }
            for cut in [0, lineEnds[0] + 1, lineEnds[1] + 1, lineEnds[1] + 20, lineEnds[2], whole.count - 1, whole.count] {
                try DurableFile.replace(files.history, with: Array(whole[..<cut]))
                try overwrite(files.journal, with: journal)
                try DurableFile.replace(String(files.journal.dropLast(".journal".count)), with: document)
                let reader = try open(readOnly: true)
                #expect(try numbers(reader) == [1, 2, 3, 4], "cut at \(cut) of \(whole.count): a reader")
                #expect(try reader.fetchHistory(HistoryQuery()).map(\.changes) == committed.map(\.changes))
                do {
                    let writer = try open()
                    #expect(try numbers(writer) == [1, 2, 3, 4], "cut at \(cut): the writer on reopen")
                    try insert(writer, "t5", author: "after")
                    #expect(try numbers(writer) == [1, 2, 3, 4, 5], "cut at \(cut): numbered on, never twice")
                }
                #expect(try numbers(try open(readOnly: true)) == [1, 2, 3, 4, 5])
                do { try insert(try open(folding: true), "t6") }
                #expect(try fileHistory(files.history, storeIdentifier: identifier) == [1, 2, 3, 4, 5, 6], "cut at \(cut): the fold completes the file")
                let after = try open(readOnly: true)
                #expect(try numbers(after) == [1, 2, 3, 4, 5, 6])
                #expect(try after.fetchHistory(HistoryQuery()).map(\.author) == ["w", "w", "w", "w", "after", "w"])
            }
        }

        /// A history line whose save line is missing (a write torn after it, or cut by power loss
        /// before its sync): the save never committed, so its transaction is nobody's, and the next
        /// save cuts it off and takes its number.
        func historyLineWithoutItsSaveLine() throws {
            let writer = try open()
            for n in 1...2 { try insert(writer, "t\(n)") }
            let files = try paths(writer)
            let follower = try open(readOnly: true)
            #expect(try numbers(follower) == [1, 2])
            var ghost = try writer.fetchHistory(HistoryQuery()).last!
            ghost.token.transaction = 3
            ghost.author = "killed"
            let end = Int(try #require(FileStamp(files.journal)).size)
            for torn in [Array(HistoryFile.journalLine(ghost, sequence: 3)), Array(HistoryFile.journalLine(ghost, sequence: 3).dropLast()), Array(HistoryFile.journalLine(ghost, sequence: 3)) + Array("0123".utf8)] {
                try overwrite(files.journal, with: Array(try #require(try DurableFile.read(files.journal))[..<end]) + torn)
                #expect(try numbers(try open(readOnly: true)) == [1, 2], "a reader ignores it")
                #expect(try follower.fetchHistory(HistoryQuery()).map(\.author) == ["w", "w"], "a follower too")
                #expect(try follower.fetchCount(FetchDescriptor(entity: "Tag")) == 2)
            }
            let reopened = try open()
            #expect(try numbers(reopened) == [1, 2])
            try insert(reopened, "t3", author: "next")
            #expect(try journalHistory(files.journal) == 3)
            let after = try open(readOnly: true).fetchHistory(HistoryQuery())
            #expect(after.map(\.token.transaction) == [1, 2, 3] && after.last?.author == "next", "\(after.map(\.author))")
            #expect(try follower.fetchHistory(HistoryQuery()).map(\.author) == ["w", "w", "next"])
        }

        /// A store an older Strata wrote: its transactions in the history file (each synced before
        /// its journal line), journal lines without any. It reads on, and records on after them.
        func olderLayoutReadsOn() throws {
            let (identifier, files, committed) = try { () throws -> (String, (journal: String, history: String), [StoreHistoryTransaction]) in
                let writer = try open()
                for n in 1...3 { try insert(writer, "t\(n)") }
                return (writer.identifier, try paths(writer), try writer.fetchHistory(HistoryQuery()))
            }()
            // The older layout: the same saves, each transaction appended to the history file under
            // its save's number as that version did, and the journal without history lines.
            var end = 0
            for (n, transaction) in committed.enumerated() {
                end = try HistoryFile(path: files.history).append(transaction, sequence: Int64(n + 1), end: end, needsLineEnd: false)
            }
            let bytes = try #require(try DurableFile.read(files.journal))
            let scan = try Journal.scan(bytes, file: files.journal)
            var older = Array(bytes[..<scan.headerEnd])
            for line in scan.lines { older += Journal.line(Array(line.body)) }
            try overwrite(files.journal, with: older)
            #expect(try journalHistory(files.journal) == 0)
            #expect(try numbers(try open(readOnly: true)) == [1, 2, 3])
            do {
                let writer = try open()
                #expect(try numbers(writer) == [1, 2, 3])
                try insert(writer, "t4", author: "new")
            }
            #expect(try fileHistory(files.history, storeIdentifier: identifier) == [1, 2, 3])
            #expect(try numbers(try open(readOnly: true)) == [1, 2, 3, 4])
            do { try insert(try open(folding: true), "t5", author: "new") }
            #expect(try fileHistory(files.history, storeIdentifier: identifier) == [1, 2, 3, 4, 5])
            let reader = try open(readOnly: true)
            #expect(try reader.fetchHistory(HistoryQuery()).map(\.author) == ["w", "w", "w", "new", "new"])
            #expect(try reader.fetchCount(FetchDescriptor(entity: "Tag")) == 5)
        }
    }
}
