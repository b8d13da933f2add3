import Foundation

extension ModelContext {
    /// SwiftData's `delete(model:where:includeSubclasses:)`: deletes every record of `T` matching
    /// `predicate` (all of them when `nil`), as `delete(model:where:)` does.
    ///
    /// `includeSubclasses` has no effect: model inheritance is not supported, so a model type has
    /// no subclasses whose records could be left out (docs/models.md, "Known limits").
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool) throws {
        if let predicate {
            try delete(model: model, where: predicate)
        } else {
            try delete(model: model, where: nil as FetchPredicate?)
        }
    }

    /// SwiftData's `enumerate(_:batchSize:allowEscapingMutations:block:)`: calls `block` with each
    /// matching object, as `enumerate(_:batchSize:block:)` does.
    ///
    /// Changes the block makes always escape — the changed objects stay registered for the next
    /// save — whatever `allowEscapingMutations` says; SwiftData refuses them when it is `false`.
    public func enumerate<T: PersistentModel>(_ fetch: FetchDescriptor<T>, batchSize: Int = 5_000, allowEscapingMutations: Bool, block: (T) throws -> Void) throws {
        try enumerate(fetch, batchSize: batchSize, block: block)
    }
}
