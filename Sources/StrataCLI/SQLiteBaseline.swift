import CSQLite
import Foundation
import Strata
import StrataConformance

/// The standard workload run directly on the SQLite C API: prepared statements, one transaction per
/// save, the same rows, the same seed — the physical limit the SQLite backend is measured against.
enum SQLiteBaseline {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    final class Database {
        let handle: OpaquePointer
        init(_ path: String) throws {
            var db: OpaquePointer?
            guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
                throw Failure(description: "cannot open \(path)")
            }
            handle = db
        }
        deinit { sqlite3_close_v2(handle) }

        func exec(_ sql: String) throws {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw Failure(description: String(cString: sqlite3_errmsg(handle))) }
        }

        func prepare(_ sql: String) throws -> OpaquePointer {
            var stmt: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else { throw Failure(description: String(cString: sqlite3_errmsg(handle))) }
            return stmt
        }
    }

    private static func bindText(_ stmt: OpaquePointer, _ i: Int32, _ s: String) {
        sqlite3_bind_text(stmt, i, s, Int32(s.utf8.count), strata_sqlite_transient())
    }

    /// One row as the backend would hand it out: every column read into Swift values.
    private static func readItem(_ stmt: OpaquePointer) -> (Int64, String, Int64, Double, Double, String?, Int64) {
        func text(_ c: Int32) -> String? {
            guard sqlite3_column_type(stmt, c) != SQLITE_NULL, let p = sqlite3_column_text(stmt, c) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, c))), as: UTF8.self)
        }
        return (sqlite3_column_int64(stmt, 0), text(1) ?? "", sqlite3_column_int64(stmt, 2), sqlite3_column_double(stmt, 3), sqlite3_column_double(stmt, 4), text(5), sqlite3_column_int64(stmt, 6))
    }

    static func run(records: Int) throws -> [String: WorkloadReport.Figure] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("raw.sqlite").path
        var figures: [String: WorkloadReport.Figure] = [:]
        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let start = ContinuousClock.now
            try body()
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        let columns = "_pk, name, category, price, createdAt, note, owner"
        var db: Database? = try Database(path)
        try db!.exec("""
            PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;
            CREATE TABLE Owner (_pk INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
            CREATE TABLE Item (_pk INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, category INTEGER, price REAL, createdAt REAL, note TEXT,
                owner INTEGER REFERENCES Owner(_pk) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED);
            CREATE UNIQUE INDEX Item_name ON Item(name); CREATE INDEX Item_category ON Item(category); CREATE INDEX Item_owner ON Item(owner);
            """)
        // 1. insert
        let owners = records / 100
        let values = (0..<records).map(WorkloadSchema.itemValues)
        var t = try seconds {
            try db!.exec("BEGIN IMMEDIATE")
            let o = try db!.prepare("INSERT INTO Owner (_pk, name) VALUES (?, ?)")
            for i in 0..<owners {
                sqlite3_bind_int64(o, 1, Int64(i + 1)); bindText(o, 2, "owner-\(i)")
                guard sqlite3_step(o) == SQLITE_DONE else { throw Failure(description: "owner insert") }
                sqlite3_reset(o)
            }
            sqlite3_finalize(o)
            let s = try db!.prepare("INSERT INTO Item (_pk, name, category, price, createdAt, note, owner) VALUES (?, ?, ?, ?, ?, ?, ?)")
            for (i, v) in values.enumerated() {
                sqlite3_bind_int64(s, 1, Int64(i + 1))
                bindText(s, 2, v[0].string!)
                sqlite3_bind_int64(s, 3, v[1].int!)
                sqlite3_bind_double(s, 4, v[2].double!)
                sqlite3_bind_double(s, 5, v[3].date!.timeIntervalSinceReferenceDate)
                if let note = v[4].string { bindText(s, 6, note) } else { sqlite3_bind_null(s, 6) }
                sqlite3_bind_int64(s, 7, Int64(i / 100 + 1))
                guard sqlite3_step(s) == SQLITE_DONE else { throw Failure(description: "item insert") }
                sqlite3_reset(s)
            }
            sqlite3_finalize(s)
            try db!.exec("COMMIT")
        }
        figures["insert"] = .init(value: Double(owners + records) / t, unit: "records/s")
        // 2. reopen
        db = nil
        t = try seconds {
            db = try Database(path)
            try db!.exec("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; SELECT COUNT(*) FROM Owner")
        }
        figures["reopen"] = .init(value: t * 1000, unit: "ms")
        let d = db!
        // 3. fetch-by-id
        var rng = SeededGenerator(state: 42)
        let probes = (0..<10_000).map { _ in Int64(rng.next() % UInt64(records)) + 1 }
        let byID = try d.prepare("SELECT \(columns) FROM Item WHERE _pk = ?")
        t = try seconds {
            for key in probes {
                sqlite3_bind_int64(byID, 1, key)
                guard sqlite3_step(byID) == SQLITE_ROW else { throw Failure(description: "fetch-by-id") }
                _ = readItem(byID)
                sqlite3_reset(byID)
            }
        }
        sqlite3_finalize(byID)
        figures["fetch-by-id"] = .init(value: Double(probes.count) / t, unit: "lookups/s")
        // 4. scan
        var count = 0
        t = try seconds {
            let s = try d.prepare("SELECT \(columns) FROM Item ORDER BY _pk")
            while sqlite3_step(s) == SQLITE_ROW { _ = readItem(s); count += 1 }
            sqlite3_finalize(s)
        }
        figures["scan"] = .init(value: Double(count) / t, unit: "records/s")
        // 5. filter
        t = try seconds {
            let s = try d.prepare("SELECT \(columns) FROM Item WHERE category = 42 ORDER BY price DESC, _pk")
            while sqlite3_step(s) == SQLITE_ROW { _ = readItem(s) }
            sqlite3_finalize(s)
        }
        figures["filter"] = .init(value: t * 1000, unit: "ms")
        // 6. update-one
        let one = try d.prepare("UPDATE Item SET price = ? WHERE _pk = ?")
        var durations: [Double] = []
        for round in 0..<100 {
            let key = Int64(rng.next() % UInt64(records)) + 1
            durations.append(try seconds {
                try d.exec("BEGIN IMMEDIATE")
                sqlite3_bind_double(one, 1, Double(round) + 0.5); sqlite3_bind_int64(one, 2, key)
                guard sqlite3_step(one) == SQLITE_DONE else { throw Failure(description: "update-one") }
                sqlite3_reset(one)
                try d.exec("COMMIT")
            } * 1000)
        }
        sqlite3_finalize(one)
        durations.sort()
        figures["update-one"] = .init(value: (durations[49] + durations[50]) / 2, unit: "ms (median)")
        // 7. update-batch
        t = try seconds {
            try d.exec("BEGIN IMMEDIATE")
            let s = try d.prepare("UPDATE Item SET price = ? WHERE _pk = ?")
            for i in stride(from: 0, to: records, by: 10) {
                sqlite3_bind_double(s, 1, -Double(i)); sqlite3_bind_int64(s, 2, Int64(i + 1))
                guard sqlite3_step(s) == SQLITE_DONE else { throw Failure(description: "update-batch") }
                sqlite3_reset(s)
            }
            sqlite3_finalize(s)
            try d.exec("COMMIT")
        }
        figures["update-batch"] = .init(value: Double(records / 10) / t, unit: "records/s")
        // 8. unique-violation
        t = try seconds {
            try d.exec("BEGIN IMMEDIATE")
            let s = try d.prepare("INSERT INTO Item (name, category, price, createdAt, note, owner) VALUES (?, 7, 1.75, 0, NULL, 1)")
            bindText(s, 1, values[7][0].string!)
            guard sqlite3_step(s) == SQLITE_CONSTRAINT else { throw Failure(description: "duplicate accepted") }
            sqlite3_finalize(s)
            try d.exec("ROLLBACK")
        }
        figures["unique-violation"] = .init(value: t * 1000, unit: "ms")
        // 9. cascade-delete
        t = try seconds { try d.exec("BEGIN IMMEDIATE; DELETE FROM Owner WHERE _pk <= 10; COMMIT") }
        figures["cascade-delete"] = .init(value: t * 1000, unit: "ms")
        // 10. size
        figures["size"] = .init(value: Double(StandardWorkloadSize.bytes(dir)), unit: "bytes")
        return figures
    }
}
