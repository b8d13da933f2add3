import Foundation
import StrataSQLSupport

/// A statement of a `PostgresConnection` as the shared SQL layer drives it (`SQLStatement`): bind,
/// then step through the rows. The first `step()` runs the prepared statement (one round trip) and
/// keeps its rows; the following steps read them.
final class PostgresStatement: SQLStatement {
    unowned let connection: PostgresConnection
    let sql: String
    /// The bound parameters, 1…n.
    private(set) var parameters: [SQLValue] = []
    /// The prepared statement this one's rows last went into the save's queue as (an INSERT's
    /// with `ON CONFLICT DO NOTHING`), with its parameter types (`PostgresConnection.queueName`).
    var queued: (isInsert: Bool, types: [UInt32], name: String)?
    private var result: PostgresRows?
    private var row = -1

    init(_ sql: String, connection: PostgresConnection) {
        self.sql = sql
        self.connection = connection
    }

    /// Forgets the rows and the parameters.
    func reset() {
        parameters = []
        result = nil
        row = -1
    }

    func bind(_ values: [SQLValue]) throws {
        parameters = values
        result = nil
        row = -1
    }

    func bind(_ value: SQLValue, at index: Int32) throws {
        let i = Int(index) - 1
        if parameters.count <= i { parameters.append(contentsOf: repeatElement(.null, count: i + 1 - parameters.count)) }
        parameters[i] = value
        result = nil
        row = -1
    }

    /// Forgets the rows; the parameters stay for the next run.
    func resetKeepingBindings() {
        result = nil
        row = -1
    }

    func step() throws -> Bool {
        if result == nil { result = try connection.query(sql, parameters) }
        row += 1
        return row < result!.count
    }

    func run(_ values: [SQLValue]) throws {
        try connection.query(sql, values)
        reset()
    }

    func rows<T>(_ values: [SQLValue], _ read: (PostgresStatement) throws -> T) throws -> [T] {
        try bind(values)
        var rows: [T] = []
        while try step() { rows.append(try read(self)) }
        reset()
        return rows
    }

    var columnCount: Int32 { Int32(result?.columns ?? 0) }

    func value(_ column: Int32) -> SQLValue { result!.value(row, Int(column)) }

    func int64(_ column: Int32) -> Int64 { result!.integer(row, Int(column)) ?? 0 }

    func isNull(_ column: Int32) -> Bool { result!.isNull(row, Int(column)) }
}
