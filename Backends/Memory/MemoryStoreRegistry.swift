import Foundation
import Strata
import Synchronization

/// The process's named memory stores: one shared engine per name, which outlives the store objects.
///
/// This is the memory backend's "disk". Every `MemoryStore` opened under a name uses that name's
/// engine, so two open stores of one name see each other's saves at once, and a store opened after
/// the others were released sees what they saved.
enum MemoryStoreRegistry {
    private static let engines = Mutex<[String: RecordEngine]>([:])

    /// The engine of `name`, created empty if new (unless `existingOnly`); throws `schemaMismatch`
    /// listing the differences when the name holds data of another schema.
    static func open(_ name: String, schema: Schema, existingOnly: Bool = false) throws -> RecordEngine {
        try engines.withLock { engines in
            if let engine = engines[name] {
                guard engine.schema.fingerprint == schema.fingerprint else {
                    throw schema.mismatch(storedFingerprint: engine.schema.fingerprint, storedDescription: engine.schema.canonicalDescription, file: name)
                }
                return engine
            }
            guard !existingOnly else {
                throw StrataError(.ioFailure, "There is no memory store named '\(name)' in this process; a read-only open never creates one.", file: name)
            }
            let engine = RecordEngine(state: StoreState(schema: schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier()))
            engines[name] = engine
            return engine
        }
    }

    /// Forgets the store `name` (its data is gone once no open store uses it).
    static func remove(_ name: String) {
        _ = engines.withLock { $0.removeValue(forKey: name) }
    }
}
