import Foundation
@_spi(StrataEngine) import Strata
import Synchronization

/// The process's named memory stores: one shared engine per name, which outlives the store objects.
///
/// This is the memory backend's "disk". Every `MemoryStore` opened under a name uses that name's
/// engine, so two open stores of one name see each other's saves at once, and a store opened after
/// the others were released sees what they saved. Each entry records its schema (`RecordedSchema`)
/// as a file store does.
enum MemoryStoreRegistry {
    private struct Entry {
        var engine: RecordEngine
        var recorded: RecordedSchema
    }

    private static let entries = Mutex<[String: Entry]>([:])

    /// The engine of `name`, created empty if new (unless `existingOnly`); throws `schemaMismatch`
    /// naming both versions and the differences when the name holds data of another schema.
    static func open(_ name: String, schema: Schema, existingOnly: Bool = false) throws -> RecordEngine {
        try entries.withLock { entries in
            if var entry = entries[name] {
                if try entry.recorded.check(opening: schema, file: name) == .rewriteRecord, !existingOnly {
                    entry.recorded = RecordedSchema(schema)
                    entries[name] = entry
                }
                return entry.engine
            }
            guard !existingOnly else {
                throw StrataError(.ioFailure, "There is no memory store named '\(name)' in this process; a read-only open never creates one.", file: name)
            }
            let engine = RecordEngine(state: StoreState(schema: schema, storeIdentifier: PersistentIdentifier.makeStoreIdentifier()))
            entries[name] = Entry(engine: engine, recorded: RecordedSchema(schema))
            return engine
        }
    }

    /// The schema recorded for `name`, or `nil` when the process has no store of that name.
    static func recorded(_ name: String) -> RecordedSchema? {
        entries.withLock { $0[name]?.recorded }
    }

    /// Rewrites the records of `name` at the migration's destination and replaces its engine in
    /// one step; stores still open on the old engine keep the old state (reopen them).
    ///
    /// - Throws: `ioFailure` for a name no store has; the migration's errors, with nothing changed.
    static func migrate(_ name: String, from source: Schema, to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        try entries.withLock { entries in
            guard let entry = entries[name] else {
                throw StrataError(.ioFailure, "There is no memory store named '\(name)' in this process to migrate.", file: name)
            }
            guard entry.recorded.fingerprint == source.fingerprint else {
                throw entry.recorded.mismatch(opening: source, file: name, reason: "The migration starts at another schema than the store holds")
            }
            let next = try rewrite(entry.engine.state)
            try next.requireSchema(destination)
            entries[name] = Entry(engine: RecordEngine(state: next), recorded: RecordedSchema(destination))
        }
    }

    /// Forgets the store `name` (its data is gone once no open store uses it).
    static func remove(_ name: String) {
        _ = entries.withLock { $0.removeValue(forKey: name) }
    }
}
