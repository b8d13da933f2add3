@_spi(StrataEngine) import Strata

/// What the SQL backends share of a migration, in the shared layout (`SQLMapping`): which change
/// lists the existing tables can take in place (`ALTER TABLE`), and a whole store's records read
/// into the core's engine and written back as rows, keys kept (the `StateMigratable` path of
/// SQLite and PostgreSQL). Each backend runs the statements in its own one transaction.
package enum SQLMigration {
    /// Whether every change of `migration` can be made on the existing tables: same entities in
    /// the same order, same relationships, no attribute removed. Attributes may be added (`ADD
    /// COLUMN … DEFAULT`), renamed (`RENAME COLUMN`), filled where nil (an `UPDATE`), and unique
    /// constraints and indexes changed (the entity's indexes dropped and created again).
    package static func altersInPlace(_ migration: SchemaMigration) -> Bool {
        guard migration.source.entities.map(\.name) == migration.destination.entities.map(\.name) else { return false }
        for (i, mapping) in migration.entities.enumerated() {
            func declared(_ relationships: [Relationship]) -> [Relationship] {
                relationships.map { r in
                    var r = r
                    r.originalName = nil
                    r.hashModifier = nil  // a version mark only: the columns stay as they are
                    return r
                }
            }
            guard mapping.source == i, mapping.relationships == Array(0..<mapping.relationships.count).map(Optional.some),
                  declared(migration.source.entities[i].relationships) == declared(migration.destination.entities[i].relationships)
            else { return false }
            var used = Set<Int>()
            for a in mapping.attributes {
                switch a {
                case .copy(let k), .copyFillingNil(let k, _): used.insert(k)
                case .constant: break
                }
            }
            guard used.count == migration.source.entities[i].attributes.count else { return false }  // a removed attribute
        }
        return true
    }

    /// The statements that make `migration`'s changes on the existing tables (when
    /// `altersInPlace(migration)`), in `Dialect`: per entity, `ADD COLUMN` with the added value as
    /// its `DEFAULT` (`defaultClause` writes the literal: DDL takes no parameters), `RENAME
    /// COLUMN`, an `UPDATE` of the rows holding NULL where a value is filled in, and where the
    /// entity's unique constraints or indexes changed, its old ones dropped and the new ones passed
    /// to `createIndex` (which reports a unique index over duplicates). `run` executes a statement
    /// with its parameters.
    package static func alterInPlace<Dialect: SQLDialect>(
        _ migration: SchemaMigration, _: Dialect.Type, defaultClause: (SQLValue) -> String,
        run: (String, [SQLValue]) throws -> Void, createIndex: (String) throws -> Void
    ) throws {
        let q = Dialect.quote
        let old = try SQLMapping(schema: migration.source, dialect: Dialect.self), new = try SQLMapping(schema: migration.destination, dialect: Dialect.self)
        for (i, mapping) in migration.entities.enumerated() {
            let table = new.tables[i], before = old.tables[i]
            let entity = migration.destination.entities[i]
            for (j, a) in mapping.attributes.enumerated() {
                let column = table.attributeColumns[j], bits = table.bitsColumns[j]
                switch a {
                case .constant(let v):
                    let (main, companion) = SQLValueCodec.encode(v)
                    try run("ALTER TABLE \(q(table.name)) ADD COLUMN \(q(column)) \(Dialect.columnType(entity.attributes[j].type))\(defaultClause(main))", [])
                    if let bits { try run("ALTER TABLE \(q(table.name)) ADD COLUMN \(q(bits)) \(Dialect.integerType)\(defaultClause(companion))", []) }
                case .copy(let k), .copyFillingNil(let k, _):
                    if before.attributeColumns[k] != column {
                        try run("ALTER TABLE \(q(table.name)) RENAME COLUMN \(q(before.attributeColumns[k])) TO \(q(column))", [])
                        if let oldBits = before.bitsColumns[k], let bits { try run("ALTER TABLE \(q(table.name)) RENAME COLUMN \(q(oldBits)) TO \(q(bits))", []) }
                    }
                    if case .copyFillingNil(_, let fill) = a {
                        let (main, companion) = SQLValueCodec.encode(fill)
                        let isNil = "\(q(column)) IS NULL" + (bits.map { " AND \(q($0)) IS NULL" } ?? "")
                        let set = "\(q(column)) = \(Dialect.placeholder(1))" + (bits.map { ", \(q($0)) = \(Dialect.placeholder(2))" } ?? "")
                        try run("UPDATE \(q(table.name)) SET \(set) WHERE \(isNil)", bits == nil ? [main] : [main, companion])
                    }
                }
            }
            guard indexesChange(migration, i) else { continue }
            let was = migration.source.entities[i]
            for c in was.uniqueConstraints.indices { try run("DROP INDEX IF EXISTS \(q("\(table.name)__unique_\(c)"))", []) }
            for c in was.indexes.indices { try run("DROP INDEX IF EXISTS \(q("\(table.name)__index_\(c)"))", []) }
            let unique = "CREATE UNIQUE INDEX " + q(table.name + "__unique_").dropLast(), plain = "CREATE INDEX " + q(table.name + "__index_").dropLast()
            for statement in new.ddl(Dialect.self) where statement.hasPrefix(unique) || statement.hasPrefix(plain) {
                try createIndex(statement)
            }
        }
    }

    /// Whether entity `i`'s unique constraints or indexes differ between the two schemas (by the
    /// names of the properties they cover): then its indexes are dropped and created again.
    private static func indexesChange(_ migration: SchemaMigration, _ i: Int) -> Bool {
        let was = migration.source.entities[i], entity = migration.destination.entities[i]
        return was.uniqueConstraints.map { $0.map(was.name(of:)) } != entity.uniqueConstraints.map { $0.map(entity.name(of:)) }
            || was.indexes.map { $0.map(was.name(of:)) } != entity.indexes.map { $0.map(entity.name(of:)) }
    }

    /// For a `CREATE UNIQUE INDEX` statement of `mapping.ddl` that failed over duplicate values:
    /// the entity, the constraint's properties and a query (in `Dialect`) of the keys of two
    /// colliding records (the earliest collision, lower key first); nil for another statement.
    package static func uniqueCollision<Dialect: SQLDialect>(_ statement: String, _ mapping: SQLMapping, _: Dialect.Type) -> (entity: EntitySchema, properties: [String], sql: String)? {
        let q = Dialect.quote
        for table in mapping.tables {
            let entity = table.entity
            for (c, refs) in entity.uniqueConstraints.enumerated() where statement.hasPrefix("CREATE UNIQUE INDEX \(q("\(table.name)__unique_\(c)"))") {
                let on = refs.map { mapping.column(of: $0, in: table) }.map { "a.\(q($0)) = b.\(q($0))" }.joined(separator: " AND ")
                let sql = "SELECT a.\(q("_pk")), b.\(q("_pk")) FROM \(q(table.name)) AS a JOIN \(q(table.name)) AS b ON a.\(q("_pk")) < b.\(q("_pk")) AND \(on) ORDER BY b.\(q("_pk")), a.\(q("_pk")) LIMIT 1"
                return (entity, refs.map(entity.name(of:)), sql)
            }
        }
        return nil
    }

    /// Every record of `mapping`'s schema as the engine holds it: `snapshots` reads an entity's
    /// rows, `lastKey` the largest key ever handed out in a table (nil when none), which sets the
    /// entity's key counter so no key is handed out twice.
    package static func load(
        _ mapping: SQLMapping, storeIdentifier: String,
        snapshots: (EntitySchema) throws -> [DefaultSnapshot], lastKey: (String) throws -> Int64?
    ) throws -> StoreState {
        var state = StoreState(schema: mapping.schema, storeIdentifier: storeIdentifier)
        for entity in mapping.schema.entities {
            for snapshot in try snapshots(entity) {
                let links = snapshot.relationships.map { value -> Link in
                    switch value {
                    case .toOne(let id): .one(id?.primaryKey)
                    case .toMany(let ids): .many(ids.map(\.primaryKey))
                    }
                }
                try state.load(entity, key: snapshot.persistentIdentifier.primaryKey, record: StoredRecord(attributes: snapshot.attributes, links: links))
            }
            if let last = try lastKey(mapping.tables[entity.index].name), last > 0, last < StoreState.keyLimit {
                state.setNextPrimaryKey(entity, atLeast: last + 1)
            }
        }
        try state.finishLoading()
        return state
    }

    /// The rows of every table of `mapping` holding `state`, one table at a time: `write` gets an
    /// INSERT (in `Dialect`) and its rows — the entity tables first (key, attributes with their
    /// `__bits`, to-one columns with the position in the target's ordered list where the inverse
    /// is ordered), then the join tables (one row per edge, with each ordered side's position).
    package static func writeRows<Dialect: SQLDialect>(
        _ state: StoreState, _ mapping: SQLMapping, _: Dialect.Type, _ write: (String, [[SQLValue]]) throws -> Void
    ) throws {
        for entity in mapping.schema.entities {
            let (columns, rows) = entityRows(entity, state, mapping)
            try write(insert(Dialect.self, mapping.tables[entity.index].name, columns), rows)
        }
        for (index, join) in mapping.joins.enumerated() {
            let (columns, rows) = joinRows(index, join, state, mapping)
            try write(insert(Dialect.self, join.name, columns), rows)
        }
    }

    private static func insert<Dialect: SQLDialect>(_: Dialect.Type, _ table: String, _ columns: [String]) -> String {
        "INSERT INTO \(Dialect.quote(table)) (\(columns.map(Dialect.quote).joined(separator: ", "))) VALUES (\((1...columns.count).map(Dialect.placeholder).joined(separator: ", ")))"
    }

    private static func entityRows(_ entity: EntitySchema, _ state: StoreState, _ mapping: SQLMapping) -> ([String], [[SQLValue]]) {
        let table = mapping.tables[entity.index]
        var columns = ["_pk"]
        for (i, column) in table.attributeColumns.enumerated() {
            columns.append(column)
            if let bits = table.bitsColumns[i] { columns.append(bits) }
        }
        // Per relationship stored in a column with an order: each record's position in its
        // target's list (the inverse ordered to-many).
        var positions: [Int: [Int64: Int64]] = [:]
        for (r, storage) in table.relationships.enumerated() {
            guard case .column(let column, let order) = storage else { continue }
            columns.append(column)
            guard let order else { continue }
            columns.append(order)
            let destination = mapping.schema.entities[entity.destinationIndices[r]]
            let inverse = entity.inverseIndices[r]
            var at: [Int64: Int64] = [:]
            state.forEachRecord(destination) { _, record in
                for (position, member) in record.links[inverse].keys.enumerated() { at[member] = Int64(position) }
                return true
            }
            positions[r] = at
        }
        var rows: [[SQLValue]] = []
        state.forEachRecord(entity) { key, record in
            var values: [SQLValue] = [.integer(key)]
            values.reserveCapacity(columns.count)
            for (i, value) in record.attributes.enumerated() {
                let (main, companion) = SQLValueCodec.encode(value)
                values.append(main)
                if table.bitsColumns[i] != nil { values.append(companion) }
            }
            for (r, storage) in table.relationships.enumerated() {
                guard case .column(_, let order) = storage else { continue }
                let target = record.links[r].keys.first
                values.append(target.map { .integer($0) } ?? .null)
                if order != nil { values.append(target == nil ? .null : positions[r]?[key].map { .integer($0) } ?? .null) }
            }
            rows.append(values)
            return true
        }
        return (columns, rows)
    }

    /// The rows of one join table: one per edge of the relationship whose column is the join's
    /// left one (a symmetric relationship lists each edge from both ends, its two rows), with
    /// the edge's position in each ordered side's list.
    private static func joinRows(_ index: Int, _ join: SQLMapping.JoinTable, _ state: StoreState, _ mapping: SQLMapping) -> ([String], [[SQLValue]]) {
        var left: (EntitySchema, Int)?, right: (EntitySchema, Int)?
        for table in mapping.tables {
            for (r, storage) in table.relationships.enumerated() {
                guard case .join(index, let mine, _, _) = storage else { continue }
                if mine == join.left { left = (table.entity, r) } else if mine == join.right { right = (table.entity, r) }
            }
        }
        var columns = [join.left, join.right]
        if let o = join.leftOrder { columns.append(o) }
        if let o = join.rightOrder { columns.append(o) }
        guard let (entity, r) = left else { return (columns, []) }
        // The right side's positions, per right record and left member.
        var rightPositions: [Int64: [Int64: Int64]] = [:]
        if join.rightOrder != nil, let (other, s) = right {
            state.forEachRecord(other) { key, record in
                var at: [Int64: Int64] = [:]
                for (position, member) in record.links[s].keys.enumerated() { at[member] = Int64(position) }
                rightPositions[key] = at
                return true
            }
        }
        var rows: [[SQLValue]] = []
        state.forEachRecord(entity) { key, record in
            for (position, target) in record.links[r].keys.enumerated() {
                var values: [SQLValue] = [.integer(key), .integer(target)]
                if join.leftOrder != nil { values.append(.integer(Int64(position))) }
                if join.rightOrder != nil { values.append(rightPositions[target]?[key].map { .integer($0) } ?? .null) }
                rows.append(values)
            }
            return true
        }
        return (columns, rows)
    }
}
