import Foundation

/// A custom store that deletes many records at once (SwiftData's `DataStoreBatching`).
///
/// Strata accepts the conformance so SwiftData stores compile, but does not call it yet:
/// `ModelContext.delete(model:where:)` reaches a custom store as a save of the matching records'
/// deletions, which every store handles.
public protocol DataStoreBatching: DataStore {
    /// Deletes the records of `T` that `request.predicate` matches.
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws
}

/// Which records a batch delete removes (SwiftData's `DataStoreBatchDeleteRequest`).
public struct DataStoreBatchDeleteRequest<T: PersistentModel>: @unchecked Sendable {
    /// The editing state of the context deleting.
    public let editingState: EditingState
    /// Whether subclasses of `T` are deleted too.
    public let includeSubclasses: Bool
    /// The records to delete; `nil` for all.
    public let predicate: Predicate<T>?

    init(editingState: EditingState, includeSubclasses: Bool, predicate: Predicate<T>?) {
        self.editingState = editingState
        self.includeSubclasses = includeSubclasses
        self.predicate = predicate
    }
}
