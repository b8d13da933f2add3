import StrataSQLSupport
@_spi(StrataEngine) import Strata

/// The shared mapping, as the SQLite backend reads it: its texts are written in `SQLiteDialect`.
typealias SQLiteMapping = SQLMapping

extension SQLMapping {
    /// The mapping of `schema` in SQLite's dialect.
    convenience init(schema: Schema) throws {
        try self.init(schema: schema, dialect: SQLiteDialect.self)
    }

    /// The statements that create every table and index in SQLite.
    func ddl() -> [String] { ddl(SQLiteDialect.self) }

    /// `"name"` with embedded quotes doubled.
    static func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// The SQLite column type of an attribute type.
    static func sqlType(_ type: AttributeType) -> String { SQLiteDialect.columnType(type) }
}
