/// Everything a store holding its records in memory holds: records, key counters, unique indexes.
///
/// A value type whose copies share storage, so the engine can build the next state from the committed
/// one and either publish it (the save succeeded) or drop it (it failed): that is how a failed save
/// changes nothing. Backends that persist whole (JSON, CSV, XML) read it to write their files and
/// rebuild it with `load` when they open.
@_spi(StrataEngine) public struct StoreState: Sendable {
    /// The schema of the records.
    public let schema: Schema
    /// The store identifier used in every permanent identifier.
    public let storeIdentifier: String
    var tables: [Table]
    /// The recorded history (empty unless the store records it).
    public internal(set) var history = HistoryLog()

    struct Table: Sendable {
        var records = PagedArray<StoredRecord>()
        var nextPrimaryKey: Int64 = 1
        var uniqueIndexes: [ShardedDictionary<UniqueKey, Int64>]
    }

    /// An empty state.
    public init(schema: Schema, storeIdentifier: String) {
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.tables = schema.entities.map { Table(uniqueIndexes: Array(repeating: .init(), count: $0.uniqueConstraints.count)) }
    }

    /// The record of `entity` with this primary key, if any.
    public func record(_ entity: EntitySchema, _ key: Int64) -> StoredRecord? { tables[entity.index].records[key] }

    /// Whether `entity` holds a record with this primary key (without copying the record).
    public func contains(_ entity: EntitySchema, _ key: Int64) -> Bool { tables[entity.index].records.contains(key) }

    /// How many records `entity` holds.
    public func count(_ entity: EntitySchema) -> Int { tables[entity.index].records.count }

    /// The next primary key `entity` will assign; persisted so keys are never reused after a delete.
    public func nextPrimaryKey(_ entity: EntitySchema) -> Int64 { tables[entity.index].nextPrimaryKey }

    /// Visits `entity`'s records in ascending key order; stop by returning false.
    public func forEachRecord(_ entity: EntitySchema, _ body: (Int64, StoredRecord) throws -> Bool) rethrows {
        try tables[entity.index].records.forEach(body)
    }

    /// The permanent identifier of `entity`'s record `key` in this store.
    public func identifier(_ entity: EntitySchema, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entity.name, primaryKey: key)
    }

    /// Builds the snapshot a client sees for a stored record.
    public func snapshot<S: DataStoreSnapshot>(_ entity: EntitySchema, _ key: Int64, _ record: StoredRecord, as: S.Type = S.self) -> S {
        S(entity: entity, persistentIdentifier: identifier(entity, key), attributes: record.attributes, relationships: relationshipValues(entity, record))
    }

    /// `snapshot(_:_:_:)` for `DefaultSnapshot`, without generic dispatch.
    func defaultSnapshot(_ entity: EntitySchema, _ key: Int64, _ record: StoredRecord) -> DefaultSnapshot {
        DefaultSnapshot(entity: entity, persistentIdentifier: identifier(entity, key), attributes: record.attributes, relationships: relationshipValues(entity, record))
    }

    /// The relationship values a snapshot of `record` carries, built in one allocation of the
    /// final size: `reserveCapacity` and then `append` went through the array's growth path twice
    /// per record, the larger part of a memory point lookup's cost above its dictionary floor (limit:
    /// Benchmarks/Thresholds/memory-fetch-by-id.txt). One relationship, the common case, is an
    /// array literal, as the floor builds it.
    func relationshipValues(_ entity: EntitySchema, _ record: StoredRecord) -> [RelationshipValue] {
        let links = record.links
        let names = entity.destinationNames
        @inline(__always)
        func value(_ i: Int) -> RelationshipValue {
            switch links[i] {
            case .one(let k):
                .toOne(k.map { PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: names[i], primaryKey: $0) })
            case .many(let ks):
                .toMany(ks.map { PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: names[i], primaryKey: $0) })
            }
        }
        switch links.count {
        case 0: return []
        case 1: return [value(0)]
        default:
            return [RelationshipValue](unsafeUninitializedCapacity: links.count) { buffer, initialized in
                for i in 0..<links.count {
                    (buffer.baseAddress! + i).initialize(to: value(i))
                    initialized = i + 1
                }
            }
        }
    }

    /// The unique-constraint key of `record` for constraint `c` of `entity`, or `nil` if any part is nil.
    func uniqueKey(_ entity: EntitySchema, _ c: Int, _ record: StoredRecord) -> UniqueKey? {
        Self.uniqueKey(entity, c, attributes: record.attributes, links: record.links)
    }

    /// The unique-constraint key of a record's values, or `nil` if any part is nil.
    static func uniqueKey(_ entity: EntitySchema, _ c: Int, attributes: [Value], links: [Link]) -> UniqueKey? {
        let refs = entity.uniqueConstraints[c]
        func part(_ ref: PropertyReference) -> Value {
            switch ref {
            case .attribute(let i): return attributes[i].uniqueKey
            case .relationship(let i):
                if case .one(let k?) = links[i] { return .int(k) }
                return .null
            }
        }
        if refs.count == 1 {
            let v = part(refs[0])
            return v.isNull ? nil : UniqueKey(.single(v))
        }
        var parts: [Value] = []
        parts.reserveCapacity(refs.count)
        for ref in refs {
            let v = part(ref)
            if v.isNull { return nil }
            parts.append(v)
        }
        return UniqueKey(.composite(parts))
    }

    /// The record holding `key` in unique constraint `c` of `entity`, if any.
    func holder(_ entity: EntitySchema, _ c: Int, _ key: UniqueKey) -> Int64? {
        tables[entity.index].uniqueIndexes[c][key]
    }
}
