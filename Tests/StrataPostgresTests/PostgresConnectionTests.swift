import Foundation
import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Testing

/// The libpq connection: binary parameters, every value round trip, pipelines, SQLSTATE mapping.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresConnectionTests {
    let connection: PostgresConnection

    init() throws {
        connection = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!))
        try connection.execute("CREATE TEMP TABLE t (k bigint PRIMARY KEY, i bigint, d double precision, s bytea, b bytea)")
    }

    @Test("every value comes back as bound: integer limits, NaN, −0, infinities, NUL in text, empty vs NULL")
    func roundTrip() throws {
        let texts = ["", "before\u{0}after\u{0}", "emoji 👩‍👩‍👧", "'; DROP TABLE t; --", "$1 ? \\x00"]
        let doubles: [Double] = [-0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.5]
        var key: Int64 = 0
        for (i, text) in texts.enumerated() {
            for double in doubles {
                key += 1
                let integer: Int64 = [Int64.min, .max, 0, -1, 42][i]
                try connection.query("INSERT INTO t VALUES ($1, $2, $3, $4, $5)", [.integer(key), .integer(integer), .real(double), .text(text), .blob(Data(text.utf8))])
                let rows = try connection.query("SELECT i, d, s, b FROM t WHERE k = $1", [.integer(key)])
                #expect(rows.count == 1)
                #expect(rows.value(0, 0) == .integer(integer))
                guard case .real(let back) = rows.value(0, 1) else { Issue.record("not a double: \(rows.value(0, 1))"); continue }
                #expect(back.bitPattern == double.bitPattern, "\(double) came back as \(back)")
                #expect(rows.value(0, 2) == .blob(Data(text.utf8)))
                #expect(rows.value(0, 3) == .blob(Data(text.utf8)))
            }
        }
        try connection.query("INSERT INTO t (k) VALUES ($1)", [.integer(-1)])
        let nulls = try connection.query("SELECT i, d, s, b FROM t WHERE k = $1", [.integer(-1)])
        #expect((0..<4).map { nulls.value(0, $0) } == [.null, .null, .null, .null])
        #expect(try connection.query("SELECT count(*) FROM t").integer(0, 0) == key + 1, "the injection text was stored as a value, the table is still there")
    }

    @Test("bytea orders text by its UTF-8 bytes, as the contract does")
    func byteOrder() throws {
        let texts = ["é", "a", "B", "", "a\u{0}", "Z", "ä"]
        for (i, text) in texts.enumerated() { try connection.query("INSERT INTO t (k, s) VALUES ($1, $2)", [.integer(Int64(i)), .text(text)]) }
        let rows = try connection.query("SELECT s FROM t ORDER BY s")
        let back = (0..<rows.count).map { row -> [UInt8] in
            if case .blob(let data) = rows.value(row, 0) { return Array(data) }
            return []
        }
        #expect(back == texts.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test("a pipeline sends many rows in one transaction; the first failure is reported and nothing stays")
    func pipeline() throws {
        let rows = (1...2_000).map { [SQLValue.integer(Int64($0)), .text("row \($0)")] }
        try connection.execute("BEGIN")
        try connection.run("INSERT INTO t (k, s) VALUES ($1, $2)", rows: rows)
        try connection.execute("COMMIT")
        #expect(try connection.query("SELECT count(*) FROM t").integer(0, 0) == 2_000)

        try connection.execute("BEGIN")
        var failing = (3_000...4_000).map { [SQLValue.integer(Int64($0)), .text("x")] }
        failing.insert([.integer(1_500), .text("duplicate key")], at: 700)
        #expect(throws: PostgresError.self) { try connection.run("INSERT INTO t (k, s) VALUES ($1, $2)", rows: failing) }
        do {
            try connection.run("INSERT INTO t (k, s) VALUES ($1, $2)", rows: failing)
        } catch let error as PostgresError {
            #expect(error.sqlstate == "25P02" || error.sqlstate == "23505")
        }
        try connection.execute("ROLLBACK")
        #expect(try connection.query("SELECT count(*) FROM t").integer(0, 0) == 2_000)
        #expect(connection.isAlive)
    }

    @Test("a unique violation maps onto uniqueConstraintViolation and keeps its SQLSTATE")
    func uniqueViolation() throws {
        try connection.query("INSERT INTO t (k) VALUES ($1)", [.integer(7)])
        do {
            try connection.query("INSERT INTO t (k) VALUES ($1)", [.integer(7)])
            Issue.record("the duplicate key was accepted")
        } catch let error as PostgresError {
            #expect(error.sqlstate == "23505")
            #expect(error.constraint == "t_pkey")
            let mapped = error.strataError(store: "test")
            #expect(mapped.code == .uniqueConstraintViolation)
            #expect(mapped.native?.domain == .postgres)
            #expect(mapped.native.map { PostgresSQLState.code(of: $0.code) } == "23505")
        }
        // The connection is usable after the failed statement (no transaction was open).
        #expect(try connection.query("SELECT count(*) FROM t").integer(0, 0) == 1)
    }

    @Test("SQLSTATE codes round-trip through their integer form", arguments: ["23505", "40P01", "08006", "XX000", "00000", "57P01"])
    func sqlstateNumbers(_ code: String) {
        #expect(PostgresSQLState.number(of: code) != 0 || code == "00000")
        #expect(PostgresSQLState.code(of: PostgresSQLState.number(of: code)) == code)
    }

    @Test("a connection over loopback TCP with the password works")
    func tcp() throws {
        let tcp = try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.tcpURL!))
        #expect(try tcp.query("SELECT $1::bigint + 1", [.integer(41)]).integer(0, 0) == 42)
    }
}
