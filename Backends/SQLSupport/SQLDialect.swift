import Foundation
@_spi(StrataEngine) import Strata

/// Everything in which one SQL database's text differs from another's, in one place.
///
/// The mapping (`SQLMapping`), the query builder (`SQLQuery`) and the save transaction write their
/// SQL through a dialect, so SQLite and PostgreSQL share how Strata maps onto tables and differ only
/// here (docs/architecture.md, "SQL backends share one mapping layer"; docs/writing-a-backend.md,
/// "A SQL backend"). A dialect is a type with static requirements, never an instance: the layer is
/// generic over it (`SQLQuery<SQLiteDialect>`), so no call in a hot path goes through an existential.
///
/// What every dialect shares and a backend cannot change (the layer's fixed choices):
/// - one table per entity with an integer key column `_pk`, typed attribute columns, a `__bits`
///   companion beside every double and date column (NaN is stored as NULL + its bit pattern, −0 as
///   0 + its bit pattern, so NaN equals nothing and sorts after +infinity, as the contract says,
///   whatever the database does with NaN natively), to-one foreign key columns with `__order`
///   beside a to-one whose inverse is ordered, join tables for many-to-many (docs/formats/sqlite.md);
/// - values bound as `SQLValue` (`SQLValueCodec`): bools as integers 0/1, dates as real seconds
///   since 2001-01-01, strings and URLs as text, data and UUIDs as bytes. A dialect's column types
///   must accept these.
@usableFromInline package protocol SQLDialect {
    /// `"name"` with embedded quotes doubled: how an identifier appears in SQL.
    static func quote(_ name: String) -> String

    /// The text of the `index`-th bound parameter of a statement, counted from 1 (`?` / `$1`).
    static func placeholder(_ index: Int) -> String

    /// The literal for true and for false in a condition (`1`/`0` in SQLite, `TRUE`/`FALSE` in
    /// PostgreSQL, whose WHERE needs a boolean).
    static var trueLiteral: String { get }
    /// The literal for false in a condition.
    static var falseLiteral: String { get }

    /// `condition` read as "not true": true for false and for unknown (NULL) alike, so a negation
    /// never meets SQL's three-valued logic (`((x) IS NOT 1)` / `((x) IS NOT TRUE)`). The result
    /// is parenthesised and so is `condition` inside it (it may be `NOT EXISTS …`, which `IS` binds
    /// tighter than).
    static func isNotTrue(_ condition: String) -> String

    /// `lhs` differs from `rhs`, NULL being a value like any other (true when one is NULL and the
    /// other not, false when both are): SQLite's `IS NOT`, standard SQL's `IS DISTINCT FROM`
    /// (PostgreSQL has no `IS NOT` with a value).
    static func isDistinct(_ lhs: String, from rhs: String) -> String

    /// The sort direction keyword(s) of an ORDER BY term, placing NULL first ascending and last
    /// descending (the contract's order: nil before every value). SQLite does that by itself;
    /// PostgreSQL needs `NULLS FIRST` / `NULLS LAST`.
    static func direction(ascending: Bool) -> String

    /// ` COLLATE …` after a string ORDER BY term for a comparator, or "" for byte order. The
    /// collation must order exactly as `StringComparator.compare` does.
    static func collation(_ comparator: StringComparator) -> String

    /// The ORDER BY term(s) of string column `column` under `comparator`, each ending with
    /// `direction`. Default: the column with `collation(comparator)`; a dialect without such a
    /// collation orders by an expression instead (PostgreSQL's `caseInsensitive`).
    static func stringOrder(_ column: String, _ comparator: StringComparator, direction: String) -> String

    /// `LIMIT … OFFSET …` of a fetch window (no limit when `limit` is nil).
    static func window(limit: Int?, offset: Int) -> String

    /// A text search on `column`: `op` with `pattern`, compared byte for byte (or after Unicode
    /// lowercasing when `caseInsensitive`, as `String.lowercased()` does), never with LIKE's
    /// wildcards or folding. `parameter` binds a value and returns its placeholder.
    static func textTest(_ op: StringOperator, column: String, pattern: String, caseInsensitive: Bool, parameter: (SQLValue) -> String) -> String

    /// `column` is one of `keys` (one or more), with the keys bound as parameters through `parameter`;
    /// the text must not depend on the keys (the set-wise deletes prepare it once per shape).
    static func keyIn(_ column: String, _ keys: [Int64], parameter: (SQLValue) -> String) -> String

    /// The definition of a table's key column after its name (`INTEGER PRIMARY KEY AUTOINCREMENT`):
    /// keys are handed out ascending and never reused, also after the highest is deleted.
    static var keyColumnType: String { get }
    /// The type of integer columns: foreign keys, `__bits`, `__order`, join table columns.
    static var integerType: String { get }
    /// The column type of an attribute type (it must accept `SQLValueCodec`'s encoding).
    static func columnType(_ type: AttributeType) -> String
    /// What follows a join table's column list (SQLite: ` WITHOUT ROWID`; else "").
    static var joinTableOptions: String { get }

    /// An INSERT of one row of `columns` into `table` (names unquoted) that does nothing when the
    /// row's key is there already (a join table's edge added twice): `INSERT OR IGNORE …` /
    /// `INSERT … ON CONFLICT DO NOTHING`. Parameters are the columns in order.
    static func insertIgnoringDuplicate(into table: String, columns: [String]) -> String

    /// A query of one integer column, the largest key ever handed out in `table` (0 or no row when
    /// none was), with its parameters: the next insert takes the key after it, so keys are never
    /// reused even after the highest record is deleted (SQLite: `sqlite_sequence`).
    static func lastKeyQuery(table: String) -> (sql: String, parameters: [SQLValue])

    /// Whether a table's foreign keys are added after every table exists (`ALTER TABLE … ADD
    /// FOREIGN KEY`) instead of inline: PostgreSQL refuses a reference to a table not created yet,
    /// and two entities may refer to each other. SQLite (default false) has no `ADD FOREIGN KEY`.
    static var addsForeignKeysAfterTables: Bool { get }

    /// What the server compares when it tells two quoted names apart: two names with one key are
    /// one table, index or column (SQLite ignores ASCII case; PostgreSQL keeps the first 63 bytes).
    /// Default: the name itself.
    static func identifierKey(_ name: String) -> String
}

extension SQLDialect {
    /// Standard SQL's `IS DISTINCT FROM`.
    package static func isDistinct(_ lhs: String, from rhs: String) -> String { "(\(lhs) IS DISTINCT FROM \(rhs))" }

    /// The column with the comparator's collation (`collation`).
    package static func stringOrder(_ column: String, _ comparator: StringComparator, direction: String) -> String {
        "\(column)\(collation(comparator)) \(direction)"
    }

    /// Names compare as written.
    package static func identifierKey(_ name: String) -> String { name }

    /// Inline foreign keys (SQLite's only form).
    @usableFromInline package static var addsForeignKeysAfterTables: Bool { false }

    /// Standard SQL's quoting, which SQLite and PostgreSQL share.
    @usableFromInline package static func quote(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
