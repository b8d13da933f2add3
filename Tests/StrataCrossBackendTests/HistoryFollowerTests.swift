import Foundation
@_spi(StrataEngine) import Strata
import StrataBuiltinBackends
import StrataCSV
import StrataConformance
@_spi(StrataEngine) import StrataFileSupport
import StrataJSON
import StrataXML
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A file backend's follower — a read-only store beside the writer, as `historyTransactions` and
/// live results use one — reads only the history lines appended since it last looked
/// (`HistoryFile.load(committedThrough:storeIdentifier:after:)`). These cases change the history
/// file underneath it in each way a writer, `deleteHistory` or another process can, and check that
/// it still gets every committed transaction exactly once, in order.
@Suite struct HistoryFollowerTests {
    struct Backend: CustomStringConvertible, Sendable {
        let name: String
        let run: @Sendable (Scenario, URL) throws -> Void
        var description: String { name }

        init<Store: HistoryRecordingStore & WatchableStore>(_ name: String, _ factory: StoreFactory<Store>, configure: @escaping @Sendable (inout Store.Configuration) -> Void = { _ in }) {
            self.name = name
            run = { scenario, dir in try Harness(factory: factory, configure: configure, dir: dir).run(scenario) }
        }
    }

    enum Scenario: String, CaseIterable, CustomStringConvertible, Sendable {
        case acrossDeleteHistory, acrossAReplacedStore, aTornLastLine, anUncommittedLine, aLongHistory, readsEachLineOnce, readsEachJournalLineOnce
        var description: String { rawValue }
    }

    /// JSON and XML keep a save's transaction in the journal until a fold moves it into the history
    /// file: folding on every save, the history file is read as these cases change it; with the
    /// default threshold (`-journal`), the journal's transactions are, in the cases that do not
    /// write the history file by hand (JournalHistoryTests makes the journal's crash states).
    static let all = [
        Backend("json", BuiltinStores.json) { $0.journalThreshold = 0 }, Backend("xml", BuiltinStores.xml) { $0.journalThreshold = 0 },
        Backend("csv", BuiltinStores.csv),
    ]
    static let journal = [Backend("json-journal", BuiltinStores.json), Backend("xml-journal", BuiltinStores.xml)]

    @Test(arguments: all, Scenario.allCases.filter { $0 != .readsEachJournalLineOnce }) func aFollowerGetsEveryTransactionOnce(_ backend: Backend, _ scenario: Scenario) throws {
        try Self.run(backend, scenario)
    }

    @Test(arguments: journal, [Scenario.acrossDeleteHistory, .aLongHistory, .readsEachJournalLineOnce]) func aFollowerGetsEveryTransactionOnceFromTheJournal(_ backend: Backend, _ scenario: Scenario) throws {
        try Self.run(backend, scenario)
    }

    static func run(_ backend: Backend, _ scenario: Scenario) throws {
        // In memory where there is one: 2,000 saves are 4,000 `fsync`s, which this is not about.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let dir = base.appendingPathComponent("strata-follower-\(backend.name)-\(scenario)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try backend.run(scenario, dir)
    }

    /// One backend's store in `dir` (a copy goes to `dir/copy`).
    struct Harness<Store: HistoryRecordingStore & WatchableStore> {
        let factory: StoreFactory<Store>
        let configure: @Sendable (inout Store.Configuration) -> Void
        let dir: URL
        static var tag: EntitySchema { FixtureDomain.schema.entity(named: "Tag")! }

        func open(_ dir: URL? = nil, readOnly: Bool = false) throws -> Store {
            var configuration = factory.configuration(dir ?? self.dir, FixtureDomain.schema)
            configuration.recordsHistory = true
            configuration.isReadOnly = readOnly
            configure(&configuration)
            return try Store(configuration)
        }

        func insert(_ store: Store, _ name: String, author: String = "w") throws {
            _ = try store.save(SaveRequest(inserted: [try Store.Snapshot.inserting(Self.tag, values: ["name": .string(name)])], author: author))
        }

        func historyPath(_ store: Store) throws -> String {
            try #require(store.watchedFiles.first { $0.hasSuffix("history") || $0.hasSuffix("history.journal") })
        }

        func run(_ scenario: Scenario) throws {
            switch scenario {
            case .acrossDeleteHistory: try acrossDeleteHistory()
            case .acrossAReplacedStore: try acrossAReplacedStore()
            case .aTornLastLine: try aTornLastLine()
            case .anUncommittedLine: try anUncommittedLine()
            case .aLongHistory: try aLongHistory()
            case .readsEachLineOnce: try readsEachLineOnce()
            case .readsEachJournalLineOnce: try readsEachJournalLineOnce()
            }
        }

