import CLMDB
@_spi(StrataEngine) import Strata

extension LMDBStore {
    /// The invariants the committed store breaks, read in one read transaction; empty when every
    /// one holds.
    ///
    /// The contract's (`StoreInvariants`, on every record read back as the fetch path reads it), and
    /// LMDB's own: every unique-constraint and index database holds exactly one entry per record whose
    /// values are all set, filed under that record's value key (a save that forgot to remove or add
    /// one would let a later save miss a collision or a fetch miss a record), and every to-many
    /// database holds exactly the entries of its records' lists (none left by a deleted owner).
    func invariantViolations() throws -> [String] {
        do {
            return try environment.read { txn in
                let records = LMDBRecords(txn: txn, context: context)
                let query = LMDBQuery(records: records, schema: layout.schema)
                let snapshots = try layout.schema.entities.map { try query.scan(FetchDescriptor(entity: $0.name), $0) }
                let decoded = snapshots.map { $0.map { DefaultSnapshot(entity: $0.entity, persistentIdentifier: $0.persistentIdentifier, attributes: $0.attributeValues, relationships: $0.relationshipValues) } }
                var problems = StoreInvariants.violations(layout.schema, storeIdentifier: identifier, records: decoded)
                for entity in layout.schema.entities {
                    try problems += valueDatabaseViolations(records, entity)
                    for r in entity.relationships.indices where entity.relationshipIsToMany[r] {
                        let listed = snapshots[entity.index].reduce(0) { $0 + $1.relationshipValues[r].targets.count }
                        let entries = try entryCount(txn, layout.toMany[entity.index][r])
                        if entries != listed {
                            problems.append("\(LMDBLayout.toManyName(entity, r)) holds \(entries) entries for \(listed) listed targets")
                        }
                    }
                }
                return problems
            }
        } catch let error as LMDBError {
            throw error.strataError(path: environment.path)
        }
    }

    /// The unique-constraint and index databases of `entity` against its records.
    private func valueDatabaseViolations(_ records: LMDBRecords, _ entity: EntitySchema) throws -> [String] {
        let databases = entity.uniqueConstraints.indices.map { (LMDBLayout.uniqueName(entity, $0), entity.uniqueConstraints[$0], layout.uniques[entity.index][$0]) }
            + entity.indexes.indices.map { (LMDBLayout.indexName(entity, $0), entity.indexes[$0], layout.indexes[entity.index][$0]) }
        guard !databases.isEmpty else { return [] }
        var problems: [String] = []
        var expected = Array(repeating: 0, count: databases.count)
        var value: [UInt8] = []
        try records.withCursor(layout.records[entity.index]) { cursor in
            var k = MDB_val(), data = MDB_val()
            var rc = mdb_cursor_get(cursor, &k, &data, MDB_FIRST)
            while rc == 0 {
                let key = LMDBKeyCodec.readBigEndian(k.mv_data)
                let record = try LMDBRecordCodec.decode(data.bytes, records.context.shapes[entity.index], key: key, file: records.file)
                for (d, (name, refs, dbi)) in databases.enumerated() where LMDBKeyCodec.valueKey(refs, record, into: &value) {
                    expected[d] += 1
                    if try !holds(records, dbi, value, key) { problems.append("\(name) has no entry for \(entity.name) \(key)") }
                }
                rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try lmdbCheck(rc, "scan \(entity.name)") }
        }
        for (d, (name, _, dbi)) in databases.enumerated() {
            let entries = try entryCount(records.txn, dbi)
            if entries != expected[d] { problems.append("\(name) holds \(entries) entries for \(expected[d]) records with values") }
        }
        return problems
    }

    /// Whether the duplicate-sorted database `dbi` files `key` under `value`.
    private func holds(_ records: LMDBRecords, _ dbi: MDB_dbi, _ value: [UInt8], _ key: Int64) throws -> Bool {
        try records.withCursor(dbi) { cursor in
            try value.withUnsafeBytes { bytes in
                try withValue(bytes) { v in
                    try withKey(key) { k in
                        let rc = mdb_cursor_get(cursor, &v, &k, MDB_GET_BOTH)
                        if rc == MDB_NOTFOUND { return false }
                        try lmdbCheck(rc, "read a value database")
                        return true
                    }
                }
            }
        }
    }

    /// How many entries (duplicates included) `dbi` holds.
    private func entryCount(_ txn: OpaquePointer, _ dbi: MDB_dbi) throws -> Int {
        var stat = MDB_stat()
        try lmdbCheck(mdb_stat(txn, dbi, &stat), "mdb_stat")
        return Int(stat.ms_entries)
    }

    /// After every committed save under `STRATA_INTERNAL_CHECKS` (debug builds, `make test`):
    /// stops the process when the committed store breaks an invariant (a bug of Strata, never bad
    /// input). Reads every record, so a debug build pays time proportional to the store per save.
    /// A store that cannot be read back (damaged from outside) is not checked: its reads report that.
    func checkInvariantsAfterSave() {
        guard let violations = try? invariantViolations() else { return }
        StoreInvariants.require(violations, after: "an LMDB save (\(environment.path))")
    }
}
