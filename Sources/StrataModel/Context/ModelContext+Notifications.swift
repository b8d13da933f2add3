import Foundation

extension ModelContext {
    /// Posted on `NotificationCenter.default` when a context is about to save pending inserts,
    /// changes and deletes (only when it has some); the object is the context, with no `userInfo`.
    public static let willSave = Notification.Name("ModelContext.willSave")

    /// Posted on `NotificationCenter.default` when a context has saved; the object is the context and
    /// the `userInfo` holds `[PersistentIdentifier]` arrays under `NotificationKey.insertedIdentifiers`,
    /// `.updatedIdentifiers` and `.deletedIdentifiers` (their `rawValue`s), with the permanent
    /// identifiers of what the save inserted, updated (records the store changed on its own, such
    /// as maintained inverses, included) and deleted (cascades included).
    public static let didSave = Notification.Name("ModelContext.didSave")

    /// The keys of a context notification's `userInfo` (use `rawValue`).
    ///
    /// Strata posts `insertedIdentifiers`, `updatedIdentifiers` and `deletedIdentifiers`;
    /// `invalidatedAllIdentifiers` and `queryGeneration` exist for source compatibility and are
    /// never posted (no store invalidates a context's objects wholesale, and stores have no query
    /// generations).
    public enum NotificationKey: String, Sendable, Hashable, CaseIterable {
        /// The identifiers of the models the save inserted.
        case insertedIdentifiers
        /// The identifiers of the models the save updated.
        case updatedIdentifiers
        /// The identifiers of the models the save deleted.
        case deletedIdentifiers
        /// The identifiers of invalidated models (never posted).
        case invalidatedAllIdentifiers
        /// The store generation after the save (never posted).
        case queryGeneration
    }

    /// Posts `didSave` for a committed save.
    func postDidSave(_ changes: ModelChanges) {
        NotificationCenter.default.post(name: ModelContext.didSave, object: self, userInfo: [
            NotificationKey.insertedIdentifiers.rawValue: changes.inserted,
            NotificationKey.updatedIdentifiers.rawValue: changes.updated,
            NotificationKey.deletedIdentifiers.rawValue: changes.deleted,
        ])
    }
}
