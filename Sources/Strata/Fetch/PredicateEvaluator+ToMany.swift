/// The to-many tests: a nested predicate compiled for the target entity, run over the targets the
/// reader lists, so a backend's evaluation costs one visit of each record's own targets.
extension PredicateEvaluator {
    /// `anyMatch`: stops at the first target that satisfies `inner`; `nil` through an empty to-one.
    func anyMatch(_ path: PropertyPath, _ inner: FetchPredicate, _ entity: EntitySchema) throws -> (Reader.Record) -> Bool {
        let (walk, i, destination) = try toMany(path, entity, "anyMatch")
        let reader = self.reader
        if case .constant(let b) = inner {
            // `!isEmpty` (or `false`): the count alone answers it.
            return { record in b && walk(record).map { reader.targetCount($0, i) > 0 } ?? false }
        }
        let test = try compile(inner, for: destination)
        return { record in
            guard let owner = walk(record) else { return false }
            var found = false
            reader.forEachTarget(owner, i) { key in
                if let target = reader.record(destination, key), test(target) { found = true }
                return !found
            }
            return found
        }
    }

    /// `allMatch`: stops at the first target that fails `inner`; an empty to-many holds, `nil`
    /// through an empty to-one does not.
    func allMatch(_ path: PropertyPath, _ inner: FetchPredicate, _ entity: EntitySchema) throws -> (Reader.Record) -> Bool {
        let (walk, i, destination) = try toMany(path, entity, "allMatch")
        let reader = self.reader
        let test = try compile(inner, for: destination)
        return { record in
            guard let owner = walk(record) else { return false }
            var holds = true
            reader.forEachTarget(owner, i) { key in
                if let target = reader.record(destination, key), !test(target) { holds = false }
                return holds
            }
            return holds
        }
    }

    /// `count`: the number of targets against `n`; `nil` through an empty to-one compares as `nil`.
    func count(_ path: PropertyPath, _ op: ComparisonOperator, _ n: Int, _ entity: EntitySchema) throws -> (Reader.Record) -> Bool {
        let (walk, i, _) = try toMany(path, entity, "count")
        let reader = self.reader
        let bound = Value.int(Int64(n))
        return { record in
            let count = walk(record).map { Value.int(Int64(reader.targetCount($0, i))) } ?? .null
            return Value.satisfies(count, op, bound)
        }
    }

    /// Resolves a path that must end on a to-many relationship.
    ///
    /// - Throws: `unknownProperty` for a name the entity lacks, `invalidRequest` when the path ends
    ///   on an attribute or a to-one (or crosses a to-many on the way).
    private func toMany(_ path: PropertyPath, _ entity: EntitySchema, _ test: String) throws -> ((Reader.Record) -> Reader.Record?, Int, EntitySchema) {
        let resolved: ((Reader.Record) -> Reader.Record?, Terminal)
        do {
            resolved = try resolve(path, entity)
        } catch let error as StrataError where error.code == .typeMismatch || error.code == .unsupported {
            throw StrataError(.invalidRequest, "\(test) needs a path to a to-many relationship, through to-one relationships only: \(error.message)", entity: error.entity ?? entity.name, properties: error.properties)
        }
        guard case .toMany(let i, let destination) = resolved.1 else {
            throw StrataError(.invalidRequest, "\(test) needs a to-many relationship; '\(path)' is \(resolved.1.isToOne ? "a to-one relationship (test its target with targetIs, or its attributes through a path)" : "an attribute").", entity: entity.name, properties: [path.description])
        }
        return (resolved.0, i, destination)
    }
}

extension PredicateEvaluator.Terminal {
    /// Whether the path ends on a to-one relationship.
    var isToOne: Bool {
        if case .toOne = self { return true }
        return false
    }
}
