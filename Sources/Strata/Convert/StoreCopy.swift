import Foundation

/// Copies every record and relationship of one store into a new, empty store of any backend
/// (`strata convert`, `ModelContainer.copyStore`), in batches, so memory stays bounded by the batch
/// size rather than the store size (beyond what the backends themselves hold).
///
/// The copy runs in two passes over each entity, in key order, one save per batch:
/// 1. **records**: every record with its attributes and its *required* relationships (a required
///    to-one, a to-many with a `minCount`), whose targets are already copied because entities are
///    copied in the order those relationships need (`order(of:)`);
/// 2. **links**: every other relationship, written as a partial update (`UpdatedProperties`), so
///    both sides of each link and every ordered list end as in the source.
///
/// Keys: a destination with the `chosenKeys` capability (every built-in backend) keeps every
/// primary key, gaps included (`SaveRequest.firstKeys`); another hands out keys in insert order
/// from 1, so only a source without gaps keeps them. The `StoreKeyMap` in the report says which
/// moved (docs/convert.md).
/// `verify` then compares both stores record by record, as `strata dump` would print them.
public enum StoreCopy {
    /// How a copy runs.
    public struct Options: Sendable {
        /// Records per save (and per read of the source); memory grows with it.
        public var batchSize: Int
        /// Whether to compare both stores after the copy (`StoreCopy.verify`).
        public var verify: Bool
        /// Called after each batch with the records done so far.
        public var progress: (@Sendable (Progress) -> Void)?

        /// Options with `batchSize` records per save (default 2,000), verifying by default.
        public init(batchSize: Int = 2_000, verify: Bool = true, progress: (@Sendable (Progress) -> Void)? = nil) {
            self.batchSize = batchSize
            self.verify = verify
            self.progress = progress
        }
    }

    /// Where a running copy is.
    public struct Progress: Sendable {
        /// `"records"`, `"links"` or `"verify"`.
        public var phase: String
        /// Records done in this phase.
        public var done: Int
        /// Records in the source.
        public var total: Int
    }

    /// What a copy did.
    public struct Report: Sendable {
        /// Records copied.
        public var records: Int
        /// Relationship targets written in the links pass (each link once per side written).
        public var links: Int
        /// How source keys map to destination keys.
        public var keyMap: StoreKeyMap
        /// To-one references to records the source no longer holds (left by a `noAction` delete):
        /// no save can write such a reference, so the copy leaves them empty.
        public var droppedDanglingReferences: Int
        /// Whether `verify` ran and found both stores equal.
        public var verified: Bool
    }

    /// Copies everything `source` holds into `destination`, which must be empty and open at the
    /// same schema.
    ///
    /// - Throws: before anything is written, `schemaMismatch` when the schemas differ,
    ///   `invalidRequest` when the destination holds records, `unsupported` when the destination
    ///   lacks a capability the schema uses (ordered relationships, many-to-many) or the schema has
    ///   a cycle of required relationships; afterwards a save's error, or `corruptStore` when the
    ///   verification finds a difference. The destination then holds part of the copy: callers
    ///   write into a staging location they remove on error (`strata convert` does).
    public static func copy<Source: DataStore, Destination: DataStore>(from source: Source, to destination: Destination, options: Options = Options()) throws -> Report {
        let schema = source.schema
        guard destination.schema.fingerprint == schema.fingerprint else {
            throw StrataError(.schemaMismatch, "The destination store is open at schema \(destination.schema.fingerprint), the source at \(schema.fingerprint); open the destination at the schema the source records.")
        }
        try checkCapabilities(of: destination, for: schema)
        let order = try self.order(of: schema)
        for entity in schema.entities where try destination.fetchCount(FetchDescriptor(entity: entity.name)) > 0 {
            throw StrataError(.invalidRequest, "The destination store already holds records of '\(entity.name)'; a copy goes into an empty store.", entity: entity.name)
        }
        let batch = max(1, options.batchSize)
        var total = 0
        for entity in schema.entities { total += try source.fetchCount(FetchDescriptor(entity: entity.name)) }
        var copy = StoreCopyRun(source: source, destination: destination, batch: batch, total: total, progress: options.progress)
        for e in order { try copy.records(schema.entities[e]) }
        for entity in schema.entities where !copy.linksPassIndices(entity).isEmpty { try copy.links(entity) }
        var report = Report(records: copy.done, links: copy.linkTargets, keyMap: copy.keyMap, droppedDanglingReferences: copy.dropped, verified: false)
        if options.verify {
            try verify(source, destination, keyMap: copy.keyMap, batchSize: batch, progress: options.progress)
            report.verified = true
        }
        return report
    }

