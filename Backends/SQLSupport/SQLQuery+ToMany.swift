@_spi(StrataEngine) import Strata

/// The to-many tests in SQL: correlated subqueries over the targets' table (a one-to-many, through
/// the foreign key pointing back) or over the join table joined to the targets (a many-to-many),
/// with the nested predicate translated recursively in its own scope. No row is read into Swift.
///
/// - `anyMatch`: `EXISTS (SELECT 1 … WHERE <owner> AND (<nested>))`.
/// - `allMatch`: `NOT EXISTS (SELECT 1 … WHERE <owner> AND (<nested>) IS NOT 1)`, so a target for
///   which the nested predicate is false or unknown breaks it.
/// - `count`: `(SELECT COUNT(*) … WHERE <owner>)` compared like an integer column.
///
/// Through an empty or dangling to-one the owner's alias has a NULL `_pk`: `anyMatch` finds no row
/// by itself, `allMatch` is guarded with `_pk IS NOT NULL`, and the count is NULL, which compares as
/// `nil` does (only `!=` holds) — the contract's reading of a `nil` to-many.
extension SQLQuery {
    mutating func anyMatch(_ path: PropertyPath, _ inner: FetchPredicate, _ entity: EntitySchema) throws -> String {
        let (owner, storage, destination) = try toMany(path, entity)
        let sub = try subquery(owner, storage, destination) { query in try query.expression(inner, destination) }
        return "EXISTS (SELECT 1 FROM \(sub.from) WHERE \(sub.owner) AND \(sub.condition))"
    }

    mutating func allMatch(_ path: PropertyPath, _ inner: FetchPredicate, _ entity: EntitySchema) throws -> String {
        let (owner, storage, destination) = try toMany(path, entity)
        let sub = try subquery(owner, storage, destination) { query in try query.expression(inner, destination) }
        let none = "NOT EXISTS (SELECT 1 FROM \(sub.from) WHERE \(sub.owner) AND \(Dialect.isNotTrue(sub.condition)))"
        return owner == scopes[scopes.count - 1].root ? none : "(\(owner).\(q("_pk")) IS NOT NULL AND \(none))"
    }

    mutating func count(_ path: PropertyPath, _ op: ComparisonOperator, _ n: Int, _ entity: EntitySchema) throws -> String {
        let (owner, storage, destination) = try toMany(path, entity)
        let sub = try subquery(owner, storage, destination) { _ in Dialect.trueLiteral }
        var counted = "(SELECT COUNT(*) FROM \(sub.from) WHERE \(sub.owner))"
        if owner != scopes[scopes.count - 1].root {
            counted = "(CASE WHEN \(owner).\(q("_pk")) IS NULL THEN NULL ELSE \(counted) END)"
        }
        return compare(counted, nil, .int, op, .int(Int64(n)))
    }

    /// Resolves a path to a to-many: the alias of the record owning it, how it is stored, its target.
    private mutating func toMany(_ path: PropertyPath, _ entity: EntitySchema) throws -> (String, SQLMapping.RelationshipStorage, EntitySchema) {
        guard case .toMany(let owner, let storage, let destination) = try resolve(path, entity) else {
            // The core's checks (`FetchDescriptor.checkedEntity`) reject this first, with the same code.
            throw StrataError(.invalidRequest, "'\(path)' is not a to-many relationship.", entity: entity.name, properties: [path.description])
        }
        return (owner, storage, destination)
    }

    /// The FROM clause over the targets of `owner`'s to-many, the condition tying them to the owner,
    /// and `nested` translated in a new scope rooted at the target table.
    private mutating func subquery(_ owner: String, _ storage: SQLMapping.RelationshipStorage, _ destination: EntitySchema, _ nested: (inout SQLQuery) throws -> String) throws -> (from: String, owner: String, condition: String) {
        let target = newAlias()
        let table = "\(q(mapping.tables[destination.index].name)) AS \(target)"
        let from: String
        let link: String
        switch storage {
        case .inverseColumn(_, let column, _):
            from = table
            link = "\(target).\(q(column)) = \(owner).\(q("_pk"))"
        case .join(let index, let mine, let other, _):
            let j = newAlias()
            from = "\(q(mapping.joins[index].name)) AS \(j) JOIN \(table) ON \(target).\(q("_pk")) = \(j).\(q(other))"
            link = "\(j).\(q(mine)) = \(owner).\(q("_pk"))"
        case .column:
            throw StrataError(.invalidRequest, "A to-one relationship has no targets to test.", entity: destination.name)
        }
        scopes.append(Scope(root: target))
        defer { scopes.removeLast() }
        let condition = try nested(&self)
        let joins = scopes[scopes.count - 1].joins
        return (([from] + joins).joined(separator: " "), link, condition)
    }

    /// A table alias no other part of the statement uses.
    mutating func newAlias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }
}
