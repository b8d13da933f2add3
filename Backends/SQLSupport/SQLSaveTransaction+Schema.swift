@_spi(StrataEngine) import Strata

extension SQLSaveTransaction {
    /// Refuses a save when the store no longer holds the schema this connection opened it with:
    /// another process migrated it in the meantime (its migration took the write lock this save now
    /// holds, so nothing changes until the commit). Without the check, a process opened before the
    /// migration would write rows the new version reads wrongly, or fail half-way on a renamed column.
    ///
    /// Cheap on every save: the backend's stamp (`SQLRecordReader.schemaStamp`) is compared with
    /// `checkedSchemaStamp` (the last save's, which the backend may set after its commit), and the
    /// recorded fingerprint is read only when it changed, i.e. another connection committed (SQLite:
    /// one C call for its data version); a backend without a stamp reads the fingerprint every time
    /// (PostgreSQL: one query).
    ///
    /// - Throws: `schemaMismatch` naming the store's version and this connection's, before anything
    ///   of the save is written.
    @inlinable
    package func requireOpenedSchema() throws {
        let stamp = try records.schemaStamp()
        if let stamp, stamp == checkedSchemaStamp { return }
        guard try records.recordedFingerprint() == schema.fingerprint else {
            throw try records.recordedSchema().savedAfterMigration(opening: schema, file: records.storeName)
        }
        checkedSchemaStamp = stamp
    }
}