    /// The schema to copy a store at: the one it records (`DataStore.recordedSchema`).
    ///
    /// - Throws: `ioFailure` when no store is at `location` (`recorded` is `nil`), `unsupported`
    ///   when the store recorded only its schema's fingerprint (written before stores recorded
    ///   their schema): open it once with its models, which records the schema, then copy it.
    public static func sourceSchema(_ recorded: RecordedSchema?, at location: String) throws -> Schema {
        guard let recorded else { throw StrataError(.ioFailure, "There is no store at \(location).", file: location) }
        guard let schema = recorded.schema else {
            throw StrataError(.unsupported, "The store at \(location) records only its schema's fingerprint (\(recorded.fingerprint)), not the schema: open it once with its models, which records the schema, then copy it.", file: location)
        }
        return schema
    }

    /// The relationships a record needs when it is inserted: a required to-one, a to-many with a
    /// `minCount` above zero.
    static func isRequired(_ relationship: Relationship) -> Bool {
        relationship.isToMany ? (relationship.minCount ?? 0) > 0 : !relationship.isOptional
    }

    /// The entity indices in copy order: every entity after the targets of its required
    /// relationships, otherwise in schema order.
    ///
    /// - Throws: `unsupported` when required relationships form a cycle (an entity requiring
    ///   itself included): such records can only be inserted all in one save, which a batched
    ///   copy does not do.
    public static func order(of schema: Schema) throws -> [Int] {
        let entities = schema.entities
        var needs: [Set<Int>] = entities.map { entity in
            Set(entity.relationships.indices.filter { isRequired(entity.relationships[$0]) }.map { entity.destinationIndices[$0] })
        }
        var order: [Int] = []
        while order.count < entities.count {
            guard let next = entities.indices.first(where: { !order.contains($0) && needs[$0].isEmpty }) else {
                let left = entities.indices.filter { !order.contains($0) }.map { entities[$0].name }
                throw StrataError(.unsupported, "Required relationships form a cycle among \(left.joined(separator: ", ")): their records can only be written all in one save, and a copy writes in batches.", entity: left.first)
            }
            order.append(next)
            for i in needs.indices { needs[i].remove(next) }
        }
        return order
    }

    /// Throws `unsupported` when `destination` lacks a capability `schema` uses.
    static func checkCapabilities<Destination: DataStore>(of destination: Destination, for schema: Schema) throws {
        let capabilities = destination.capabilities
        for entity in schema.entities {
            for (r, relationship) in entity.relationships.enumerated() {
                let inverse = schema.entities[entity.destinationIndices[r]].relationships[entity.inverseIndices[r]]
                if relationship.isOrdered, !capabilities.contains(.orderedRelationships) {
                    throw StrataError(.unsupported, "The destination backend (\(Destination.self)) keeps no ordered relationships, and '\(entity.name).\(relationship.name)' is ordered.", entity: entity.name, properties: [relationship.name])
                }
                if relationship.isToMany, inverse.isToMany, !capabilities.contains(.manyToMany) {
                    throw StrataError(.unsupported, "The destination backend (\(Destination.self)) keeps no many-to-many relationships, and '\(entity.name).\(relationship.name)' is one.", entity: entity.name, properties: [relationship.name])
                }
            }
        }
    }
}
