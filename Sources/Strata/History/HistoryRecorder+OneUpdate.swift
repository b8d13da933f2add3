import Foundation

/// The commonest save — one record updated, no relationship changed, nothing else touched —
/// recorded without a recorder: the changed attributes are compared and encoded straight from the
/// record's values before and after, with no `StoreHistoryChange`, attribute list or transaction
/// built and destroyed (about 2,000 instructions of LMDB's update-one with history; docs/history.md,
/// "Cost"). The bytes are those `HistoryRecorder` writes for the same save
/// (`HistoryEncodingTests.oneUpdateWritesWhatTheRecorderWrites`).
extension HistoryRecorder {
    /// Whether an update from `old` to `new` changes a stored attribute (compared as
    /// `updated(_:_:old:new:)` compares them): if not, the save records nothing.
    public static func changesAttributes(_ entity: EntitySchema, old: [Value], new: [Value]) -> Bool {
        for i in entity.attributes.indices where i < old.count && i < new.count && old[i] != new[i] { return true }
        return false
    }

    /// The encoded transaction `number` of a save that updated only the record `key` of `entity`,
    /// from its attributes before and after (no relationship changed), handed to `body`: what
    /// `updated(_:_:old:new:)` and `withEncodedTransaction` write for that save, the record being
    /// the request's own (not store-initiated). With `listingEvery`, every attribute is written,
    /// changed or not (PostgreSQL's one-record update writes placeholders as old values, which the
    /// server's stored old values replace when the transaction is read).
    public static func withEncodedUpdate<R>(
        storeIdentifier: String, _ number: Int64, author: String?, timestamp: Date = Date(),
        _ entity: EntitySchema, _ key: Int64, old: [Value], new: [Value], listingEvery: Bool = false, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        var w = HistoryJSONWriter(capacity: 320)
        defer { w.deallocate() }
        let milliseconds = (timestamp.timeIntervalSince1970 * 1000).rounded(.down)
        w.update(
            token: StoreHistoryToken(storeIdentifier: storeIdentifier, transaction: number), author: author,
            timestamp: Date(timeIntervalSince1970: milliseconds / 1000), entity, key, old: old, new: new, listingEvery: listingEvery)
        return try body(w.written)
    }
}
