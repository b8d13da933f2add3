import CLibPQ
import Foundation
import StrataSQLSupport
@_spi(StrataEngine) import Strata

/// The rows of one statement, in binary format, read by row and column.
///
/// How to read each column (its type, and whether a `bytea` is one of the store's string columns)
/// is worked out once per result, not once per value: a scan reads every value of 100,000 rows.
final class PostgresRows {
    private let result: OpaquePointer
    /// How many rows.
    let count: Int
    /// How many columns.
    let columns: Int
    /// How each column reads, by column number.
    private let kinds: [Kind]

    /// A column's binary format as `value` reads it.
    private enum Kind {
        case int8, int4, int2, bool, float8, float4, bytes, text
    }

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
        let textColumns = connection.textColumns
        kinds = (0..<Int32(columns)).map { c in
            switch PQftype(result, c) {
            case 20: .int8
            case 23, 26: .int4
            case 21: .int2
            case 16: .bool
            case 701: .float8
            case 700: .float4
            // The store's string and URL columns (`PostgresConnection.textColumns`): their `bytea` reads as text.
            case 17: !textColumns.isEmpty && textColumns.contains(PostgresConnection.columnKey(table: PQftable(result, c), column: PQftablecol(result, c))) ? .text : .bytes
            default: .text
            }
        }
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
        let raw = UnsafeRawPointer(PQgetvalue(result, r, c)!)
        switch kinds[column] {
        case .int8: return .integer(Int64(bigEndian: raw.loadUnaligned(as: Int64.self)))
        case .int4: return .integer(Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self))))
        case .int2: return .integer(Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self))))
        case .bool: return .integer(raw.load(as: UInt8.self) == 0 ? 0 : 1)
        case .float8: return .real(Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))))
        case .float4: return .real(Double(Float(bitPattern: UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))))
        case .bytes: return .blob(Data(bytes: raw, count: Int(PQgetlength(result, r, c))))
        case .text: return .text(String(decoding: UnsafeRawBufferPointer(start: raw, count: Int(PQgetlength(result, r, c))), as: UTF8.self))
        }
    }

    /// The attribute value of `type` at `row`, `column` (its `__bits` companion at `bits`, when the
    /// attribute has one), decoded straight from libpq's buffer for the common column types: no
    /// `SQLValue` in between, one NULL test per column (a scan decodes every value of every row).
    /// Anything else goes through `PostgresRecords.decode`, which gives the same values.
    ///
    /// - Throws: `corruptStore` when the column holds what no save writes.
    func attribute(_ row: Int, _ column: Int, bits: Int?, type: AttributeType, store: String) throws -> Value {
        let r = Int32(row), c = Int32(column)
        if let bits, let pattern = integer(row, bits) {
            // NaN and −0, kept by their bits.
            let d = Double(bitPattern: UInt64(bitPattern: pattern))
            return type == .date ? .date(Date(timeIntervalSinceReferenceDate: d)) : .double(d)
        }
        if PQgetisnull(result, r, c) == 1 { return .null }
        let raw = UnsafeRawPointer(PQgetvalue(result, r, c)!)
        switch (type, kinds[column]) {
        case (.int, .int8): return .int(Int64(bigEndian: raw.loadUnaligned(as: Int64.self)))
        case (.bool, .int8): return .bool(Int64(bigEndian: raw.loadUnaligned(as: Int64.self)) != 0)
        case (.double, .float8): return .double(Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))))
        case (.date, .float8): return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)))))
        case (.string, .text), (.string, .bytes):
            return .string(String(decoding: UnsafeRawBufferPointer(start: raw, count: Int(PQgetlength(result, r, c))), as: UTF8.self))
        default: return try PostgresRecords.decode(value(row, column), bits: .null, type: type, store: store)
        }
    }

    /// The bytes at `row`, `column` as the server sent them, whatever the column's type (nil for
    /// NULL): a `bytea[]` in PostgreSQL's binary array form (`PostgresHistory.priorElements`).
    func raw(_ row: Int, _ column: Int) -> Data? {
        let r = Int32(row), c = Int32(column)
        if PQgetisnull(result, r, c) == 1 { return nil }
        return Data(bytes: PQgetvalue(result, r, c)!, count: Int(PQgetlength(result, r, c)))
    }

    /// Whether the value at `row`, `column` is NULL (nothing decoded).
    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// The integer at `row`, `column` (nil for NULL or another type).
    func integer(_ row: Int, _ column: Int) -> Int64? {
        let r = Int32(row), c = Int32(column)
        if PQgetisnull(result, r, c) == 1 { return nil }
        let raw = UnsafeRawPointer(PQgetvalue(result, r, c)!)
        switch kinds[column] {
        case .int8: return Int64(bigEndian: raw.loadUnaligned(as: Int64.self))
        case .int4: return Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self)))
        case .int2: return Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self)))
        case .bool: return raw.load(as: UInt8.self) == 0 ? 0 : 1
        default: return nil
        }
    }
}
