import Synchronization

/// What the model layer derives once per model type: positions of each property in the entity's
/// attribute and relationship arrays, and the inverse of each relationship.
///
/// Shared by every object of the type (each object's backing data points at it), built on first
/// use and kept for the process. Inverses are resolved on first need, not at construction, since
/// two types that point at each other need each other's descriptions.
final class ModelTypeInfo: @unchecked Sendable {
    let type: any PersistentModel.Type
    /// `ObjectIdentifier(type)`, what `of` compares.
    let typeID: ObjectIdentifier
    let entityName: String
    let properties: [ModelPropertyMetadata]
    let constraints: ModelConstraints
    /// Per ordinal, the index in the entity's attributes (nil for a relationship).
    let attributeIndex: [Int?]
    /// Per ordinal, the index in the entity's relationships (nil for an attribute).
    let relationshipIndex: [Int?]
    /// Per attribute index, the ordinal; per relationship index, the ordinal.
    let attributeOrdinals: [Int]
    let relationshipOrdinals: [Int]
    /// The attributes whose stored values may not fit the Swift type (enums, documents, narrow
    /// integers), with their index in the entity's attributes: what a fetched record is checked for.
    let checkedAttributes: [(index: Int, name: String, check: (Value) throws -> Void)]
    private let ordinalsByName: [String: Int]
    /// Per ordinal, the inverse's ordinal on the destination (`-1`: one-way), resolved lazily.
    private let inverses = Mutex<[Int: Int]>([:])

    private init(_ type: any PersistentModel.Type) {
        self.type = type
        self.typeID = ObjectIdentifier(type)
        self.entityName = type.entityName
        self.properties = type.schemaMetadata
        self.constraints = type.schemaConstraints
        var attributeIndex: [Int?] = [], relationshipIndex: [Int?] = []
        var attributeOrdinals: [Int] = [], relationshipOrdinals: [Int] = []
        for (ordinal, p) in properties.enumerated() {
            switch p.kind {
            case .attribute:
                attributeIndex.append(attributeOrdinals.count)
                relationshipIndex.append(nil)
                attributeOrdinals.append(ordinal)
            case .relationship:
                attributeIndex.append(nil)
                relationshipIndex.append(relationshipOrdinals.count)
                relationshipOrdinals.append(ordinal)
            }
        }
        self.attributeIndex = attributeIndex
        self.relationshipIndex = relationshipIndex
        self.attributeOrdinals = attributeOrdinals
        self.relationshipOrdinals = relationshipOrdinals
        let properties = self.properties
        self.checkedAttributes = properties.indices.compactMap { ordinal in
            guard let check = properties[ordinal].storedValueCheck, let index = attributeIndex[ordinal] else { return nil }
            return (index, properties[ordinal].name, check)
        }
        self.ordinalsByName = Dictionary(properties.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Every description built, kept for the process.
    private static let cache = Mutex<[ObjectIdentifier: ModelTypeInfo]>([:])
    /// The description looked up last, compared before the lock is taken: every object made looks
    /// its type up (`ModelBackingData.init`), and a fetch makes thousands of one type in a row.
    /// Unretained: every description stays in `cache` for the process (taking the lock on every
    /// object cost about 100 instructions of a model-level scan's; docs/benchmarks.md, "Issue 31").
    private static let last = Atomic<Unmanaged<ModelTypeInfo>?>(nil)

    /// The description of `type`, built on first use.
    static func of(_ type: any PersistentModel.Type) -> ModelTypeInfo {
        let key = ObjectIdentifier(type)
        if let last = last.load(ordering: .acquiring), last._withUnsafeGuaranteedRef({ $0.typeID == key }) {
            return last.takeUnretainedValue()
        }
        let known: ModelTypeInfo? = cache.withLock { $0[key] }
        let kept: ModelTypeInfo
        if let known {
            kept = known
        } else {
            let info = ModelTypeInfo(type)  // built outside the lock: it may describe other types
            kept = cache.withLock { cache in
                let kept = cache[key] ?? info
                cache[key] = kept
                return kept
            }
        }
        last.store(Unmanaged.passUnretained(kept), ordering: .releasing)
        return kept
    }

    /// The ordinal of the property with this name.
    func ordinal(named name: String) -> Int? { ordinalsByName[name] }

    /// The inverse of relationship `ordinal` on the destination type, or `nil` for a one-way relationship.
    func inverseOrdinal(_ ordinal: Int) -> Int? {
        if let known = inverses.withLock({ $0[ordinal] }) { return known < 0 ? nil : known }
        let resolved = (try? partner(of: ordinal))?.map { $0.ordinal } ?? nil
        inverses.withLock { $0[ordinal] = resolved ?? -1 }
        return resolved
    }

    /// The destination's relationship paired with relationship `ordinal`: the one `inverse:` names
    /// on either side, or — when neither side names one — the only relationship each type has to
    /// the other. `nil`: one-way.
    ///
    /// - Throws: `invalidSchema` when `inverse:` names nothing, or the two sides name different partners.
    func partner(of ordinal: Int) throws -> (info: ModelTypeInfo, ordinal: Int)? {
        guard let mine = properties[ordinal].relationship else { return nil }
        let destination = ModelTypeInfo.of(mine.destination)
        let name = properties[ordinal].name
        if mine.inverseGiven {
            guard let inverseName = mine.inverseName, let q = destination.ordinal(named: inverseName),
                  let theirs = destination.properties[q].relationship, theirs.destination == type
            else {
                throw StrataError(.invalidSchema, "The inverse of \(entityName).\(name) is not a relationship of \(destination.entityName) pointing back at \(entityName).", entity: entityName, properties: [name])
            }
            if theirs.inverseGiven, theirs.inverseName != name {
                throw StrataError(.invalidSchema, "\(entityName).\(name) and \(destination.entityName).\(inverseName) name different inverses.", entity: entityName, properties: [name])
            }
            return (destination, q)
        }
        let naming = destination.properties.indices.filter { q in
            guard let theirs = destination.properties[q].relationship, theirs.destination == type, theirs.inverseGiven else { return false }
            return theirs.inverseName == name
        }
        if let q = naming.first { return (destination, q) }
        // Neither side names an inverse: pair the only relationship each way (not for a type's
        // relationships to itself, where two of them are usually two different roles).
        guard mine.destination != type else { return nil }
        let mineToThem = relationshipOrdinals.filter { properties[$0].relationship!.destination == mine.destination && !properties[$0].relationship!.inverseGiven }
        let theirsToMe = destination.relationshipOrdinals.filter { destination.properties[$0].relationship!.destination == type && !destination.properties[$0].relationship!.inverseGiven }
        guard mineToThem == [ordinal], theirsToMe.count == 1 else { return nil }
        let q = theirsToMe[0]
        // Only if the other side is not claimed by some other relationship's explicit inverse.
        let claimed = relationshipOrdinals.contains { properties[$0].relationship!.inverseName == destination.properties[q].name && properties[$0].relationship!.destination == mine.destination }
        return claimed ? nil : (destination, q)
    }
}
