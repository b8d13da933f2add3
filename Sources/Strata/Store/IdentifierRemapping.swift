/// The permanent identifiers a save gave its inserts, looked up by the temporary ones.
///
/// Reads like a dictionary (`result.remappedIdentifiers[temporary]`), but is stored as two arrays in
/// insert order plus a small index by temporary key: a save of 100,000 records builds it several
/// times faster than a `[PersistentIdentifier: PersistentIdentifier]` with 96-byte entries, and the
/// order of the inserts is kept. `dictionary` gives a plain dictionary when one is needed.
public struct IdentifierRemapping: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The temporary identifiers, in insert order.
    public private(set) var temporaryIdentifiers: [PersistentIdentifier] = []
    /// The permanent identifiers, at the same positions.
    public private(set) var permanentIdentifiers: [PersistentIdentifier] = []
    /// Temporary key → position. Temporary keys are unique in a process unless someone parses
    /// hand-written URIs; those rare clashes go to `clashes`.
    private var positions: [Int64: Int] = [:]
    private var clashes: [PersistentIdentifier: Int] = [:]

    /// An empty remapping.
    public init() {}

    /// A remapping from pairs.
    public init(dictionaryLiteral elements: (PersistentIdentifier, PersistentIdentifier)...) {
        for (t, p) in elements { insert(p, for: t) }
    }

    /// A remapping from a dictionary (pairs in the dictionary's order).
    public init(_ dictionary: [PersistentIdentifier: PersistentIdentifier]) {
        for (t, p) in dictionary { insert(p, for: t) }
    }

    /// Makes room for `count` pairs.
    public mutating func reserveCapacity(_ count: Int) {
        temporaryIdentifiers.reserveCapacity(count)
        permanentIdentifiers.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    /// Adds a pair; returns `false` (and changes nothing) if `temporary` is already mapped.
    @discardableResult
    public mutating func insert(_ permanent: PersistentIdentifier, for temporary: PersistentIdentifier) -> Bool {
        if let p = positions.updateValue(temporaryIdentifiers.count, forKey: temporary.primaryKey) {
            positions[temporary.primaryKey] = p  // keep the first holder of this key
            if temporaryIdentifiers[p] == temporary || clashes[temporary] != nil { return false }
            clashes[temporary] = temporaryIdentifiers.count
        }
        temporaryIdentifiers.append(temporary)
        permanentIdentifiers.append(permanent)
        return true
    }

    /// The permanent identifier of `temporary`, or `nil` if this save did not insert it.
    public subscript(_ temporary: PersistentIdentifier) -> PersistentIdentifier? {
        if let p = positions[temporary.primaryKey], temporaryIdentifiers[p] == temporary { return permanentIdentifiers[p] }
        return clashes[temporary].map { permanentIdentifiers[$0] }
    }

    /// Adds every pair of `other` that is not mapped yet.
    public mutating func merge(_ other: IdentifierRemapping) {
        for (t, p) in other { insert(p, for: t) }
    }

    /// The number of pairs.
    public var count: Int { temporaryIdentifiers.count }
    /// Whether there are no pairs.
    public var isEmpty: Bool { temporaryIdentifiers.isEmpty }

    /// The pairs as a dictionary.
    public var dictionary: [PersistentIdentifier: PersistentIdentifier] {
        Dictionary(uniqueKeysWithValues: zip(temporaryIdentifiers, permanentIdentifiers))
    }

    /// The pairs `(temporary, permanent)` in insert order.
    public func makeIterator() -> Zip2Sequence<[PersistentIdentifier], [PersistentIdentifier]>.Iterator {
        zip(temporaryIdentifiers, permanentIdentifiers).makeIterator()
    }

    /// `[temporary: permanent, …]`.
    public var description: String { dictionary.description }
}
