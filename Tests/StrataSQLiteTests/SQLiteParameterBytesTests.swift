import Foundation
import Testing
@testable import StrataSQLite
import StrataSQLSupport

/// Text and blobs bound static (`SQLiteParameterBytes`): what SQLite stores is exactly what was
/// bound, run after run of one statement, whatever the lengths, and a parameter bound once keeps
/// its value after the Swift value it came from is gone.
struct SQLiteParameterBytesTests {
    /// Values in an order that grows, shrinks and regrows each parameter's buffer, then crosses
    /// `largest` (SQLite's own copy) and comes back under it.
    static let texts: [String] = [
        "", "a", "ab\u{0}c", "é, ü, 文字, 🙂", String(repeating: "x", count: 31), String(repeating: "y", count: 33),
        "b", String(repeating: "z", count: 200), "", String(repeating: "w", count: SQLiteParameterBytes.largest),
        String(repeating: "v", count: SQLiteParameterBytes.largest + 1), "c",
    ]

    /// A new database in `dir` with table `t` of `columns` after the key `n`, and its INSERT.
    static func table(_ columns: [String], in dir: URL) throws -> (SQLiteConnection, SQLiteStatement) {
        let db = try SQLiteConnection(path: dir.appendingPathComponent("bytes.sqlite").path, create: true, busyTimeout: .seconds(5))
        try db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, \(columns.joined(separator: ", ")))")
        let names = ["n"] + columns.map { String($0.prefix { $0 != " " }) }
        return (db, try db.prepare("INSERT INTO t (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"))
    }

    @Test func storedAsBoundRunAfterRun() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (db, insert) = try Self.table(["a TEXT", "b BLOB", "c TEXT"], in: dir)
        for (n, text) in Self.texts.enumerated() {
            // The row statement's way (`bindRow`, `runRow`): every parameter bound again, bindings kept.
            try insert.bind(.integer(Int64(n)), at: 1)
            try insert.bind(.text(text), at: 2)
            try insert.bind(.blob(Data(text.utf8.reversed())), at: 3)
            try insert.bind(.text(Self.texts[Self.texts.count - 1 - n]), at: 4)
            while try insert.step() {}
            insert.resetKeepingBindings()
        }
        let rows = try db.prepare("SELECT a, b, c FROM t ORDER BY n").rows { ($0.value(0), $0.value(1), $0.value(2)) }
        #expect(rows.count == Self.texts.count)
        for (n, row) in rows.enumerated() {
            #expect(row.0 == .text(Self.texts[n]), "row \(n), a")
            #expect(row.1 == .blob(Data(Self.texts[n].utf8.reversed())), "row \(n), b")
            #expect(row.2 == .text(Self.texts[Self.texts.count - 1 - n]), "row \(n), c")
        }
    }

    @Test func aKeptBindingOutlivesItsString() throws {
        let dir = try SQLiteFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (db, insert) = try Self.table(["a TEXT"], in: dir)
        // Bound from a string made and dropped in this scope; the next runs rebind only the key.
        do {
            let made = (0 ..< 40).map { String($0 % 10) }.joined()
            try insert.bind(.text(made), at: 2)
        }
        for n in 1 ... 3 {
            _ = (0 ..< 40).map { "overwrite \($0)" }.joined()
            try insert.bind(.integer(Int64(n)), at: 1)
            while try insert.step() {}
            insert.resetKeepingBindings()
        }
        let expected = (0 ..< 40).map { String($0 % 10) }.joined()
        let stored = try db.prepare("SELECT a FROM t ORDER BY n").rows { $0.value(0) }
        #expect(stored == [.text(expected), .text(expected), .text(expected)])
    }
}
