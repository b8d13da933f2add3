/// The permanent identifiers a save gave its inserts, looked up by the temporary ones.
///
/// Reads like a dictionary (`result.remappedIdentifiers[temporary]`), but is stored as two arrays in
/// insert order plus a small index by temporary key: a save of 100,000 records builds it several
/// times faster than a `[PersistentIdentifier: PersistentIdentifier]` with 96-byte entries, and the
/// order of the inserts is kept. `dictionary` gives a plain dictionary when one is needed.
///
/// The index: temporary keys come from one process-wide counter, so a request built in one go
/// carries them ascending, mostly consecutive. While they ascend the index is a list of runs of
/// consecutive keys (one or a few for a whole request; a lookup is a binary search over them, an
/// insert extends the last run — no hashing); the first key that does not ascend turns it into a
/// dictionary by key.
public struct IdentifierRemapping: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The temporary identifiers, in insert order.
    public private(set) var temporaryIdentifiers: [PersistentIdentifier] = []
    /// The permanent identifiers, at the same positions.
    public private(set) var permanentIdentifiers: [PersistentIdentifier] = []
    /// While keys ascend: runs of consecutive keys at consecutive positions, ascending.
    private var runs: [Run] = []
    /// Once a key did not ascend: temporary key → position. Temporary keys are unique in a process
    /// unless someone parses hand-written URIs; those rare clashes go to `clashes`.
    private var positions: [Int64: Int]?
    private var clashes: [PersistentIdentifier: Int] = [:]

    /// Keys `first ..< first + count` at positions `position ..< position + count`.
    private struct Run: Sendable {
        var first: Int64
        var position: Int
        var count: Int
    }

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
        positions?.reserveCapacity(count)
    }

    /// Adds a pair; returns `false` (and changes nothing) if `temporary` is already mapped.
    @discardableResult
    public mutating func insert(_ permanent: consuming PersistentIdentifier, for temporary: consuming PersistentIdentifier) -> Bool {
        let key = temporary.primaryKey
        let position = temporaryIdentifiers.count
        if positions == nil {
            if let last = runs.last {
                if key == last.first &+ Int64(last.count) {
                    runs[runs.count - 1].count += 1
                } else if key > last.first &+ Int64(last.count) {
                    runs.append(Run(first: key, position: position, count: 1))
                } else {
                    makeDictionary()
                }
            } else {
                runs.append(Run(first: key, position: position, count: 1))
            }
        }
        if positions != nil, let p = positions!.updateValue(position, forKey: key) {
            positions![key] = p  // keep the first holder of this key
            if temporaryIdentifiers[p] == temporary || clashes[copy temporary] != nil { return false }
            clashes[copy temporary] = position
        }
        temporaryIdentifiers.append(temporary)
        permanentIdentifiers.append(permanent)
        return true
    }

    /// Turns the runs into a dictionary by key (keys stopped ascending).
    private mutating func makeDictionary() {
        var index: [Int64: Int] = [:]
        index.reserveCapacity(temporaryIdentifiers.count * 2)
        for run in runs {
            for i in 0..<run.count { index[run.first + Int64(i)] = run.position + i }
        }
        runs = []
        positions = index
    }

    /// The position of the first pair with temporary key `key`, if any.
    private func position(_ key: Int64) -> Int? {
        if let positions { return positions[key] }
        var low = 0
        var high = runs.count
        while low < high {
            let mid = (low + high) >> 1
            if runs[mid].first <= key { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let run = runs[low - 1]
        let offset = key &- run.first
        return offset < Int64(run.count) ? run.position + Int(offset) : nil
    }

    /// The permanent identifier of `temporary`, or `nil` if this save did not insert it.
    public subscript(_ temporary: PersistentIdentifier) -> PersistentIdentifier? {
        if let p = position(temporary.primaryKey), temporaryIdentifiers[p] == temporary { return permanentIdentifiers[p] }
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
