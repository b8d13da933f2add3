import Foundation
import StrataSQLSupport
@_spi(StrataEngine) import Strata

/// PostgreSQL's spelling of the shared SQL layer (`SQLDialect`): `$n` placeholders, `TRUE`/`FALSE`,
/// `NULLS FIRST`/`NULLS LAST` (PostgreSQL sorts NULL last ascending by itself), keys handed out by
/// the save under the store's write lock and never reused (`lastKeyQuery`), strings in `bytea`
/// (NUL-safe, compared by bytes, docs/formats/postgres.md "Types"), foreign keys added after the tables.
enum PostgresDialect: SQLDialect {
    /// PostgreSQL keeps the first 63 bytes of a name (NAMEDATALEN − 1), cut at a character's
    /// start: two names that agree there are one table, index or column.
    static func identifierKey(_ name: String) -> String {
        guard name.utf8.count > 63 else { return name }
        var bytes = 0
        for scalar in name.unicodeScalars {
            guard bytes + UTF8.width(scalar) <= 63 else { break }
            bytes += UTF8.width(scalar)
        }
        return String(decoding: name.utf8.prefix(bytes), as: UTF8.self)
    }

    static func placeholder(_ index: Int) -> String { "$\(index)" }

    static let trueLiteral = "TRUE"
    static let falseLiteral = "FALSE"

    static func isNotTrue(_ condition: String) -> String { "((\(condition)) IS NOT TRUE)" }

    static func direction(ascending: Bool) -> String { ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST" }

    /// Strings are `bytea`, which orders by bytes: byte order needs no collation. The other
    /// comparators have no PostgreSQL collation that orders exactly as `StringComparator` does
    /// (`stringOrder`).
    static func collation(_ comparator: StringComparator) -> String { "" }

    /// `caseInsensitive` as the contract defines it: the lowercased text (`lowercased`) by code
    /// point — UTF-8 bytes order as code points do — then the original bytes. Byte order: the
    /// `bytea` column itself. `localizedStandard` is ordered in Swift (`sortsInSwift`).
    static func stringOrder(_ column: String, _ comparator: StringComparator, direction: String) -> String {
        comparator == .caseInsensitive ? "\(lowercased(column)) \(direction), \(column) \(direction)" : "\(column) \(direction)"
    }

    /// The `bytea` text in `column` lowercased as Swift's `String.lowercased()` does, as UTF-8
    /// bytes: PostgreSQL's `lower` under the ICU root collation (full Unicode mappings, `İ` → `i̇`)
    /// after `Σ` → `σ`, since ICU alone writes a word-final capital sigma as `ς` (Unicode's
    /// Final_Sigma context) where Swift maps each scalar alone (`"ΟΔΟΣ"` → `"οδοσ"`).
    ///
    /// PostgreSQL text cannot hold NUL, so a value holding one is lowercased piece by piece between
    /// its NULs (NUL has no case): split in hex (`:` before each byte, so `:00` is a whole byte),
    /// each piece lowercased, joined again with NUL bytes. The other values take the short way.
    static func lowercased(_ column: String) -> String {
        func lower(_ bytes: String) -> String {
            "convert_to(lower(replace(convert_from(\(bytes), 'UTF8'), chr(931), chr(963)) COLLATE \"und-x-icu\"), 'UTF8')"
        }
        let pieces = "unnest(string_to_array(regexp_replace(encode(\(column), 'hex'), '(..)', ':\\1', 'g'), ':00')) WITH ORDINALITY AS piece(hex, n)"
        let lowered = "encode(\(lower("decode(replace(piece.hex, ':', ''), 'hex')")), 'hex')"
        return "(CASE WHEN \(column) IS NULL THEN NULL WHEN position('\\x00'::bytea IN \(column)) = 0 THEN \(lower(column)) "
            + "ELSE decode(array_to_string(ARRAY(SELECT \(lowered) FROM \(pieces) ORDER BY piece.n), '00'), 'hex') END)"
    }

    static func window(limit: Int?, offset: Int) -> String { "LIMIT \(limit.map(String.init) ?? "ALL") OFFSET \(offset)" }

    /// Byte-wise on the `bytea` column: `position` and `substring` count bytes. Case-insensitive:
    /// on the text lowercased as Swift does (`lowercased`).
    static func textTest(_ op: StringOperator, column: String, pattern: String, caseInsensitive: Bool, parameter: (SQLValue) -> String) -> String {
        let subject = caseInsensitive ? lowercased(column) : column
        let bytes = Data((caseInsensitive ? pattern.lowercased() : pattern).utf8)
        if bytes.isEmpty { return "(\(column) IS NOT NULL)" }
        let p = parameter(.blob(bytes))
        switch op {
        case .contains: return "(position(\(p) in \(subject)) > 0)"
        case .hasPrefix: return "(substring(\(subject) from 1 for \(bytes.count)) = \(p))"
        case .hasSuffix: return "(length(\(subject)) >= \(bytes.count) AND substring(\(subject) from length(\(subject)) - \(bytes.count - 1)) = \(p))"
        }
    }

    /// One `bigint[]` parameter: one statement text for any number of keys.
    static func keyIn(_ column: String, _ keys: [Int64], parameter: (SQLValue) -> String) -> String {
        "(\(column) = ANY(CAST(convert_from(\(parameter(.blob(Data(SQLKeyList.bytes(keys, open: UInt8(ascii: "{"), close: UInt8(ascii: "}")))))), 'UTF8') AS bigint[])))"
    }

    /// Keys are handed out by the save (the layer's `lastKeyQuery`), under the store's write lock.
    static let keyColumnType = "BIGINT PRIMARY KEY"
    static let integerType = "BIGINT"

    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .bool, .int: "BIGINT"
        case .double, .date: "DOUBLE PRECISION"
        case .string, .url, .data, .uuid: "BYTEA"
        }
    }

    static let joinTableOptions = ""
}

extension PostgresDialect {
    static func insertIgnoringDuplicate(into table: String, columns: [String]) -> String {
        "INSERT INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) VALUES (\((1...columns.count).map(placeholder).joined(separator: ", "))) ON CONFLICT DO NOTHING"
    }

    /// The largest key ever handed out in `table`: the largest key there now, or a larger one
    /// deleted since (`strata_keys`, kept by the delete trigger `PostgresCatalog` puts on every
    /// entity table).
    static func lastKeyQuery(table: String) -> (sql: String, parameters: [SQLValue]) {
        ("SELECT GREATEST((SELECT max(\(quote("_pk"))) FROM \(quote(table))), (SELECT \"last\" FROM \(quote(PostgresCatalog.keysTable)) WHERE \"table\" = $1), 0)", [.text(table)])
    }

    /// PostgreSQL refuses a reference to a table that does not exist yet.
    static var addsForeignKeysAfterTables: Bool { true }
}

extension PostgresDialect {
    /// Whether `descriptor` sorts a string with the `localizedStandard` comparator, whose digit
    /// runs compared as numbers and removed marks no PostgreSQL expression reproduces exactly: such a
    /// fetch is filtered in SQL and ordered by the core's sort keys (`PostgresStore`). Byte order
    /// and `caseInsensitive` sort in SQL (`stringOrder`).
    static func sortsInSwift(_ descriptor: FetchDescriptor, entity: EntitySchema) -> Bool {
        descriptor.sortBy.contains { $0.comparator == .localizedStandard }
    }
}
