/// Compiles a `FetchPredicate` or a sort path into closures, checking names and types once.
///
/// Any backend may use it to filter and sort in memory; the shared engine does. Compilation throws
/// `unknownProperty` for a name the entity lacks and `typeMismatch` for a constant of the wrong type
/// or an operator that does not fit the property, so a bad descriptor fails the same way everywhere.
public struct PredicateEvaluator<Reader: PredicateReader> {
    /// The schema the paths are resolved against.
    public let schema: Schema
    /// How records are read.
    public let reader: Reader

    /// An evaluator over `schema` reading records through `reader`.
    public init(schema: Schema, reader: Reader) {
        self.schema = schema
        self.reader = reader
    }

    /// What a resolved path ends on.
    enum Terminal {
        case attribute(Int, AttributeType)
        case toOne(Int, EntitySchema)
        case toMany(Int, EntitySchema)
    }

    /// Compiles `predicate` for records of `entity`.
    public func compile(_ predicate: FetchPredicate, for entity: EntitySchema) throws -> (Reader.Record) -> Bool {
        let reader = self.reader
        switch predicate {
        case .constant(let b):
            return { _ in b }
        case .compare(let path, let op, let given):
            let (get, type) = try attributeGetter(path, entity)
            let constant = coerced(given, to: type)
            try check(constant, fits: type, path: path, entity: entity)
            return { Value.satisfies(get($0), op, constant) }
        case .compareProperties(let lhs, let op, let rhs):
            let (left, lt) = try attributeGetter(lhs, entity)
            let (right, rt) = try attributeGetter(rhs, entity)
            guard lt == rt else {
                throw StrataError(.typeMismatch, "Cannot compare '\(lhs)' (\(lt.rawValue)) with '\(rhs)' (\(rt.rawValue)).", entity: entity.name, properties: [lhs.description, rhs.description])
            }
            return { Value.satisfies(left($0), op, right($0)) }
        case .isNil(let path):
            let (walk, terminal) = try resolve(path, entity)
            switch terminal {
            case .attribute(let i, _): return { walk($0).map { reader.attribute($0, i).isNull } ?? true }
            case .toOne(let i, _): return { walk($0).map { reader.toOne($0, i) == nil } ?? true }
            case .toMany:
                throw path.toManyNeverNil(entity)
            }
        case .isIn(let path, let given):
            let (get, type) = try attributeGetter(path, entity)
            let values = given.map { coerced($0, to: type) }
            for v in values { try check(v, fits: type, path: path, entity: entity) }
            return { record in
                let v = get(record)
                return values.contains { Value.satisfies(v, .equal, $0) }
            }
        case .text(let path, let op, let pattern, let caseInsensitive):
            let (get, type) = try attributeGetter(path, entity)
            guard type == .string else {
                throw StrataError(.typeMismatch, "String search needs a string property; '\(path)' is \(type.rawValue).", entity: entity.name, properties: [path.description])
            }
            return { record in
                guard case .string(let s) = get(record) else { return false }
                return TextMatch.matches(s, op, pattern, caseInsensitive: caseInsensitive)
            }
        case .targetIs(let path, let id):
            let (walk, terminal) = try resolve(path, entity)
            guard case .toOne(let i, let destination) = terminal else {
                throw path.notToOne(entity)
            }
            guard let id else { return { walk($0).map { reader.toOne($0, i) == nil } ?? true } }
            guard id.entityName == destination.name, let key = reader.key(for: id, in: destination) else { return { _ in false } }
            return { walk($0).map { reader.toOne($0, i) == key } ?? false }
        case .contains(let path, let id):
            let (walk, terminal) = try resolve(path, entity)
            guard case .toMany(let i, let destination) = terminal else {
                throw path.notToMany(entity)
            }
            guard id.entityName == destination.name, let key = reader.key(for: id, in: destination) else { return { _ in false } }
            return { walk($0).map { reader.toMany($0, i, contains: key) } ?? false }
        case .identifierIn(let ids):
            let keys = Set(ids.filter { $0.entityName == entity.name }.compactMap { reader.key(for: $0, in: entity) })
            return { keys.contains(reader.key(of: $0)) }
        case .and(let parts):
            let tests = try parts.map { try compile($0, for: entity) }
            return { record in tests.allSatisfy { $0(record) } }
        case .or(let parts):
            let tests = try parts.map { try compile($0, for: entity) }
            return { record in tests.contains { $0(record) } }
        case .not(let inner):
            let test = try compile(inner, for: entity)
            return { !test($0) }
        case .anyMatch(let path, let inner):
            return try anyMatch(path, inner, entity)
        case .allMatch(let path, let inner):
            return try allMatch(path, inner, entity)
        case .count(let path, let op, let n):
            return try count(path, op, n, entity)
        }
    }

    /// Compiles a path that ends on an attribute into a value getter (`nil` through an empty to-one).
    public func attributeGetter(_ path: PropertyPath, _ entity: EntitySchema) throws -> ((Reader.Record) -> Value, AttributeType) {
        let (walk, terminal) = try resolve(path, entity)
        guard case .attribute(let i, let type) = terminal else {
            throw path.notAnAttribute(entity)
        }
        let reader = self.reader
        return ({ walk($0).map { reader.attribute($0, i) } ?? .null }, type)
    }

    /// Compiles a sort key into the getter of the value rows are ordered by (`Value.sortOrder`),
    /// with the key's string comparator applied (`SortKey.sortValue`).
    public func sortGetter(_ key: SortKey, _ entity: EntitySchema) throws -> (Reader.Record) -> Value {
        let (get, type) = try attributeGetter(key.path, entity)
        guard type == .string, key.comparator != .byteOrder else { return get }
        return { key.sortValue(get($0)) }
    }

    /// An integer constant compared with a double property means that number (`price < 2`).
    private func coerced(_ value: Value, to type: AttributeType) -> Value {
        if type == .double, case .int(let n) = value { return .double(Double(n)) }
        return value
    }

    private func check(_ value: Value, fits type: AttributeType, path: PropertyPath, entity: EntitySchema) throws {
        guard value.isNull || value.type == type else {
            throw StrataError(.typeMismatch, "'\(path)' is \(type.rawValue) but the predicate compares it with \(value).", entity: entity.name, properties: [path.description])
        }
    }

    /// Resolves every component but the last through to-one relationships.
    func resolve(_ path: PropertyPath, _ entity: EntitySchema) throws -> ((Reader.Record) -> Reader.Record?, Terminal) {
        try path.requireComponents(entity)
        let reader = self.reader
        var current = entity
        var walk: (Reader.Record) -> Reader.Record? = { $0 }
        for n in path.components.indices {
            let last = n == path.components.count - 1
            switch try path.step(n, on: current) {
            case .attribute(let i):
                return (walk, .attribute(i, current.attributes[i].type))
            case .relationship(let i):
                let destination = schema.entities[current.destinationIndices[i]]
                if last {
                    return (walk, current.relationships[i].isToMany ? .toMany(i, destination) : .toOne(i, destination))
                }
                let previous = walk
                walk = { record in
                    guard let r = previous(record), let k = reader.toOne(r, i) else { return nil }
                    return reader.record(destination, k)
                }
                current = destination
            }
        }
        throw StrataError(.unknownProperty, "Path '\(path)' does not end on a property.", entity: entity.name)
    }
}
