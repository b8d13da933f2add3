@_spi(StrataEngine) import Strata
import StrataSQLSupport

extension PostgresStore {
    /// The invariants the committed store breaks (`StoreInvariants`), read through the store's own
    /// fetch path in one consistent read transaction on a reader connection; empty when every one holds.
    ///
    /// As on SQLite (the same mapping: `StrataSQLSupport`), PostgreSQL keeps to-many lists as the other
    /// side's rows and unique constraints as its own UNIQUE indexes, so what can break is what the save
    /// writes itself: the two columns of a one-to-one, the two rows of a self-inverse many-to-many
    /// edge, join rows of deleted records and unique values held back during a save.
    func invariantViolations() throws -> [String] {
        let records = try readers.withConnection(consistent: true) { connection in
            let reader = PostgresRecords(connection: connection, mapping: mapping, storeIdentifier: identifier, store: configuration.name)
            return try schema.entities.map { entity in
                let query = try SQLFetch.select(PostgresDialect.self, FetchDescriptor(entity: entity.name), entity: entity, columns: reader.columns(entity), mapping: mapping, storeIdentifier: identifier)
                return try reader.snapshots(try connection.query(query.sql, query.parameters), entity)
            }
        }
        return StoreInvariants.violations(schema, storeIdentifier: identifier, records: records)
    }

    /// After every committed save under `STRATA_INTERNAL_CHECKS` (debug builds, `make test`):
    /// stops the process when the committed store breaks an invariant (a bug of Strata, never bad
    /// input). Reads every record, so a debug build pays time proportional to the store per save.
    /// A store that cannot be read back (the server gone, or damaged from outside) is not checked:
    /// its reads report that.
    func checkInvariantsAfterSave() {
        guard let violations = try? invariantViolations() else { return }
        StoreInvariants.require(violations, after: "a PostgreSQL save (\(configuration.name))")
    }
}
