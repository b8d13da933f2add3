import CSQLite
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// The core's string comparators as SQLite collations, so `ORDER BY … COLLATE strata_…` sorts
/// exactly as every other backend does: the comparison is `StringComparator.compare`, called
/// from SQLite, never an SQL approximation (`NOCASE` folds ASCII only).
enum SQLiteCollations {
    /// The collation's name for a comparator (`nil` for byte order: SQLite's own `BINARY`).
    static func name(_ comparator: StringComparator) -> String? {
        comparator == .byteOrder ? nil : "strata_\(comparator.rawValue.lowercased())"
    }

    /// ` COLLATE <name>` for an ORDER BY term, or nothing for byte order.
    static func clause(_ comparator: StringComparator) -> String {
        name(comparator).map { " COLLATE \($0)" } ?? ""
    }

    /// Registers one collation per non-default comparator on a connection.
    static func register(on handle: OpaquePointer) throws {
        for (i, comparator) in StringComparator.allCases.enumerated() {
            guard let name = name(comparator) else { continue }
            // The comparator travels as its index + 1 in the user-data pointer: nothing to free.
            let rc = sqlite3_create_collation_v2(handle, name, SQLITE_UTF8, UnsafeMutableRawPointer(bitPattern: i + 1), { context, lengthA, a, lengthB, b in
                let comparator = StringComparator.allCases[Int(bitPattern: context) - 1]
                let left = String(decoding: UnsafeRawBufferPointer(start: a, count: Int(lengthA)), as: UTF8.self)
                let right = String(decoding: UnsafeRawBufferPointer(start: b, count: Int(lengthB)), as: UTF8.self)
                return Int32(comparator.compare(left, right).signum())
            }, nil)
            guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: "cannot register collation \(name)", sql: nil) }
        }
    }
}
