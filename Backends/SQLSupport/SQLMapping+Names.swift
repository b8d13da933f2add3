@_spi(StrataEngine) import Strata

/// The names of join tables and their columns, and the check that every table and index name of
/// a mapping is distinct (docs/formats/sqlite.md, "Join table names").
///
/// A join table is named `<Entity>_<relationship>__<Entity>_<relationship>` and its columns
/// `<Entity>_<relationship>`. Entity and relationship names may contain `_`, so two pairs could get
/// one name (`A.b_c` ↔ `X.y_z` and `A_b.c` ↔ `X_y.z` are both `A_b_c__X_y_z`), and one pair two
/// equal columns (`A.b_c` ↔ `A_b.c`). Such a pair's names are built from escaped components
/// instead (`%` → `%25`, `_` → `%5F`): an escaped component holds no `_`, so the separators are
/// unambiguous. Every pair whose plain name collides with nothing keeps it, so every store written
/// before opens unchanged: a colliding schema never made a working store (its tables failed to be
/// created, or two relationships shared one table).
extension SQLMapping {
    /// One side of a many-to-many relationship: entity index and relationship index.
    struct JoinSide: Hashable {
        let entity: Int
        let relationship: Int
    }

    /// `name` with `%` and `_` escaped: the result holds no `_`.
    static func escapedComponent(_ name: String) -> String {
        name.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "_", with: "%5F")
    }

    /// The join column of `relationship` of `entity`: `<Entity>_<relationship>`, escaped when asked.
    static func joinColumn(_ entity: String, _ relationship: String, escaped: Bool) -> String {
        escaped ? escapedComponent(entity) + "_" + escapedComponent(relationship) : entity + "_" + relationship
    }

    /// The many-to-many sides whose join table takes escaped names: those of every pair whose plain
    /// name another pair also takes, names an entity's table, or whose two columns are equal.
    static func escapedJoinSides(_ schema: Schema) -> Set<JoinSide> {
        var pairsByName: [String: Set<[JoinSide]>] = [:]
        var colliding: Set<[JoinSide]> = []
        let entityNames = Set(schema.entities.map(\.name))
        for entity in schema.entities {
            for (i, r) in entity.relationships.enumerated() {
                let destination = schema.entities[entity.destinationIndices[i]]
                let inverse = destination.relationships[entity.inverseIndices[i]]
                guard r.isToMany, inverse.isToMany else { continue }
                let side = JoinSide(entity: entity.index, relationship: i)
                let other = JoinSide(entity: destination.index, relationship: entity.inverseIndices[i])
                let symmetric = side == other
                let pair = symmetric ? [side] : [side, other].sorted { ($0.entity, $0.relationship) < ($1.entity, $1.relationship) }
                let mine = joinColumn(entity.name, r.name, escaped: false)
                let theirs = symmetric ? mine + "_mirror" : joinColumn(destination.name, inverse.name, escaped: false)
                let name = min(mine, theirs) + "__" + max(mine, theirs)
                pairsByName[name, default: []].insert(pair)
                if mine == theirs || entityNames.contains(name) { colliding.insert(pair) }
            }
        }
        for pairs in pairsByName.values where pairs.count > 1 { colliding.formUnion(pairs) }
        return Set(colliding.joined())
    }

    /// Throws `unsupported` when two tables or indexes of the mapping would take one name in
    /// `Dialect` (its `identifierKey`: SQLite ignores ASCII case, PostgreSQL keeps 63 bytes), or two
    /// columns of one table one column name: the server would refuse to create them, or, for a
    /// name it shortens, two objects would be one. Runs at every open: it builds no text unless a
    /// name is taken (limit: Benchmarks/Thresholds/sqlite-reopen.txt).
    func checkDistinctNames<Dialect: SQLDialect>(_: Dialect.Type) throws {
        var objects: [String: String] = [:]
        var columns: [String: String] = [:]
        func claim(_ name: String) throws {
            if let taken = objects.updateValue(name, forKey: Dialect.identifierKey(name)) {
                throw StrataError(.unsupported, "The SQL tables or indexes '\(taken)' and '\(name)' would take one name; rename an entity or a property.")
            }
        }
        func column(_ name: String, of table: String) throws {
            if let taken = columns.updateValue(name, forKey: Dialect.identifierKey(name)) {
                throw StrataError(.unsupported, "The SQL columns '\(taken)' and '\(name)' of table '\(table)' would be one column; rename a property.")
            }
        }
        for table in tables {
            let entity = table.entity
            try claim(table.name)
            columns.removeAll(keepingCapacity: true)
            try column("_pk", of: table.name)
            for (i, name) in table.attributeColumns.enumerated() {
                try column(name, of: table.name)
                if let bits = table.bitsColumns[i] { try column(bits, of: table.name) }
            }
            for (i, storage) in table.relationships.enumerated() {
                guard case .column(let name, let order) = storage else { continue }
                try column(name, of: table.name)
                if let order { try column(order, of: table.name) }
                try claim(table.name + "__" + entity.relationships[i].name)
            }
            for c in entity.uniqueConstraints.indices { try claim(table.name + "__unique_" + String(c)) }
            for c in entity.indexes.indices { try claim(table.name + "__index_" + String(c)) }
        }
        for join in joins {
            try claim(join.name)
            try claim(join.name + "__" + join.right)
            columns.removeAll(keepingCapacity: true)
            for name in [join.left, join.right, join.leftOrder, join.rightOrder] {
                if let name { try column(name, of: join.name) }
            }
        }
    }
}
