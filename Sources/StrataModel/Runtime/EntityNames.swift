import Synchronization

/// Each model type's entity name (its class name), described once and then looked up.
///
/// `String(describing:)` of a type runs the runtime's reflection (a `Mirror`, protocol-conformance
/// lookups and dynamic casts): 6,800 instructions a call. `PersistentModel.entityName` is read by
/// every `model(for:)` lookup and every fetch, so it was a third of the model layer's fetch-by-id
/// (callgrind on `StrataPeers --only strata-model --step fetch-by-id`; docs/benchmarks.md).
enum EntityNames {
    /// Every name described, and the type asked for last (asked in runs of one type: compared
    /// before the dictionary is hashed, as `ModelTypeInfo.of` does).
    private struct Cache {
        var all: [ObjectIdentifier: String] = [:]
        var last: (key: ObjectIdentifier, name: String)?
    }

    private static let cache = Mutex<Cache>(Cache())

    /// The entity name of `type`: `String(describing: type)`, described on first use.
    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let known: String = cache.withLock({ cache in
            if let last = cache.last, last.key == key { return last.name }
            guard let name = cache.all[key] else { return nil }
            cache.last = (key, name)
            return name
        }) { return known }
        let name = String(describing: type)  // described outside the lock
        cache.withLock { cache in
            cache.all[key] = name
            cache.last = (key, name)
        }
        return name
    }
}
