import Synchronization

extension RecordedSchema {
    /// `RecordedSchema(schema).encoded()`, kept for the schemas encoded lately.
    ///
    /// A JSON or XML store writes its schema record into every document it writes — on each fold
    /// of its journal, which a store configured with `journalThreshold: 0` does on every save.
    /// Encoding the record goes through Foundation's `JSONEncoder` and `JSONSerialization` and
    /// builds the canonical description; for a small store that costs more than its records. The
    /// bytes depend only on the declarations and the version, so they are kept by those: not by
    /// the fingerprint, which leaves out what migration does not compare (`originalName`).
    public static func encoded(_ schema: Schema) -> [UInt8] {
        let key = EncodingKey(declarations: schema.entities.map(\.declaration), version: schema.version)
        if let bytes = encodings.withLock({ $0[key] }) { return bytes }
        let bytes = RecordedSchema(schema).encoded()
        encodings.withLock { cache in
            if cache.count >= maximumKeptEncodings { cache.removeAll(keepingCapacity: true) }
            cache[key] = bytes
        }
        return bytes
    }

    /// What an encoded record depends on.
    private struct EncodingKey: Hashable, Sendable {
        var declarations: [Entity]
        var version: Schema.Version
    }

    /// How many encodings are kept: a process opens stores of a few schemas (more in a migration
    /// plan's tests); past this the cache starts again rather than grow.
    private static let maximumKeptEncodings = 16

    private static let encodings = Mutex<[EncodingKey: [UInt8]]>([:])
}