        /// `deleteHistory` rewrites the file (a new inode, other offsets): the follower reads it
        /// whole and goes on; twice between two looks (the old inode number may come back), too.
        func acrossDeleteHistory() throws {
            let writer = try open()
            for n in 1...3 { try insert(writer, "t\(n)") }
            let follower = Follower(try open(readOnly: true))
            #expect(try follower.look() == [1, 2, 3])
            let all = try writer.fetchHistory(HistoryQuery())
            try writer.deleteHistory(through: all[1].token)
            for n in 4...5 { try insert(writer, "t\(n)") }
            #expect(try follower.look() == [4, 5])
            #expect(try follower.store.fetchHistory(HistoryQuery()).map(\.token.transaction) == [3, 4, 5])
            // Two rewrites between two looks, each of what the follower has seen.
            let kept = try writer.fetchHistory(HistoryQuery())
            try writer.deleteHistory(through: kept[1].token)
            try writer.deleteHistory(through: kept[2].token)
            for n in 6...8 { try insert(writer, "t\(n)", author: "after") }
            #expect(try follower.look() == [6, 7, 8])
            #expect(try follower.store.fetchHistory(HistoryQuery()).map(\.author) == ["after", "after", "after"])
            #expect(throws: StrataError.self, "a token before the horizon has expired") { _ = try follower.store.fetchHistory(HistoryQuery(after: all[0].token)) }
        }

