import Foundation
import Strata
import Synchronization

/// The committed states of the process's named memory stores, which outlive the store objects.
///
/// This is the memory backend's "disk": a store publishes each committed state here inside its
/// save, and a store opened later under the same name starts from it.
enum MemoryStoreRegistry {
    private static let states = Mutex<[String: StoreState]>([:])

    /// The saved state under `name`, or a new empty one recorded there; throws `schemaMismatch` when
    /// the name holds data of another schema.
    static func open(_ name: String, schema: Schema) throws -> StoreState {
        try states.withLock { states in
            if let state = states[name] {
                guard state.schema.fingerprint == schema.fingerprint else {
                    throw StrataError(.schemaMismatch, "The memory store '\(name)' holds data of schema \(state.schema.fingerprint), not \(schema.fingerprint). Open it with its schema, or use another name.", file: name)
                }
                return state
            }
            let state = StoreState(schema: schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier())
            states[name] = state
            return state
        }
    }

    /// Records the committed state of `name`.
    static func publish(_ state: StoreState, as name: String) {
        states.withLock { $0[name] = state }
    }

    /// Forgets the store `name` (its data is gone).
    static func remove(_ name: String) {
        _ = states.withLock { $0.removeValue(forKey: name) }
    }
}
