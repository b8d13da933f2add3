extension DataStoreSnapshot {
    /// `request` with each snapshot rebuilt through `init(entity:persistentIdentifier:attributes:relationships:)`,
    /// every other field of the request kept.
    ///
    /// A requirement with this inlinable default, rather than a helper the client runs: the module
    /// that declares a conformance compiles this body for its own snapshot type into the witness
    /// table. A generic client (the model layer's store box, which knows the store only as a type
    /// parameter) that converted the arrays itself ran `map` unspecialized: a value-witness copy, a
    /// closure call and an initializer witness per snapshot, about 1,100 instructions, and 360 more
    /// to destroy the converted request (callgrind, docs/benchmarks.md).
    @inlinable
    public static func converting(_ request: SaveRequest<DefaultSnapshot>) -> SaveRequest<Self> {
        var converted = SaveRequest<Self>(
            inserted: rebuilt(request.inserted), updated: rebuilt(request.updated), deleted: rebuilt(request.deleted),
            updatedProperties: request.updatedProperties, author: request.author)
        converted.firstKeys = request.firstKeys
        return converted
    }

    /// Each of `snapshots` as this type, in order.
    @inlinable
    static func rebuilt(_ snapshots: [DefaultSnapshot]) -> [Self] {
        snapshots.map { Self(entity: $0.entity, persistentIdentifier: $0.persistentIdentifier, attributes: $0.attributes, relationships: $0.relationships) }
    }
}
