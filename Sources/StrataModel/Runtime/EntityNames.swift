import Synchronization

/// Each model type's entity name (its class name), described once and then looked up.
///
/// `String(describing:)` of a type runs the runtime's reflection (a `Mirror`, protocol-conformance
/// lookups and dynamic casts): 6,800 instructions a call. `PersistentModel.entityName` is read by
/// every `model(for:)` lookup and every fetch, so it was a third of the model layer's fetch-by-id
/// (callgrind on `StrataPeers --only strata-model --step fetch-by-id`; docs/benchmarks.md).
enum EntityNames {
    /// One type's name, kept for the process (so `last` can point at it unretained).
    private final class Named: Sendable {
        let key: ObjectIdentifier
        let name: String
        init(_ key: ObjectIdentifier, _ name: String) { self.key = key; self.name = name }
    }

    /// Every name described.
    private static let cache = Mutex<[ObjectIdentifier: Named]>([:])
    /// The type asked for last (asked in runs of one type), compared before the lock is taken, as
    /// `ModelTypeInfo.of` does.
    private static let last = Atomic<Unmanaged<Named>?>(nil)

    /// The entity name of `type`: `String(describing: type)`, described on first use.
    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let last = last.load(ordering: .acquiring), last._withUnsafeGuaranteedRef({ $0.key == key }) {
            return last._withUnsafeGuaranteedRef { $0.name }
        }
        let named: Named
        if let known = cache.withLock({ $0[key] }) {
            named = known
        } else {
            let described = Named(key, String(describing: type))  // described outside the lock
            named = cache.withLock { cache in
                let kept = cache[key] ?? described
                cache[key] = kept
                return kept
            }
        }
        last.store(Unmanaged.passUnretained(named), ordering: .releasing)
        return named.name
    }
}
