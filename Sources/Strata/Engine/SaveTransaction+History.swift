import Foundation

/// How the shared engine records a save's history: from the difference between the state before
/// and the state after, so cascades, nullified inverses and reordered lists are in it too.
extension SaveTransaction {
    /// Adds the save's transaction to `work.history` (nothing when the save changed no stored value).
    mutating func recordHistory(_ changes: ChangeSet, requested: Set<PersistentIdentifier>, author: String?) {
        var recorder = HistoryRecorder(storeIdentifier: base.storeIdentifier, requested: requested)
        recorder.reserveInserts(changes.inserted.reduce(0) { $0 + $1.count })
        for entity in entities {
            let e = entity.index
            for key in changes.inserted[e] { recorder.inserted(entity, key) }
            for key in changes.updated[e].sorted() {
                guard let old = base.record(entity, key), let new = work.record(entity, key) else { continue }
                recorder.updated(
                    entity, key, old: (old.attributes, base.relationshipValues(entity, old)),
                    new: (new.attributes, work.relationshipValues(entity, new)))
            }
            for key in changes.deleted[e].sorted() {
                if let old = base.record(entity, key) { recorder.deleted(entity, key, attributes: old.attributes) }
            }
        }
        guard !recorder.isEmpty else { return }
        work.history.append(recorder.transaction(base.history.lastTransaction + 1, author: author))
    }
}
