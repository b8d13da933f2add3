import Foundation
import StrataSQLSupport
@_spi(StrataEngine) import Strata

/// SQLite's spelling of the shared SQL layer (`SQLDialect`): `?` placeholders, `1`/`0` truth,
/// `AUTOINCREMENT` keys (never reused, kept in `sqlite_sequence`), join tables `WITHOUT ROWID`,
/// text search on `CAST(… AS BLOB)` and the registered `strata_lower` function (SQLite's `lower`
/// folds ASCII only), string order through the registered collations (`SQLiteCollations`).
enum SQLiteDialect: SQLDialect {
    /// SQLite compares identifiers ignoring ASCII case ("Item" and "ITEM" are one table).
    static func identifierKey(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    static func placeholder(_ index: Int) -> String { "?" }

    static let trueLiteral = "1"
    static let falseLiteral = "0"

    static func isNotTrue(_ condition: String) -> String { "((\(condition)) IS NOT 1)" }

    /// SQLite's `IS NOT`, which its planner handles as it always did (`IS DISTINCT FROM` is the same
    /// operator spelled the standard way).
    static func isDistinct(_ lhs: String, from rhs: String) -> String { "(\(lhs) IS NOT \(rhs))" }

    /// SQLite sorts NULL first ascending and last descending by itself.
    static func direction(ascending: Bool) -> String { ascending ? "ASC" : "DESC" }

    static func collation(_ comparator: StringComparator) -> String { SQLiteCollations.clause(comparator) }

    /// `LIMIT -1` is SQLite's "no limit".
    static func window(limit: Int?, offset: Int) -> String { "LIMIT \(limit ?? -1) OFFSET \(offset)" }

    static func textTest(_ op: StringOperator, column: String, pattern: String, caseInsensitive: Bool, parameter: (SQLValue) -> String) -> String {
        let subject = caseInsensitive ? "strata_lower(\(column))" : "CAST(\(column) AS BLOB)"
        let bytes = Data((caseInsensitive ? pattern.lowercased() : pattern).utf8)
        if bytes.isEmpty { return "(\(column) IS NOT NULL)" }
        let p = parameter(.blob(bytes))
        switch op {
        case .contains: return "(instr(\(subject), \(p)) > 0)"
        case .hasPrefix: return "(substr(\(subject), 1, \(bytes.count)) = \(p))"
        case .hasSuffix: return "(length(\(subject)) >= \(bytes.count) AND substr(\(subject), -\(bytes.count)) = \(p))"
        }
    }

    /// The keys travel as one JSON array parameter, read by `json_each`: one statement text for any
    /// number of keys.
    static func keyIn(_ column: String, _ keys: [Int64], parameter: (SQLValue) -> String) -> String {
        let list = String(decoding: SQLKeyList.bytes(keys, open: UInt8(ascii: "["), close: UInt8(ascii: "]")), as: UTF8.self)
        return "(\(column) IN (SELECT value FROM json_each(\(parameter(.text(list))))))"
    }

    static let keyColumnType = "INTEGER PRIMARY KEY AUTOINCREMENT"
    static let integerType = "INTEGER"

    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .bool, .int: "INTEGER"
        case .double, .date: "REAL"
        case .string, .url: "TEXT"
        case .data, .uuid: "BLOB"
        }
    }

    static let joinTableOptions = " WITHOUT ROWID"

    static func insertIgnoringDuplicate(into table: String, columns: [String]) -> String {
        "INSERT OR IGNORE INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }

    /// `AUTOINCREMENT` keeps the largest key handed out in `sqlite_sequence`.
    static func lastKeyQuery(table: String) -> (sql: String, parameters: [SQLValue]) {
        ("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(table)])
    }
}