        /// Another process puts an older copy of the store back (its files renamed over, as a
        /// restore does; the history written into the old file in place, longer than before) and
        /// saves other transactions under the same numbers: the follower reads the new file, not
        /// on from its old offset.
        func acrossAReplacedStore() throws {
            let copy = dir.appendingPathComponent("copy")
            let items: [String]
            do {
                let writer = try open()
                for n in 1...3 { try insert(writer, "t\(n)") }
                items = try FileManager.default.contentsOfDirectory(atPath: dir.path)
                try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
                for item in items { try FileManager.default.copyItem(at: dir.appendingPathComponent(item), to: copy.appendingPathComponent(item)) }
            }
            let follower = Follower(try open(readOnly: true))
            let history = try historyPath(follower.store)
            do {
                let writer = try open()
                for n in 4...6 { try insert(writer, "old\(n)", author: "old") }
            }
            #expect(try follower.look() == [1, 2, 3, 4, 5, 6])
            do {
                let other = try open(copy)
                for n in 4...7 { try insert(other, "new\(n)", author: "new") }
            }
            let files = FileManager.default.enumerator(atPath: copy.path)!.compactMap { $0 as? String }
            for relative in files where dir.appendingPathComponent(relative).path != history {
                var isFolder: ObjCBool = false
                let from = copy.appendingPathComponent(relative).path
                guard FileManager.default.fileExists(atPath: from, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                try DurableFile.replace(dir.appendingPathComponent(relative).path, with: try #require(try DurableFile.read(from)))
            }
            let replacement = try #require(try DurableFile.read(copy.path + String(history.dropFirst(dir.path.count))))
            #expect(try #require(FileStamp(history)).size <= replacement.count)
            try overwrite(history, with: replacement)
            // Numbers 4 to 6 name other transactions now; a token-based follower goes on after 6.
            #expect(try follower.look() == [7])
            #expect(try follower.store.fetchHistory(HistoryQuery()).map(\.author) == ["w", "w", "w", "new", "new", "new", "new"])
            #expect(try follower.store.fetchCount(FetchDescriptor(entity: "Tag")) == 7)
        }

        /// A line cut in the middle (a writer between its `write` and its end, as a reader can see
        /// it) is neither taken half nor skipped: the follower takes it once it is whole.
        func aTornLastLine() throws {
            let writer = try open()
            for n in 1...2 { try insert(writer, "t\(n)") }
            let follower = Follower(try open(readOnly: true))
            #expect(try follower.look() == [1, 2])
            let path = try historyPath(writer)
            let before = try #require(FileStamp(path)).size
            try insert(writer, "t3")
            let whole = try #require(try DurableFile.read(path))
            let line = Array(whole[Int(before)...])
            for cut in [1, 17, line.count / 2, line.count - 2] {
                try overwrite(path, with: Array(whole[..<(Int(before) + cut)]))
                #expect(try follower.look() == [], "cut after \(cut) of \(line.count) bytes")
            }
            // Whole but for its line end: a whole line (`Journal`'s rule), taken; the line end
            // that follows adds nothing.
            try overwrite(path, with: Array(whole.dropLast()))
            #expect(try follower.look() == [3])
            try overwrite(path, with: whole)
            #expect(try follower.look() == [])
            try insert(writer, "t4")
            #expect(try follower.look() == [4])
            #expect(try follower.store.fetchHistory(HistoryQuery()).map(\.token.transaction) == [1, 2, 3, 4])
        }

        /// A whole line past the committed number (a save killed before its commit point) is not
        /// taken; the next save's line replaces it and is.
        func anUncommittedLine() throws {
            let writer = try open()
            for n in 1...2 { try insert(writer, "t\(n)") }
            let follower = Follower(try open(readOnly: true))
            #expect(try follower.look() == [1, 2])
            let path = try historyPath(writer)
            var ghost = try writer.fetchHistory(HistoryQuery()).last!
            ghost.token.transaction = 3
            ghost.author = "killed"
            _ = try HistoryFile(path: path).append(ghost, sequence: 1_000, end: Int(try #require(FileStamp(path)).size), needsLineEnd: false)
            #expect(try follower.look() == [])
            try insert(writer, "t3", author: "next")  // its end is before the ghost: it cuts it off
            #expect(try follower.look() == [3])
            #expect(try follower.store.fetchHistory(HistoryQuery()).map(\.author) == ["w", "w", "next"])
        }

        /// 2,000 transactions, the follower looking now and then (so across journal folds): each
        /// exactly once, in order.
        /// 2,000 transactions, read in looks of irregular size. One record renamed by each save
        /// after the first, so the store stays small: a fold rewrites the whole document, and
        /// 2,000 inserts with a fold on every save cost 150 CPU seconds of `make test` here, none
        /// of it about the follower (the history file grows the same way: one line a save).
        func aLongHistory() throws {
            let writer = try open()
            let follower = Follower(try open(readOnly: true))
            var seen: [Int64] = []
            try insert(writer, "t1")
            seen += try follower.look()
            var tag = try #require(try writer.fetch(FetchDescriptor(entity: "Tag")).first)
            for n in 2...2_000 {
                tag = try tag.updating(["name": .string("t\(n)")])
                _ = try writer.save(SaveRequest(updated: [tag], author: "w"))
                if n % 89 == 0 || n % 97 == 0 || n < 20 { seen += try follower.look() }
            }
            seen += try follower.look()
            #expect(seen == Array(1...2_000))
            let read = try follower.store.fetch(FetchDescriptor(entity: "Tag"))
            let name = try read.first?.value("name")
            #expect(read.count == 1 && name == .string("t2000"))
        }

        /// The follower decodes each line once: damage written into a line it has read already
        /// (same length, the checksum left alone) goes unnoticed by it, while a new reader, which
        /// reads the whole file, reports it. Fails if the follower rereads the file on each look.
        /// JSON and XML: the same for a journal line it replayed (it reads only what follows).
        func readsEachLineOnce() throws {
            let writer = try open()
            for n in 1...3 { try insert(writer, "t\(n)") }
            let follower = Follower(try open(readOnly: true))
            #expect(try follower.look() == [1, 2, 3])
            let path = try historyPath(writer)
            var bytes = try #require(try DurableFile.read(path))
            let second = try #require(bytes.firstIndex(of: 0x0A)) + 1
            let third = try #require(bytes[second...].firstIndex(of: 0x0A)) + 1
            bytes[third - 3] = bytes[third - 3] == UInt8(ascii: "}") ? UInt8(ascii: "]") : UInt8(ascii: "}")  // line 2, past its checksum
            try overwrite(path, with: bytes)
            try insert(writer, "t4")
            #expect(try follower.look() == [4])
            #expect(throws: StrataError.self, "a whole read finds the damage") { _ = try open(readOnly: true) }
        }

        /// JSON and XML: the follower replays each journal line once (the document unchanged):
        /// damage written into a line it read goes unnoticed by it.
        func readsEachJournalLineOnce() throws {
            let writer = try open()
            for n in 1...4 { try insert(writer, "t\(n)") }
            let follower = Follower(try open(readOnly: true))
            #expect(try follower.look() == [1, 2, 3, 4])
            let journal = try #require(writer.watchedFiles.first(where: { $0.hasSuffix(".json.journal") || $0.hasSuffix(".xml.journal") }))
            var lines = try #require(try DurableFile.read(journal))
            let header = try #require(lines.firstIndex(of: 0x0A)) + 1
            let first = try #require(lines[header...].firstIndex(of: 0x0A))
            lines[first - 1] = lines[first - 1] == UInt8(ascii: "}") ? UInt8(ascii: "]") : UInt8(ascii: "}")
            try overwrite(journal, with: lines)
            #expect(try follower.look() == [])
            #expect(try follower.store.fetchCount(FetchDescriptor(entity: "Tag")) == 4)
            #expect(throws: StrataError.self, "a whole read finds the damage") { _ = try open(readOnly: true) }
        }

        /// Writes `bytes` into the file at `path` in place (same inode), as a writer's `write` does.
        func overwrite(_ path: String, with bytes: [UInt8]) throws {
            let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
            try #require(fd >= 0)
            defer { close(fd) }
            try #require(ftruncate(fd, off_t(bytes.count)) == 0)
            let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            try #require(written == bytes.count)
        }
    }

    /// A read-only store asking for the transactions after the last one it got, as a live
    /// history sequence does on each wake-up.
    final class Follower<Store: HistoryRecordingStore> {
        let store: Store
        var last: StoreHistoryToken?
        init(_ store: Store) { self.store = store }

        /// The numbers of the transactions new since the last look.
        func look() throws -> [Int64] {
            let new = try store.fetchHistory(HistoryQuery(after: last))
            if let token = new.last?.token { last = token }
            return new.map(\.token.transaction)
        }
    }
}
