extension DataStoreSnapshot {
    /// Each snapshot's `persistentIdentifier`, in order.
    ///
    /// A requirement with this inlinable default, like `converting(_:)`: the module that declares a
    /// conformance compiles this loop for its own snapshot type, where the identifier getter is
    /// inlined. A generic client (the model layer, which knows a store's snapshot type only as a
    /// type parameter) that read each record's identifier itself paid an unspecialized array
    /// access, a witness call and a value-witness destroy per record, about 154 instructions on
    /// top of building the identifier (callgrind, docs/benchmarks.md, "Issue 31, session 11").
    @inlinable
    public static func persistentIdentifiers(of snapshots: [Self]) -> [PersistentIdentifier] {
        snapshots.map { $0.persistentIdentifier }
    }
}
