import CSQLite

/// The bytes of the text and blob parameters a statement binds without SQLite copying them
/// (`SQLITE_STATIC`): one buffer per parameter, owned by the statement and reused run after run.
///
/// SQLite reads static bytes until the parameter is bound again, cleared or the statement is
/// finalized, not only during `sqlite3_step`. A buffer here outlives all three: it is overwritten
/// only by the next value bound to its parameter, grown only after that parameter was set to NULL,
/// and freed with the statement, after `sqlite3_finalize` (stored properties go after `deinit`).
///
/// Why: `SQLITE_TRANSIENT` makes SQLite allocate a copy of every value at each bind and free it at
/// the next, the largest part of a row's insert over raw C (docs/benchmarks.md, "Sixth round");
/// copying into a buffer kept here is one `memcpy`. A value over `largest` bytes is left to
/// SQLite's own copy, so a statement never keeps a large buffer alive.
struct SQLiteParameterBytes: ~Copyable {
    /// Per parameter, from 1 at offset 0, its buffer (empty until first needed); `nil` until the
    /// statement's first text or blob.
    private var buffers: UnsafeMutableBufferPointer<UnsafeMutableRawBufferPointer>?

    /// The largest value copied here; a longer one is bound `SQLITE_TRANSIENT`.
    static let largest = 4096

    init() {}

    deinit {
        guard let buffers else { return }
        for buffer in buffers { buffer.deallocate() }
        buffers.deallocate()
    }

    /// Binds `bytes` to parameter `index` of `handle` as text (UTF-8) or a blob, static, from this
    /// parameter's buffer. Returns SQLite's result code, or `nil` when the value is not held here
    /// (over `largest`, `index` out of the statement's range, or a statement still running, whose
    /// bytes must not change under it): the caller binds it transient, and SQLite refuses or copies.
    mutating func bind(_ bytes: UnsafeRawBufferPointer, at index: Int32, text: Bool, in handle: OpaquePointer) -> Int32? {
        guard bytes.count <= Self.largest, sqlite3_stmt_busy(handle) == 0 else { return nil }
        if buffers == nil {
            let count = Int(sqlite3_bind_parameter_count(handle))
            let all = UnsafeMutableBufferPointer<UnsafeMutableRawBufferPointer>.allocate(capacity: count)
            _ = all.initialize(repeating: UnsafeMutableRawBufferPointer(start: nil, count: 0))
            buffers = all
        }
        let slot = Int(index) - 1
        guard let buffers, buffers.indices.contains(slot) else { return nil }
        if buffers[slot].count < bytes.count || buffers[slot].baseAddress == nil {
            // SQLite may still point into the old buffer: NULL first, then free it.
            if buffers[slot].baseAddress != nil {
                let rc = sqlite3_bind_null(handle, index)
                guard rc == SQLITE_OK else { return rc }
                buffers[slot].deallocate()
            }
            buffers[slot] = .allocate(byteCount: max(32, bytes.count, buffers[slot].count * 2), alignment: 1)
        }
        let start = buffers[slot].baseAddress!
        if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: bytes.count) }
        return text
            ? sqlite3_bind_text(handle, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
            : sqlite3_bind_blob(handle, index, start, Int32(bytes.count), nil)
    }
}
