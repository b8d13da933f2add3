@_spi(StrataEngine) import Strata
import StrataSQLSupport

extension SQLiteStore {
    /// The invariants the committed store breaks (`StoreInvariants`), read through the store's own
    /// fetch path in one read transaction on a reader connection; empty when every one holds.
    ///
    /// SQLite keeps the facts the shared engine checks in its own structures (to-many lists are
    /// the other side's rows, UNIQUE indexes are SQLite's), so what can break is what the backend
    /// writes itself: the two columns of a one-to-one, the two rows of a self-inverse
    /// many-to-many edge, join rows of deleted records and unique values held back during a save.
    func invariantViolations() throws -> [String] {
        let records = try withReader(consistent: true) { db in
            let reader = SQLiteRecords(db: db, mapping: mapping, layouts: layouts, storeIdentifier: identifier)
            return try schema.entities.map { entity in
                let query = try SQLFetch.select(SQLiteDialect.self, FetchDescriptor(entity: entity.name), entity: entity, columns: reader.columns(entity), mapping: mapping, storeIdentifier: identifier)
                return try reader.snapshots(try db.prepare(query.sql), entity, parameters: query.parameters)
            }
        }
        return StoreInvariants.violations(schema, storeIdentifier: identifier, records: records)
    }

    /// After every committed save under `STRATA_INTERNAL_CHECKS` (debug builds, `make test`):
    /// stops the process when the committed store breaks an invariant (a bug of Strata, never bad
    /// input). Reads every record, so a debug build pays time proportional to the store per save.
    /// A store that cannot be read back (damaged from outside) is not checked: its reads report that.
    func checkInvariantsAfterSave() {
        guard let violations = try? invariantViolations() else { return }
        StoreInvariants.require(violations, after: "a SQLite save (\(configuration.url.path))")
    }
}
