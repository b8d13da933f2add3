/// SwiftData's snapshot protocol: a `Codable`, `Sendable` copy of one record's values, what the
/// framework and a custom `DataStore` exchange.
///
/// Most stores use `DefaultSnapshot`. A store with its own snapshot type is read and written by
/// the framework through `Codable`, in `DefaultSnapshot`'s coding (see `DefaultSnapshot`); SwiftData's
/// `init(from:relatedBackingDatas:)`, which builds a snapshot from a model's backing data, is not
/// part of Strata's protocol because Strata's backing data is not SwiftData's.
public protocol DataStoreSnapshot: Codable, Sendable {
    /// The record's identifier: temporary for an insert, permanent once the store assigned one.
    var persistentIdentifier: PersistentIdentifier { get }
    /// A copy under another identifier, with every identifier it holds that `remappedIdentifiers`
    /// lists replaced (a store turns inserted snapshots into permanent ones with it).
    func copy(persistentIdentifier: PersistentIdentifier, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]?) -> Self
}

extension DataStoreSnapshot {
    /// A copy under another identifier, references unchanged: what WWDC24's sample store calls on
    /// every inserted snapshot (`snapshot.copy(persistentIdentifier: permanentIdentifier)`).
    public func copy(persistentIdentifier: PersistentIdentifier) -> Self {
        copy(persistentIdentifier: persistentIdentifier, remappedIdentifiers: nil)
    }
}
