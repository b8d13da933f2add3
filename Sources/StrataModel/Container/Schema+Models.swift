import Synchronization

extension Schema {
    /// The schema of model types and every type their relationships reach, as SwiftData writes it:
    /// `Schema([Trip.self, BucketListItem.self])`.
    ///
    /// SwiftData's initializer does not throw, so neither does this one: when the types do not form
    /// a valid schema (two types of one name, inverses that do not pair…), the schema returned is a
    /// placeholder that every `ModelContainer` refuses with the `invalidSchema` error describing the
    /// problem. `Schema(models:)` throws that error at once.
    ///
    /// The model types are remembered with the schema (by its fingerprint, for the process), so
    /// `ModelContainer(for: schema, configurations: …)` knows which class serves which entity.
    public init(_ types: [any PersistentModel.Type], version: Schema.Version = Version(1, 0, 0)) {
        self = ModelTypeRegistry.register(types, version: version)
        self.version = version  // the core's `Schema.version`, which stores record
    }
}

/// The model types behind each schema made from model types: the core's `Schema` is a value of
/// entities with no room for Swift types, and SwiftData's `ModelContainer(for: Schema, …)` needs
/// them back.
///
/// Each distinct type list (with its version) gets a registration number, which the schema value
/// carries (`Schema.modelTypesRegistration`), so two type sets of the same shape — `Schema([Trip.self])`
/// and `Schema([BucketListItem.self])` when each reaches the other, or the same model names in two
/// modules — each find their own types, whatever else the process registers meanwhile. A schema
/// value without the number (decoded, or built from entities) falls back to the type set of its
/// fingerprint registered last, which only matters for untyped lookups (`model(for:)`).
enum ModelTypeRegistry {
    /// What a schema was made from, or why it could not be made.
    struct Entry: @unchecked Sendable {  // metatypes and values, never mutated
        let types: [any PersistentModel.Type]
        let version: Schema.Version
        let failure: StrataError?
    }

    private struct State {
        /// By registration number.
        var entries: [Entry] = []
        /// The number of each type list already registered (its fingerprint, version and types),
        /// so that building the same schema again does not grow the registry.
        var numbers: [String: Int] = [:]
        /// The number registered last for each fingerprint.
        var latest: [String: Int] = [:]
        var invalidCount = 0

        mutating func add(_ entry: Entry, fingerprint: String, key: String?) -> Int {
            if let key, let number = numbers[key] {
                latest[fingerprint] = number
                return number
            }
            let number = entries.count
            entries.append(entry)
            if let key { numbers[key] = number }
            latest[fingerprint] = number
            return number
        }
    }

    private static let state = Mutex(State())

    /// Derives the schema of `types` and remembers them; a failure gives a placeholder schema whose
    /// entry carries the error.
    static func register(_ types: [any PersistentModel.Type], version: Schema.Version) -> Schema {
        do {
            var schema = try ModelSchema(types).schema
            let key = "\(schema.fingerprint) \(version) " + types.map { String(UInt(bitPattern: ObjectIdentifier($0))) }.joined(separator: ",")
            schema.modelTypesRegistration = state.withLock {
                $0.add(Entry(types: types, version: version, failure: nil), fingerprint: schema.fingerprint, key: key)
            }
            return schema
        } catch {
            let failure = error as? StrataError ?? StrataError(.invalidSchema, "\(error)")
            return state.withLock { state in
                // A distinct placeholder per failure, so each container reports its own problem.
                state.invalidCount += 1
                let name = "_InvalidSchema\(state.invalidCount)"
                guard var placeholder = try? Schema(entities: [Entity(name, members: [])]) else { return Schema.empty }
                placeholder.modelTypesRegistration = state.add(Entry(types: [], version: version, failure: failure), fingerprint: placeholder.fingerprint, key: nil)
                return placeholder
            }
        }
    }

    /// What `schema` was made from, if it was made from model types.
    static func entry(for schema: Schema) -> Entry? {
        state.withLock { state in
            guard let number = schema.modelTypesRegistration ?? state.latest[schema.fingerprint] else { return nil }
            return state.entries[number]
        }
    }

    /// The model types of `schema`.
    ///
    /// - Throws: the error that made the schema invalid; `invalidSchema` for a schema not made from
    ///   model types (the model layer cannot tell which class serves which entity).
    static func types(of schema: Schema) throws -> [any PersistentModel.Type] {
        guard let entry = entry(for: schema) else {
            throw StrataError(.invalidSchema, "This schema was not made from model types, so the container cannot tell which class serves which entity; make it with Schema([Trip.self, …]) or pass the types: ModelContainer(for: Trip.self, configurations: …).")
        }
        if let failure = entry.failure { throw failure }
        return entry.types
    }
}
