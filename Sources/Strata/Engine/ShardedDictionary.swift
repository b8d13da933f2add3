/// A dictionary split into shards by hash, so a copied state shares all shards but the ones it changes.
///
/// Unique indexes live here. A save that inserts one key into a copied index copies one shard (a
/// 1/1024th of the index) and the shard list, instead of the whole dictionary, which keeps small saves
/// small without a dependency on a persistent-collections package.
struct ShardedDictionary<Key: ShardedKey, Element: Sendable>: Sendable {
    private static var shardCount: Int { 1024 }
    private var shards = [[Key: Element]](repeating: [:], count: 1024)

    private static func shard(_ key: Key) -> Int { key.shard & (shardCount - 1) }

    subscript(key: Key) -> Element? {
        get { shards[Self.shard(key)][key] }
        set { shards[Self.shard(key)][key] = newValue }
    }

    /// Stores `element` under `key` and returns what was there before.
    mutating func updateValue(_ element: Element, forKey key: Key) -> Element? {
        shards[Self.shard(key)].updateValue(element, forKey: key)
    }

    /// Makes room for about `count` more keys spread over the shards, so a bulk insert does not
    /// rehash each shard many times as it grows.
    mutating func reserveCapacity(forAdding count: Int) {
        guard count >= Self.shardCount * 8 else { return }
        let perShard = count / Self.shardCount + count / (Self.shardCount * 4)
        for i in shards.indices { shards[i].reserveCapacity(shards[i].count + perShard) }
    }

    /// The number of keys.
    var count: Int { shards.reduce(0) { $0 + $1.count } }

    /// Visits every key and element (in no particular order).
    func forEach(_ body: (Key, Element) -> Void) {
        for shard in shards { for (key, element) in shard { body(key, element) } }
    }

    /// Checks the sharding (under `STRATA_INTERNAL_CHECKS`; nothing otherwise): `shardCount` shards,
    /// each key in the shard its `shard` bits choose.
    func _checkInvariants() {
        #if STRATA_INTERNAL_CHECKS
        internalInvariant(shards.count == Self.shardCount, "ShardedDictionary: \(shards.count) shards")
        for (i, shard) in shards.enumerated() {
            for key in shard.keys { internalInvariant(Self.shard(key) == i, "ShardedDictionary: a key in shard \(i), its bits choose \(Self.shard(key))") }
        }
        #endif
    }
}

/// A key that already carries well-mixed bits to choose its shard with (so it is not hashed twice).
protocol ShardedKey: Hashable, Sendable {
    var shard: Int { get }
}
