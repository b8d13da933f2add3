@_spi(StrataEngine) import Strata

/// How a schema maps onto SQL tables, for every SQL backend; `docs/formats/sqlite.md` describes the
/// result (the SQLite dialect's spelling of it; another dialect changes only the types and quoting).
///
/// One table per entity named after it: `_pk` (the dialect's `keyColumnType`), one typed column per
/// attribute (doubles and dates get a `<name>__bits` companion for NaN and −0, which a REAL column
/// cannot keep), one column per to-one relationship (a foreign key), and `<name>__order` beside a
/// to-one whose inverse is an ordered to-many. A to-many is never stored on its own side: it is the
/// rows of the destination whose to-one points back, or, for a many-to-many, the rows of a join table.
///
/// A class, built once per store: every save and fetch holds it with one retain, where copying the
/// struct retained each of its arrays (limit: Benchmarks/Thresholds/sqlite-update-one.txt).
///
/// The SQL texts it builds (`texts`, `ddl(_:)`) are written in the dialect it is given; the
/// layout itself (`tables`, `joins`) is the same for every dialect.
@usableFromInline package final class SQLMapping: Sendable {
    /// The schema mapped.
    @usableFromInline package let schema: Schema
    /// Per entity (by `EntitySchema.index`), its table.
    @usableFromInline package let tables: [Table]
    /// The join tables of the many-to-many relationships.
    @usableFromInline package let joins: [JoinTable]
    /// Per entity, the SQL text of the statements every save and fetch uses, built once.
    @usableFromInline package let texts: [Texts]

    /// The statements of one entity every save and fetch uses.
    @usableFromInline package struct Texts: Sendable {
        /// The columns a snapshot reads after `_pk`.
        @usableFromInline package let columns: [String]
        /// `SELECT _pk, <columns> FROM T AS t0` (append a WHERE).
        @usableFromInline package let select: String
        /// `… WHERE t0._pk = ?`.
        @usableFromInline package let selectByKey: SQLText
        /// `SELECT 1 FROM T WHERE _pk = ?`.
        @usableFromInline package let exists: SQLText
        /// Per relationship, the query of its current targets of one record.
        @usableFromInline package let targets: [SQLText]
    }

    /// One entity's table.
    @usableFromInline package struct Table: Sendable {
        /// The entity stored.
        @usableFromInline package let entity: EntitySchema
        /// The table's name (the entity's).
        @usableFromInline package let name: String
        /// Per attribute: its column, and the `__bits` companion for doubles and dates.
        @usableFromInline package let attributeColumns: [String]
        /// Per attribute: the `__bits` companion of a double or date column, else nil.
        @usableFromInline package let bitsColumns: [String?]
        /// Per relationship: how it is stored.
        @usableFromInline package let relationships: [RelationshipStorage]
    }

    /// Where a relationship's targets are stored.
    @usableFromInline package enum RelationshipStorage: Sendable {
        /// A column of this table; `order` is set when the inverse is an ordered to-many.
        case column(String, order: String?)
        /// Rows of `table` whose `column` holds this record's key, in `order` when ordered.
        case inverseColumn(table: Int, column: String, order: String?)
        /// Rows of a join table: `mine` holds this record's key, `other` the target's.
        case join(Int, mine: String, other: String, order: String?)
    }

    /// The table of one many-to-many relationship pair: one row per edge.
    @usableFromInline package struct JoinTable: Sendable {
        /// `<left>__<right>` (escaped components when the plain name collides: `SQLMapping+Names.swift`).
        @usableFromInline package let name: String
        /// The column of the left record's key (`<Entity>_<relationship>`, the smaller name).
        @usableFromInline package let left: String
        /// The column of the right record's key.
        @usableFromInline package let right: String
        /// The position of the edge in the left record's list, when that list is ordered.
        @usableFromInline package let leftOrder: String?
        /// The position of the edge in the right record's list, when that list is ordered.
        @usableFromInline package let rightOrder: String?
        /// The table the left column references.
        @usableFromInline package let leftTable: String
        /// The table the right column references.
        @usableFromInline package let rightTable: String
        /// A relationship that is its own inverse (`Person.friends`): each edge is two rows, one per
        /// direction, so `left` lists a record's targets like any join and `right` is the mirror.
        @usableFromInline package let isSymmetric: Bool
    }

    /// The mapping of `schema`, its texts written in `dialect`.
    ///
    /// - Throws: `unsupported` for a property name the layout reserves (starting with `_` or
    ///   containing `__`), or for two tables, indexes or columns that would take one name in
    ///   `dialect` (`checkDistinctNames`).
    @usableFromInline package init<Dialect: SQLDialect>(schema: Schema, dialect: Dialect.Type) throws {
        self.schema = schema
        var joins: [JoinTable] = []
        var joinIndex: [String: Int] = [:]
        var tables: [Table] = []
        let escapedSides = Self.escapedJoinSides(schema)
        for entity in schema.entities {
            var attributeColumns: [String] = []
            var bits: [String?] = []
            var names = Set(["_pk"])
            // Column names the mapping adds (`_pk`, `<name>__bits`, `<name>__order`) never clash with a property's.
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) where name.hasPrefix("_") || name.contains("__") {
                throw StrataError(.unsupported, "The SQL backends reserve property names that start with '_' or contain '__'; rename '\(name)'.", entity: entity.name, properties: [name])
            }
            for a in entity.attributes {
                attributeColumns.append(a.name)
                bits.append(a.type == .double || a.type == .date ? a.name + "__bits" : nil)
                names.insert(a.name)
            }
            var storage: [RelationshipStorage] = []
            for (i, r) in entity.relationships.enumerated() {
                let destination = schema.entities[entity.destinationIndices[i]]
                let inverse = destination.relationships[entity.inverseIndices[i]]
                switch (r.isToMany, inverse.isToMany) {
                case (false, _):
                    storage.append(.column(r.name, order: inverse.isOrdered ? r.name + "__order" : nil))
                case (true, false):
                    storage.append(.inverseColumn(table: destination.index, column: inverse.name, order: r.isOrdered ? inverse.name + "__order" : nil))
                case (true, true):
                    let symmetric = destination.index == entity.index && entity.inverseIndices[i] == i
                    let escaped = escapedSides.contains(JoinSide(entity: entity.index, relationship: i))
                    let mine = Self.joinColumn(entity.name, r.name, escaped: escaped)
                    let other = symmetric ? mine + "_mirror" : Self.joinColumn(destination.name, inverse.name, escaped: escaped)
                    let (left, right) = mine <= other ? (mine, other) : (other, mine)
                    let name = "\(left)__\(right)"
                    let index: Int
                    if let existing = joinIndex[name] {
                        index = existing
                    } else {
                        let leftIsMine = left == mine
                        let leftOrdered = leftIsMine ? r.isOrdered : inverse.isOrdered
                        let rightOrdered = !symmetric && (leftIsMine ? inverse.isOrdered : r.isOrdered)
                        joins.append(JoinTable(
                            name: name, left: left, right: right,
                            leftOrder: leftOrdered ? left + "__order" : nil, rightOrder: rightOrdered ? right + "__order" : nil,
                            leftTable: leftIsMine ? entity.name : destination.name, rightTable: leftIsMine ? destination.name : entity.name,
                            isSymmetric: symmetric))
                        index = joins.count - 1
                        joinIndex[name] = index
                    }
                    let join = joins[index]
                    let mineIsLeft = join.left == mine
                    storage.append(.join(index, mine: mine, other: other, order: mineIsLeft ? join.leftOrder : join.rightOrder))
                }
            }
            tables.append(Table(entity: entity, name: entity.name, attributeColumns: attributeColumns, bitsColumns: bits, relationships: storage))
        }
        self.tables = tables
        self.joins = joins
        var slots = SQLTextSlots()
        self.texts = tables.map { Self.makeTexts($0, schema: schema, joins: joins, dialect, &slots) }
        try checkDistinctNames(dialect)
    }

    private static func makeTexts<Dialect: SQLDialect>(_ table: Table, schema: Schema, joins: [JoinTable], _ dialect: Dialect.Type, _ slots: inout SQLTextSlots) -> Texts {
        let q = Dialect.quote
        let p = Dialect.placeholder(1)
        var columns: [String] = []
        for (i, c) in table.attributeColumns.enumerated() {
            columns.append(c)
            if let b = table.bitsColumns[i] { columns.append(b) }
        }
        for storage in table.relationships { if case .column(let c, _) = storage { columns.append(c) } }
        let list = (["t0.\(q("_pk"))"] + columns.map { "t0.\(q($0))" }).joined(separator: ", ")
        let select = "SELECT \(list) FROM \(q(table.name)) AS t0"
        let targets = table.relationships.map { storage -> SQLText in
            slots.text(targetQuery(table, storage, schema: schema, joins: joins, dialect))
        }
        return Texts(
            columns: columns, select: select, selectByKey: slots.text(select + " WHERE t0.\(q("_pk")) = \(p)"),
            exists: slots.text("SELECT 1 FROM \(q(table.name)) WHERE \(q("_pk")) = \(p)"), targets: targets)
    }

    /// The query of one relationship's current targets of one record.
    private static func targetQuery<Dialect: SQLDialect>(_ table: Table, _ storage: RelationshipStorage, schema: Schema, joins: [JoinTable], _ dialect: Dialect.Type) -> String {
        let q = Dialect.quote
        let p = Dialect.placeholder(1)
        switch storage {
        case .column(let column, _):
            return "SELECT \(q(column)) FROM \(q(table.name)) WHERE \(q("_pk")) = \(p) AND \(q(column)) IS NOT NULL"
        case .inverseColumn(let other, let column, let order):
            return "SELECT \(q("_pk")) FROM \(q(schema.entities[other].name)) WHERE \(q(column)) = \(p) ORDER BY \(order.map { "\(q($0)), " } ?? "")\(q("_pk"))"
        case .join(let index, let mine, let other, let order):
            return "SELECT \(q(other)) FROM \(q(joins[index].name)) WHERE \(q(mine)) = \(p) ORDER BY \(order.map { "\(q($0)), " } ?? "")\(q(other))"
        }
    }

    /// The statements that create every table and index, in `dialect`.
    @usableFromInline package func ddl<Dialect: SQLDialect>(_ dialect: Dialect.Type) -> [String] {
        var statements: [String] = []
        var foreignKeys: [String] = []
        let q = Dialect.quote
        let integer = Dialect.integerType
        for table in tables {
            let entity = table.entity
            var columns = ["\(q("_pk")) \(Dialect.keyColumnType)"]
            for (i, a) in entity.attributes.enumerated() {
                columns.append("\(q(table.attributeColumns[i])) \(Dialect.columnType(a.type))")
                if let bits = table.bitsColumns[i] { columns.append("\(q(bits)) \(integer)") }
            }
            for (i, storage) in table.relationships.enumerated() {
                guard case .column(let column, let order) = storage else { continue }
                let destination = schema.entities[entity.destinationIndices[i]]
                let rule = destination.relationships[entity.inverseIndices[i]].deleteRule
                var reference = ""
                switch rule {
                case .cascade: reference = "REFERENCES \(q(destination.name))(\(q("_pk"))) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"
                case .nullify: reference = "REFERENCES \(q(destination.name))(\(q("_pk"))) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"
                case .deny: reference = "REFERENCES \(q(destination.name))(\(q("_pk"))) DEFERRABLE INITIALLY DEFERRED"
                case .noAction: break  // the reference may dangle by contract: no foreign key
                }
                if Dialect.addsForeignKeysAfterTables, !reference.isEmpty {
                    columns.append("\(q(column)) \(integer)")
                    foreignKeys.append("ALTER TABLE \(q(table.name)) ADD FOREIGN KEY (\(q(column))) \(reference)")
                } else {
                    columns.append("\(q(column)) \(integer)" + (reference.isEmpty ? "" : " " + reference))
                }
                if let order { columns.append("\(q(order)) \(integer)") }
            }
            statements.append("CREATE TABLE \(q(table.name)) (\(columns.joined(separator: ", ")))")
            for (i, storage) in table.relationships.enumerated() {
                if case .column(let column, _) = storage {
                    statements.append("CREATE INDEX \(q("\(table.name)__\(entity.relationships[i].name)")) ON \(q(table.name))(\(q(column)))")
                }
            }
            for (c, refs) in entity.uniqueConstraints.enumerated() {
                statements.append("CREATE UNIQUE INDEX \(q("\(table.name)__unique_\(c)")) ON \(q(table.name))(\(refs.map { q(column(of: $0, in: table)) }.joined(separator: ", ")))")
            }
            for (c, refs) in entity.indexes.enumerated() {
                statements.append("CREATE INDEX \(q("\(table.name)__index_\(c)")) ON \(q(table.name))(\(refs.map { q(column(of: $0, in: table)) }.joined(separator: ", ")))")
            }
        }
        for join in joins {
            var columns = [
                "\(q(join.left)) \(integer) NOT NULL REFERENCES \(q(join.leftTable))(\(q("_pk"))) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
                "\(q(join.right)) \(integer) NOT NULL REFERENCES \(q(join.rightTable))(\(q("_pk"))) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
            ]
            if let o = join.leftOrder { columns.append("\(q(o)) \(integer)") }
            if let o = join.rightOrder { columns.append("\(q(o)) \(integer)") }
            columns.append("PRIMARY KEY (\(q(join.left)), \(q(join.right)))")
            statements.append("CREATE TABLE \(q(join.name)) (\(columns.joined(separator: ", ")))\(Dialect.joinTableOptions)")
            statements.append("CREATE INDEX \(q(join.name + "__" + join.right)) ON \(q(join.name))(\(q(join.right)))")
        }
        return statements + foreignKeys
    }

    /// The column of an attribute or to-one relationship (unique constraints and indexes use these).
    @usableFromInline package func column(of property: PropertyReference, in table: Table) -> String {
        switch property {
        case .attribute(let i): return table.attributeColumns[i]
        case .relationship(let i):
            if case .column(let c, _) = table.relationships[i] { return c }
            return table.entity.relationships[i].name
        }
    }
}
