import Foundation

extension PersistentIdentifier {
    /// The permanent identifier a custom store gives a record it inserts (SwiftData's
    /// `identifier(for:entityName:primaryKey:)`).
    ///
    /// Strata's identifiers carry a 64-bit key. An integer key from 0 to 2⁶² − 1 is used as it is;
    /// any other key (a `UUID`, a `String`, a negative number) is reduced to one by a fixed 62-bit
    /// hash of its `description`, placed from 2⁶² up, so the same key always gives the same
    /// identifier, in every process. Two different keys of one entity colliding is a 2⁻⁶² chance
    /// per pair (about 10⁻⁷ for a million records).
    ///
    /// - Throws: `invalidRequest` for an empty store identifier or entity name.
    public static func identifier<T: Comparable & CustomStringConvertible & Codable & Hashable>(
        for storeIdentifier: String, entityName: String, primaryKey: T
    ) throws -> PersistentIdentifier {
        guard !storeIdentifier.isEmpty, !entityName.isEmpty else {
            throw StrataError(.invalidRequest, "A permanent identifier needs a store identifier and an entity name.", entity: entityName)
        }
        return PersistentIdentifier(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: storeKey(primaryKey))
    }

    /// The 64-bit key for a custom store's primary key (see `identifier(for:entityName:primaryKey:)`).
    static func storeKey<T: CustomStringConvertible>(_ primaryKey: T) -> Int64 {
        let hashedFloor: Int64 = 1 << 62
        if let n = primaryKey as? any BinaryInteger, let key = Int64(exactly: n), key >= 0, key < hashedFloor { return key }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        for byte in primaryKey.description.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hashedFloor | Int64(hash & UInt64(hashedFloor - 1))
    }
}
