import Foundation
import Synchronization

/// Names one record: which store holds it, its entity, and its primary key in that entity.
///
/// A client makes a *temporary* identifier for a record it is about to insert
/// (`PersistentIdentifier.temporary(entity:)`); the store answers with a *permanent* one in the save
/// result's remapping. Permanent identifiers are unique per entity and store, stable across reopen and
/// never reused after a delete. The URI form (`description`) is `strata://<store>/<Entity>/p<key>`
/// for permanent and `strata-temporary://<Entity>/t<key>` for temporary identifiers.
public struct PersistentIdentifier: Sendable, Codable {
    /// The identifier of the store that made it; empty for a temporary identifier.
    public let storeIdentifier: String
    /// The entity the record belongs to.
    public let entityName: String
    /// The store's primary key (permanent) or a process-unique number (temporary).
    public let primaryKey: Int64
    /// Whether the store has not yet assigned this record a permanent identifier.
    public let isTemporary: Bool

    /// Makes a permanent identifier. Backends call this; clients get identifiers from saves and fetches.
    public init(storeIdentifier: String, entityName: String, primaryKey: Int64) {
        self.storeIdentifier = storeIdentifier
        self.entityName = entityName
        self.primaryKey = primaryKey
        self.isTemporary = false
    }

    init(temporaryFor entityName: String, number: Int64) {
        self.storeIdentifier = ""
        self.entityName = entityName
        self.primaryKey = number
        self.isTemporary = true
    }

    private static let counter = Atomic<Int64>(0)

    /// A new random store identifier: 15 lowercase base-36 characters (about 77 bits).
    ///
    /// Fifteen ASCII characters is the most a Swift `String` stores inline, so copying an identifier
    /// (which every fetched snapshot does) costs no reference counting. Backends should use this when
    /// they create a store.
    public static func makeStoreIdentifier() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return String((0..<15).map { _ in alphabet[Int(generator.next() % 36)] })
    }

    /// A new temporary identifier, unique in this process, for a record about to be inserted.
    public static func temporary(entity entityName: String) -> PersistentIdentifier {
        let number = counter.add(1, ordering: .relaxed).newValue
        return PersistentIdentifier(temporaryFor: entityName, number: number)
    }

    /// Parses the URI form written by `description`; `nil` if the text is not one.
    public init?(uri: String) {
        if uri.hasPrefix("strata-temporary://") {
            let parts = uri.dropFirst("strata-temporary://".count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].first == "t", let key = Int64(parts[1].dropFirst()),
                let entity = parts[0].removingPercentEncoding, !entity.isEmpty
            else { return nil }
            self.init(temporaryFor: entity, number: key)
        } else if uri.hasPrefix("strata://") {
            let parts = uri.dropFirst("strata://".count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].first == "p", let key = Int64(parts[2].dropFirst()),
                let store = parts[0].removingPercentEncoding, let entity = parts[1].removingPercentEncoding,
                !store.isEmpty, !entity.isEmpty
            else { return nil }
            self.init(storeIdentifier: store, entityName: entity, primaryKey: key)
        } else {
            return nil
        }
    }
}

extension PersistentIdentifier: Hashable {
    /// Two identifiers are equal when store, entity, key and temporariness all agree.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.isTemporary == rhs.isTemporary
            && lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the key only: cheap (no string hashing on the hot path) and consistent with `==`.
    /// Temporary keys are unique across entities; permanent keys of different entities may share a
    /// hash, which costs a comparison, never a wrong answer.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
    }

    /// The hash a `Dictionary` or `Set` of identifiers asks for: the key and the table's seed mixed
    /// by a 64-bit finalizer (splitmix64's), not a `Hasher` run.
    ///
    /// A `Hasher` (SipHash-1-3) cost about 110 instructions a lookup of one `Int64`: a model-level
    /// fetch hashes every record's identifier into the context's identity map, and a point lookup
    /// into it (callgrind on `StrataPeers --only strata-model --step scan`; docs/benchmarks.md,
    /// "Issue 31"). The key is a store's counter or a process counter, not an attacker's choice;
    /// the seed still differs per table (and per process unless `SWIFT_DETERMINISTIC_HASHING`).
    /// Consistent with `==` as `hash(into:)` is: equal identifiers have equal keys.
    public func _rawHashValue(seed: Int) -> Int {
        var x = UInt64(bitPattern: primaryKey) &+ UInt64(bitPattern: Int64(seed)) &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: x ^ (x &>> 31))
    }
}

extension PersistentIdentifier: Comparable {
    /// Orders by entity name, then primary key: the order `strata dump` and fetches without sort use.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        return lhs.primaryKey < rhs.primaryKey
    }
}

extension PersistentIdentifier: CustomStringConvertible {
    /// What a URI segment keeps unescaped: a path's characters but `/`. Made once per process, not
    /// on every description (Foundation's `urlPathAllowed` and the subtraction, each time).
    private static let segmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    private static func escape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? s
    }

    /// The URI form, readable and parseable by `init?(uri:)`.
    public var description: String {
        isTemporary
            ? "strata-temporary://\(Self.escape(entityName))/t\(primaryKey)"
            : "strata://\(Self.escape(storeIdentifier))/\(Self.escape(entityName))/p\(primaryKey)"
    }
}
