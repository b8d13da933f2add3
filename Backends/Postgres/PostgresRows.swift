import CLibPQ
import Foundation
import StrataSQLSupport

/// The rows of one statement, in binary format, read by row and column.
final class PostgresRows {
    private let result: OpaquePointer
    /// How many rows.
    let count: Int
    /// How many columns.
    let columns: Int
    /// The store's string and URL columns (`PostgresConnection.textColumns`): their `bytea` reads as text.
    private let textColumns: Set<Int64>

    /// Takes `result` if it succeeded; throws its error (and frees it) if not.
    init(checking result: OpaquePointer?, connection: PostgresConnection) throws {
        let status = PQresultStatus(result)
        guard let result, status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let error = PostgresError(result: result, connection: connection.handle, settings: connection.settings)
            PQclear(result)
            throw error
        }
        self.result = result
        count = Int(PQntuples(result))
        columns = Int(PQnfields(result))
        textColumns = connection.textColumns
    }

    deinit { PQclear(result) }

    /// How many rows an INSERT, UPDATE or DELETE changed.
    var affected: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The value at `row`, `column`: integers of any width as `.integer`, floats as `.real`, `bytea`
    /// as `.blob` (as `.text` when it is a string or URL column of the store, so rows read back equal
    /// what `SQLValueCodec` binds), text types as `.text`.
    func value(_ row: Int, _ column: Int) -> SQLValue {
        let r = Int32(row), c = Int32(column)
        if PQgetisnull(result, r, c) == 1 { return .null }
        let length = Int(PQgetlength(result, r, c))
        let raw = UnsafeRawPointer(PQgetvalue(result, r, c)!)
        switch PQftype(result, c) {
        case 20: return .integer(Int64(bigEndian: raw.loadUnaligned(as: Int64.self)))
        case 23, 26: return .integer(Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self))))
        case 21: return .integer(Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self))))
        case 16: return .integer(raw.load(as: UInt8.self) == 0 ? 0 : 1)
        case 701: return .real(Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))))
        case 700: return .real(Double(Float(bitPattern: UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))))
        case 17:
            if !textColumns.isEmpty, textColumns.contains(PostgresConnection.columnKey(table: PQftable(result, c), column: PQftablecol(result, c))) {
                return .text(String(decoding: UnsafeRawBufferPointer(start: raw, count: length), as: UTF8.self))
            }
            return .blob(Data(bytes: raw, count: length))
        default: return .text(String(decoding: UnsafeRawBufferPointer(start: raw, count: length), as: UTF8.self))
        }
    }

    /// The integer at `row`, `column` (nil for NULL or another type).
    func integer(_ row: Int, _ column: Int) -> Int64? {
        if case .integer(let v) = value(row, column) { return v }
        return nil
    }
}
