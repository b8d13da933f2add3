import Foundation
import Strata
import StrataConformance
import StrataSQLite
import StrataTestSupport
import Testing

/// The SQLite backend's files, checked with the `sqlite3` shell, and the files it must refuse.
struct SQLiteFileTests {
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs the `sqlite3` shell on `file` with `sql` and returns what it printed.
    @discardableResult
    static func shell(_ file: URL, _ sql: String) throws -> String {
        try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [file.path, sql], errors: .merged).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Changes the store `file` with the `sqlite3` shell, as another program would, and accepts the
    /// change (`SQLiteStore.resealPages`: the shell cannot keep the page checksums).
    static func edit(_ file: URL, _ sql: String) throws {
        try shell(file, sql)
        try SQLiteStore.resealPages(at: file)
    }

    static func open(_ file: URL, schema: Schema = FixtureDomain.schema, timeout: Duration = .seconds(5)) throws -> SQLiteStore {
        try SQLiteStore(SQLiteStoreConfiguration(url: file, schema: schema, busyTimeout: timeout))
    }

    @Test func theShellReadsAConsistentStore() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sample.sqlite")
        do {
            let store = try Self.open(file)
            try FixtureDomain.writeSample(into: store)
        }
        #expect(try Self.shell(file, "PRAGMA integrity_check") == "ok")
        #expect(try Self.shell(file, "PRAGMA foreign_key_check") == "")
        let tables = try Self.shell(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").split(separator: "\n").map(String.init)
        for entity in FixtureDomain.schema.entities { #expect(tables.contains(entity.name), "table \(entity.name)") }
        #expect(tables.contains("Author_books__Book_authors"))
        let unique = try Self.shell(file, "SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE 'CREATE UNIQUE INDEX%' ORDER BY name")
        #expect(unique == ["Author__unique_0", "Book__unique_0", "Book__unique_1", "Library__unique_0", "Reading__unique_0", "Tag__unique_0"].joined(separator: "\n"))
        #expect(try Self.shell(file, "SELECT title FROM Book WHERE isbn = '978-0441013593'") == "Dune")
        #expect(try Self.shell(file, "PRAGMA journal_mode") == "wal")
        #expect(try Self.shell(file, "PRAGMA user_version") == "1")
        // NaN and −0 keep their bits in the companion column.
        #expect(try Self.shell(file, "SELECT double IS NULL, double__bits IS NOT NULL FROM Sample WHERE label = 'specials'") == "1|1")
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("notes.txt")
        let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: file)
        let error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .corruptStore)
        // SQLite's own code is kept: SQLITE_NOTADB (26), shown in the description.
        #expect(error.native?.domain == .sqlite && error.native?.code == 26, "\(error)")
        #expect(error.description.contains("[sqlite 26: file is not a database]"), "\(error)")
        #expect(try Data(contentsOf: file) == bytes)
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }

    @Test func someoneElsesDatabaseIsRefusedUntouched() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("other.sqlite")
        try Self.shell(file, "CREATE TABLE Library (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO Library VALUES (1, 'theirs');")
        let before = try Data(contentsOf: file)
        let error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("someone else"))
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func aNewerFormatIsRefusedUntouched() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("future.sqlite")
        do { _ = try Self.open(file) }
        try Self.edit(file, "PRAGMA user_version = 99")
        let before = try Data(contentsOf: file)
        let error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .unsupported)
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func aBusyDatabaseFailsWithStoreLocked() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("busy.sqlite")
        let store = try Self.open(file, timeout: .milliseconds(200))
        // Another process takes the write lock and keeps it while its standard input stays open.
        let holder = try ChildProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [file.path], errors: .inherited)
        holder.send("BEGIN IMMEDIATE;\nSELECT 'locked';\n")
        #expect(holder.lines.read { $0.contains("locked") })
        let tag = try SQLiteSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "t"])
        let error = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: [tag])) }
        #expect(error.code == .storeLocked)
        #expect(error.native?.domain == .sqlite && error.native.map { $0.code & 0xff } == 5 /* SQLITE_BUSY */, "\(error)")
        // Readers still read while the other process holds the lock.
        #expect(try store.fetchCount(FetchDescriptor(entity: "Tag")) == 0)
        holder.finish()
        _ = try store.save(SaveRequest(inserted: [tag]))
        #expect(try store.fetchCount(FetchDescriptor(entity: "Tag")) == 1)
    }

    @Test func saveResultsMatchTheMemoryBackend() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Self.open(dir.appendingPathComponent("dump.sqlite"))
        try FixtureDomain.writeSample(into: store)
        let dump = try StoreDump.json(store)
        #expect(dump.contains("\"Frank Herbert\""))
        #expect(dump.contains("\"bits:7ff8000000000000\""))  // NaN survived
    }
}
