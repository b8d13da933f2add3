import Foundation
@_spi(StrataEngine) import Strata

/// Translates a `FetchDescriptor` into one SQL statement with bound parameters, in `Dialect`.
///
/// Every predicate the core can express is translated, with the contract's semantics: Swift optional
/// rules for `nil` (a comparison with NULL is unknown, which `WHERE`, `AND` and `OR` treat as false,
/// and negation is written "not true" (`SQLDialect.isNotTrue`: `(x) IS NOT 1`), true for false and
/// unknown alike, so plain comparisons stay indexable), NaN equal to nothing, byte-wise and case-insensitive text search as the dialect
/// writes it (`SQLDialect.textTest`), nil first ascending, NaN after +infinity, ties by `_pk`, string
/// comparators as the core's collations (`SQLDialect.collation`). To-many tests become correlated
/// subqueries (`SQLQuery+ToMany`), each with its own scope of to-one joins.
///
/// Generic over the dialect, never `any SQLDialect`: the dialect is a type with static functions,
/// so nothing is boxed or opened per call.
package struct SQLQuery<Dialect: SQLDialect> {
    /// The mapping whose tables the statement reads.
    package let mapping: SQLMapping
    /// The store's identifier: an identifier of another store names no record here.
    package let storeIdentifier: String
    /// The values to bind, in placeholder order, once `select` or `count` has built the text.
    package private(set) var parameters: [SQLValue] = []
    /// The table a predicate is written over and the to-one joins its paths need: the fetched
    /// entity's (`t0`), then one per to-many test being translated, innermost last.
    struct Scope {
        let root: String
        var joins: [String] = []
        var aliases: [[String]: String] = [:]
    }
    var scopes = [Scope(root: "t0")]
    /// How many table aliases the statement uses so far (`t0`, `t1`, …): unique across scopes.
    var aliasCount = 1
    func q(_ name: String) -> String { Dialect.quote(name) }
    /// The dialect's literals for a condition that always holds and one that never does.
    var t: String { Dialect.trueLiteral }
    var f: String { Dialect.falseLiteral }

    /// A builder for one statement over `mapping`'s tables.
    package init(mapping: SQLMapping, storeIdentifier: String) {
        self.mapping = mapping
        self.storeIdentifier = storeIdentifier
    }

    /// What a path ends on, with the alias of the table that holds it.
    enum Terminal {
        case attribute(alias: String, column: String, bits: String?, type: AttributeType)
        case toOne(alias: String, column: String, destination: EntitySchema)
        case toMany(alias: String, storage: SQLMapping.RelationshipStorage, destination: EntitySchema)
    }

    /// `SELECT <columns> FROM … WHERE … ORDER BY … LIMIT … OFFSET …` for `descriptor`; the first
    /// column is `_pk`, then `columns` of the root table.
    package mutating func select(_ descriptor: FetchDescriptor, entity: EntitySchema, columns: [String]) throws -> String {
        let body = try self.body(descriptor, entity: entity)
        let list = (["t0.\(q("_pk"))"] + columns.map { "t0.\(q($0))" }).joined(separator: ", ")
        return "SELECT \(list) FROM \(body.from) WHERE \(body.where) ORDER BY \(body.order) \(Dialect.window(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset))"
    }

    /// `SELECT COUNT(*)` of the windowed result.
    package mutating func count(_ descriptor: FetchDescriptor, entity: EntitySchema) throws -> String {
        let body = try self.body(descriptor, entity: entity)
        if descriptor.fetchLimit == nil && descriptor.fetchOffset == 0 {
            return "SELECT COUNT(*) FROM \(body.from) WHERE \(body.where)"
        }
        return "SELECT COUNT(*) FROM (SELECT t0.\(q("_pk")) FROM \(body.from) WHERE \(body.where) \(Dialect.window(limit: descriptor.fetchLimit, offset: descriptor.fetchOffset))) AS w"
    }

    private mutating func body(_ descriptor: FetchDescriptor, entity: EntitySchema) throws -> (from: String, where: String, order: String) {
        let condition = try descriptor.predicate.map { try expression($0, entity) } ?? Dialect.trueLiteral
        var order: [String] = []
        for key in descriptor.sortBy {
            guard case .attribute(let alias, let column, let bits, let type) = try resolve(key.path, entity) else {
                throw key.path.notAnAttribute(entity)
            }
            let direction = Dialect.direction(ascending: key.order == .ascending)
            if let bits {
                order.append("CASE WHEN \(alias).\(q(column)) IS NOT NULL THEN 1 WHEN \(alias).\(q(bits)) IS NOT NULL THEN 2 ELSE 0 END \(direction)")
            }
            order.append(type == .string ? Dialect.stringOrder("\(alias).\(q(column))", key.comparator, direction: direction) : "\(alias).\(q(column)) \(direction)")
        }
        order.append("t0.\(q("_pk")) ASC")
        let from = ([q(mapping.tables[entity.index].name) + " AS t0"] + scopes[0].joins).joined(separator: " ")
        return (from, condition, order.joined(separator: ", "))
    }

    /// Binds `value` as the next parameter and returns its placeholder.
    mutating func parameter(_ value: SQLValue) -> String {
        parameters.append(value)
        return Dialect.placeholder(parameters.count)
    }

    /// The key of `id` in `entity` if it can name one of this store's records there.
    private func key(_ id: PersistentIdentifier, in entity: EntitySchema) -> Int64? {
        guard !id.isTemporary, id.storeIdentifier == storeIdentifier, id.entityName == entity.name else { return nil }
        return id.primaryKey
    }

    mutating func resolve(_ path: PropertyPath, _ entity: EntitySchema) throws -> Terminal {
        var current = entity
        var alias = scopes[scopes.count - 1].root
        try path.requireComponents(entity)
        for n in path.components.indices {
            let property = try path.step(n, on: current)
            let table = mapping.tables[current.index]
            let last = n == path.components.count - 1
            switch property {
            case .attribute(let i):
                return .attribute(alias: alias, column: table.attributeColumns[i], bits: table.bitsColumns[i], type: current.attributes[i].type)
            case .relationship(let i):
                let destination = mapping.schema.entities[current.destinationIndices[i]]
                let storage = table.relationships[i]
                if last {
                    if case .column(let column, _) = storage { return .toOne(alias: alias, column: column, destination: destination) }
                    return .toMany(alias: alias, storage: storage, destination: destination)
                }
                // `step` followed only a to-one, which the mapping always stores in a column.
                guard case .column(let column, _) = storage else { preconditionFailure("a to-one relationship without its column") }
                let prefix = Array(path.components[...n])
                if let existing = scopes[scopes.count - 1].aliases[prefix] {
                    alias = existing
                } else {
                    let next = newAlias()
                    scopes[scopes.count - 1].joins.append("LEFT JOIN \(q(mapping.tables[destination.index].name)) AS \(next) ON \(next).\(q("_pk")) = \(alias).\(q(column))")
                    scopes[scopes.count - 1].aliases[prefix] = next
                    alias = next
                }
                current = destination
            }
        }
        preconditionFailure("a path that names properties ends on one")
    }

    private mutating func attribute(_ path: PropertyPath, _ entity: EntitySchema) throws -> (String, String?, AttributeType) {
        guard case .attribute(let alias, let column, let bits, let type) = try resolve(path, entity) else {
            throw path.notAnAttribute(entity)
        }
        return ("\(alias).\(q(column))", bits.map { "\(alias).\(q($0))" }, type)
    }

    private func isNull(_ column: String, _ bits: String?) -> String {
        bits.map { "(\(column) IS NULL AND \($0) IS NULL)" } ?? "(\(column) IS NULL)"
    }

    private static func coerced(_ value: Value, to type: AttributeType) -> Value {
        if type == .double, case .int(let n) = value { return .double(Double(n)) }
        return value
    }

    mutating func compare(_ column: String, _ bits: String?, _ type: AttributeType, _ op: ComparisonOperator, _ given: Value) -> String {
        let value = Self.coerced(given, to: type)
        if value.isNull {
            switch op {
            case .equal: return isNull(column, bits)
            case .notEqual: return Dialect.isNotTrue(isNull(column, bits))
            default: return f
            }
        }
        if case .double(let d) = value, d.isNaN { return op == .notEqual ? t : f }
        if case .date(let d) = value, d.timeIntervalSinceReferenceDate.isNaN { return op == .notEqual ? t : f }
        let p = parameter(SQLValueCodec.comparable(value))
        switch op {
        case .equal: return "(\(column) = \(p))"
        case .notEqual: return Dialect.isDistinct(column, from: p)
        case .less: return "(\(column) < \(p))"
        case .lessOrEqual: return "(\(column) <= \(p))"
        case .greater: return "(\(column) > \(p))"
        case .greaterOrEqual: return "(\(column) >= \(p))"
        }
    }

    mutating func expression(_ predicate: FetchPredicate, _ entity: EntitySchema) throws -> String {
        switch predicate {
        case .constant(let b):
            return b ? t : f
        case .compare(let path, let op, let value):
            let (column, bits, type) = try attribute(path, entity)
            return compare(column, bits, type, op, value)
        case .compareProperties(let lhs, let op, let rhs):
            let (l, lb, _) = try attribute(lhs, entity)
            let (r, rb, _) = try attribute(rhs, entity)
            let equal = "((\(isNull(l, lb)) AND \(isNull(r, rb))) OR COALESCE(\(l) = \(r), \(f)))"
            switch op {
            case .equal: return equal
            case .notEqual: return Dialect.isNotTrue(equal)
            case .less: return "(\(l) < \(r))"
            case .lessOrEqual: return "(\(l) <= \(r))"
            case .greater: return "(\(l) > \(r))"
            case .greaterOrEqual: return "(\(l) >= \(r))"
            }
        case .isNil(let path):
            switch try resolve(path, entity) {
            case .attribute(let alias, let column, let bits, _): return isNull("\(alias).\(q(column))", bits.map { "\(alias).\(q($0))" })
            case .toOne(let alias, let column, _): return "(\(alias).\(q(column)) IS NULL)"
            case .toMany: throw path.toManyNeverNil(entity)
            }
        case .isIn(let path, let values):
            let (column, bits, type) = try attribute(path, entity)
            guard !values.isEmpty else { return f }
            return "(" + values.map { compare(column, bits, type, .equal, $0) }.joined(separator: " OR ") + ")"
        case .text(let path, let op, let pattern, let caseInsensitive):
            let (column, _, _) = try attribute(path, entity)
            return Dialect.textTest(op, column: column, pattern: pattern, caseInsensitive: caseInsensitive) { parameter($0) }
        case .targetIs(let path, let id):
            guard case .toOne(let alias, let column, let destination) = try resolve(path, entity) else {
                throw path.notToOne(entity)
            }
            guard let id else { return "(\(alias).\(q(column)) IS NULL)" }
            guard let k = key(id, in: destination) else { return f }
            return "(\(alias).\(q(column)) = \(parameter(.integer(k))))"
        case .contains(let path, let id):
            guard case .toMany(let alias, let storage, let destination) = try resolve(path, entity) else {
                throw path.notToMany(entity)
            }
            guard let k = key(id, in: destination) else { return f }
            let p = parameter(.integer(k))
            switch storage {
            case .inverseColumn(let table, let column, _):
                let t = q(mapping.tables[table].name)
                return "EXISTS (SELECT 1 FROM \(t) WHERE \(t).\(q("_pk")) = \(p) AND \(t).\(q(column)) = \(alias).\(q("_pk")))"
            case .join(let index, let mine, let other, _):
                let j = q(mapping.joins[index].name)
                return "EXISTS (SELECT 1 FROM \(j) WHERE \(j).\(q(mine)) = \(alias).\(q("_pk")) AND \(j).\(q(other)) = \(p))"
            case .column:
                return f
            }
        case .identifierIn(let ids):
            let keys = ids.compactMap { key($0, in: entity) }
            guard !keys.isEmpty else { return f }
            let root = scopes[scopes.count - 1].root
            if keys.count == 1 { return "(\(root).\(q("_pk")) = \(parameter(.integer(keys[0]))))" }
            return Dialect.keyIn("\(root).\(q("_pk"))", keys) { parameter($0) }
        case .and(let parts):
            guard !parts.isEmpty else { return t }
            return "(" + (try parts.map { try expression($0, entity) }).joined(separator: " AND ") + ")"
        case .or(let parts):
            guard !parts.isEmpty else { return f }
            return "(" + (try parts.map { try expression($0, entity) }).joined(separator: " OR ") + ")"
        case .not(let inner):
            // "Not true" holds for false and for NULL, so NOT never meets SQL's unknown.
            return Dialect.isNotTrue(try expression(inner, entity))
        case .anyMatch(let path, let inner):
            return try anyMatch(path, inner, entity)
        case .allMatch(let path, let inner):
            return try allMatch(path, inner, entity)
        case .count(let path, let op, let n):
            return try count(path, op, n, entity)
        }
    }
}

