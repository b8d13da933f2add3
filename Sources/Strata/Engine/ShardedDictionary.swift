/// A dictionary split into shards by hash, so a copied state shares all shards but the ones it changes.
///
/// Unique indexes live here. A save that inserts one key into a copied index copies one shard (a
/// 1/128th of the index) and the shard list, instead of the whole dictionary, which keeps small saves
/// small without a dependency on a persistent-collections package.
struct ShardedDictionary<Key: Hashable & Sendable, Element: Sendable>: Sendable {
    private static var shardCount: Int { 128 }
    private var shards = [[Key: Element]](repeating: [:], count: 128)

    private static func shard(_ key: Key) -> Int { key.hashValue & (shardCount - 1) }

    subscript(key: Key) -> Element? {
        get { shards[Self.shard(key)][key] }
        set { shards[Self.shard(key)][key] = newValue }
    }

    /// The number of keys.
    var count: Int { shards.reduce(0) { $0 + $1.count } }
}