/// The entry points a backend calls to translate a fetch, generic over the dialect it passes.
///
/// Why not `SQLQuery<MyDialect>(…)` at the call site: naming the specialised type in another
/// module makes the runtime build its metadata from a mangled name the first time, which looks up
/// the dialect's conformance by scanning the binary's conformance records — about 250,000
/// instructions, paid by the first fetch of every process (it cost SQLite's reopen step 9%; limit:
/// Benchmarks/Thresholds/sqlite-reopen.txt). Here the dialect's conformance is passed in.
package enum SQLFetch {
    /// `SELECT _pk, <columns> …` of `descriptor` over `entity`, with its parameters in order.
    package static func select<Dialect: SQLDialect>(_ dialect: Dialect.Type, _ descriptor: FetchDescriptor, entity: EntitySchema, columns: [String], mapping: SQLMapping, storeIdentifier: String) throws -> (sql: String, parameters: [SQLValue]) {
        var query = SQLQuery<Dialect>(mapping: mapping, storeIdentifier: storeIdentifier)
        let sql = try query.select(descriptor, entity: entity, columns: columns)
        return (sql, query.parameters)
    }

    /// `SELECT COUNT(*)` of the windowed result of `descriptor`, with its parameters in order.
    package static func count<Dialect: SQLDialect>(_ dialect: Dialect.Type, _ descriptor: FetchDescriptor, entity: EntitySchema, mapping: SQLMapping, storeIdentifier: String) throws -> (sql: String, parameters: [SQLValue]) {
        var query = SQLQuery<Dialect>(mapping: mapping, storeIdentifier: storeIdentifier)
        let sql = try query.count(descriptor, entity: entity)
        return (sql, query.parameters)
    }
}
