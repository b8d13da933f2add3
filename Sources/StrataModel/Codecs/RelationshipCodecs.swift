/// A codec for a relationship: objects in memory, identifiers in the store, the inverse kept in
/// step on the other objects as soon as one side is set.
public protocol _RelationshipCodec: _PropertyCodec {
    /// The destination model type.
    associatedtype Destination: PersistentModel
    /// Whether the relationship holds many targets.
    static var isToMany: Bool { get }
    /// Whether a to-one may be empty.
    static var isOptional: Bool { get }
    /// The property value for a list of targets.
    static func property(_ targets: [Destination]) -> Property
    /// The targets of a property value.
    static func targets(_ value: Property) -> [Destination]
    /// The first target of a property value: a to-one's target without a one-element array.
    static func firstTarget(_ value: Property) -> Destination?
    /// Whether `value` holds `target` (by identity).
    static func contains(_ value: Property, _ target: Destination) -> Bool
    /// Adds `target` to `value`: appended to a to-many (in place), the target of a to-one.
    static func add(_ target: Destination, to value: inout Property)
    /// Removes `target` from `value` (in place for a to-many) if it holds it.
    static func remove(_ target: Destination, from value: inout Property)
}

extension _RelationshipCodec {
    /// Loads the targets on first access, from the identity map or in one fetch.
    @inlinable
    public static func get<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ owner: M, _ ordinal: Int) -> Property {
        if case .value(let v) = slot.state { return v }
        let v = property(owner.persistentBackingData.loadTargets(ordinal, as: Destination.self))
        slot.state = .value(v)
        return v
    }

    /// Sets the targets; the targets gained and lost are told (and new targets inserted into the
    /// owner's context: the graph of an inserted object is inserted, as in SwiftData) by the
    /// returned effects.
    @inlinable
    public static func set<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ newValue: Property, _ owner: M, _ ordinal: Int) -> _Effects {
        let added: [Destination], removed: [Destination]
        if isToMany {
            (added, removed) = difference(targets(get(&slot, owner, ordinal)), targets(newValue))
        } else {
            // A to-one compares its two targets; no arrays for the old and new values.
            let old = firstTarget(get(&slot, owner, ordinal)), new = firstTarget(newValue)
            if old === new {
                (added, removed) = ([], [])
            } else {
                (added, removed) = (new.map { [$0] } ?? [], old.map { [$0] } ?? [])
            }
        }
        slot.state = .value(newValue)
        let backing = owner.persistentBackingData
        backing.didChange(ordinal, owner: owner)
        var effects = _Effects()
        if let context = backing.context {
            effects.inserts = added.filter { let target = $0.persistentBackingData; return target.context == nil && !target.isDeleted }.map { ($0, context) }
        }
        if !(added.isEmpty && removed.isEmpty), let inverse = backing.inverseOrdinal(ordinal) {
            // One array of the right size, not two mapped arrays concatenated: an allocation and
            // a copy fewer per `item.owner = owner` (`strata-model-bench`'s insert).
            var inverses: [(target: any PersistentModel, ordinal: Int, change: _InverseChange)] = []
            inverses.reserveCapacity(removed.count + added.count)
            for target in removed { inverses.append((target, inverse, .remove(owner))) }
            for target in added { inverses.append((target, inverse, .add(owner))) }
            effects.inverses = inverses
        }
        return effects
    }

    /// The value for a save.
    @inlinable
    public static func encode(_ slot: _PersistedProperty<Property>) -> _PropertyValue {
        guard case .value(let v) = slot.state else { return .stored }
        return isToMany ? .toMany(targets(v)) : .toOne(firstTarget(v))
    }

    /// Relationships are not assigned from stored values.
    public static func assign<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ value: Value, _ owner: M, _ ordinal: Int) throws {}

    /// This object's side of a change made on the other side: gain or lose `source`.
    ///
    /// The loaded value is taken out of the slot while it changes, so a to-many array is appended
    /// to or shortened in place instead of copied: filling an owner's list one `item.owner = owner`
    /// at a time stays linear. A new object (never saved) is appended without first looking for it
    /// in the list: it can only be listed where its own side points, and its side pointed
    /// elsewhere (the setter sends `.add` once, and only for a target it did not have; see
    /// `difference`). A saved object is looked for, since the list may come from the store.
    @inlinable
    public static func inverse<M: PersistentModel>(_ slot: inout _PersistedProperty<Property>, _ change: _InverseChange, _ owner: M, _ ordinal: Int) -> _Effects {
        var value = get(&slot, owner, ordinal)
        slot.state = .fault  // the slot's reference goes, so `value` is the array's only owner
        defer { slot.state = .value(value) }
        var effects = _Effects()
        switch change {
        case .add(let source):
            guard let source = source as? Destination else { return effects }
            // Each object's backing data read once: `persistentBackingData` is a computed
            // property, each read a retain and a release (docs/benchmarks.md, "Issue 31, session 13").
            let sourceBacking = source.persistentBackingData, ownerBacking = owner.persistentBackingData
            if isToMany && sourceBacking.isNew {
                // Not listed: see above.
            } else if contains(value, source) {
                return effects
            }
            // A new object pointing at a registered one joins its context (`Item(trip: trip)`).
            if let context = ownerBacking.context, sourceBacking.context == nil, !sourceBacking.isDeleted {
                effects.inserts = [(source, context)]
            }
            if !isToMany, let previous = firstTarget(value), let back = ownerBacking.inverseOrdinal(ordinal) {
                // A to-one moves: its previous target loses this object.
                effects.inverses = [(previous, back, .remove(owner))]
            }
            add(source, to: &value)
        case .remove(let source):
            // A required to-one keeps its target in memory; the save reports the empty relationship.
            guard isToMany || isOptional, let source = source as? Destination else { return effects }
            remove(source, from: &value)
        }
        return effects
    }

    /// The first target, through `targets` (the to-one codecs answer without an array).
    @inlinable
    public static func firstTarget(_ value: Property) -> Destination? { targets(value).first }

    /// Whether `value` holds `target` (by identity).
    @inlinable
    public static func contains(_ value: Property, _ target: Destination) -> Bool {
        if !isToMany { return firstTarget(value) === target }
        return targets(value).contains { $0 === target }
    }

    /// Adds `target`: appended to a to-many, the new target of a to-one.
    @inlinable
    public static func add(_ target: Destination, to value: inout Property) {
        value = property([target])
    }

    /// Removes `target` if held (the first occurrence of a to-many).
    @inlinable
    public static func remove(_ target: Destination, from value: inout Property) {
        var list = targets(value)
        guard let index = list.firstIndex(where: { $0 === target }) else { return }
        list.remove(at: index)
        value = property(list)
    }

    /// The schema description (what `@Model`'s `schemaMetadata` lists). `initial` is the
    /// property's initializer (`= []`), which the macro passes for every property; a relationship
    /// starts empty in stored records, so it is not used.
    public static func describe(
        _ name: String, ordinal: Int, initial: (() -> Property)? = nil, _ options: ModelRelationshipOption..., deleteRule: DeleteRule = .nullify,
        minimumModelCount: Int? = nil, maximumModelCount: Int? = nil, originalName: String? = nil,
        inverse: PartialKeyPath<Destination>? = nil, hashModifier: String? = nil
    ) -> ModelPropertyMetadata {
        let relationship = ModelRelationshipMetadata(
            destination: Destination.self, isToMany: isToMany, isOptional: isOptional, deleteRule: deleteRule,
            minimumCount: minimumModelCount.flatMap { $0 > 0 ? $0 : nil }, maximumCount: maximumModelCount.flatMap { $0 > 0 ? $0 : nil },
            inverseName: inverse.flatMap { Destination.propertyName(for: $0) }, inverseGiven: inverse != nil,
            isUnique: options.contains(.unique))
        return ModelPropertyMetadata(name: name, ordinal: ordinal, originalName: originalName, hashModifier: hashModifier, kind: .relationship(relationship))
    }

    /// Targets added and removed, by identity; the common append-one case costs one comparison per
    /// element. A target is in `added` once, and only if `old` did not hold it: `inverse` relies on
    /// that to append a new object without looking for it first.
    @inlinable
    static func difference(_ old: [Destination], _ new: [Destination]) -> (added: [Destination], removed: [Destination]) {
        if new.count == old.count + 1, let last = new.last, zip(old, new).allSatisfy({ $0 === $1 }), !old.contains(where: { $0 === last }) {
            return ([last], [])
        }
        let oldSet = Set(old.map(ObjectIdentifier.init))
        var newSet = Set<ObjectIdentifier>()
        var added: [Destination] = []
        for target in new where newSet.insert(ObjectIdentifier(target)).inserted && !oldSet.contains(ObjectIdentifier(target)) {
            added.append(target)
        }
        return (added, old.filter { !newSet.contains(ObjectIdentifier($0)) })
    }
}

/// A required to-one relationship (`var trip: Trip`).
public enum _ToOneCodec<D: PersistentModel>: _RelationshipCodec {
    /// The declared Swift type.
    public typealias Property = D
    /// The destination model type.
    public typealias Destination = D
    /// Whether it holds many targets.
    @inlinable public static var isToMany: Bool { false }
    /// Whether `nil` (or no target) is allowed.
    @inlinable public static var isOptional: Bool { false }
    /// The property value for a list of targets.
    @inlinable public static func property(_ targets: [D]) -> D {
        guard let first = targets.first else {
            preconditionFailure("A required relationship to \(D.self) has no target in the store (deleted with noAction, or written by a schema without the requirement).")
        }
        return first
    }
    /// The targets of a property value.
    @inlinable public static func targets(_ value: D) -> [D] { [value] }
    /// The target itself.
    @inlinable public static func firstTarget(_ value: D) -> D? { value }
}

/// An optional to-one relationship (`var trip: Trip?`).
public enum _OptionalToOneCodec<D: PersistentModel>: _RelationshipCodec {
    /// The declared Swift type.
    public typealias Property = D?
    /// The destination model type.
    public typealias Destination = D
    /// Whether it holds many targets.
    @inlinable public static var isToMany: Bool { false }
    /// Whether `nil` (or no target) is allowed.
    @inlinable public static var isOptional: Bool { true }
    /// The property value for a list of targets.
    @inlinable public static func property(_ targets: [D]) -> D? { targets.first }
    /// The targets of a property value.
    @inlinable public static func targets(_ value: D?) -> [D] { value.map { [$0] } ?? [] }
    /// The target itself.
    @inlinable public static func firstTarget(_ value: D?) -> D? { value }
}

/// A to-many relationship (`var items: [Item]`).
public enum _ToManyCodec<D: PersistentModel>: _RelationshipCodec {
    /// The declared Swift type.
    public typealias Property = [D]
    /// The destination model type.
    public typealias Destination = D
    /// Whether it holds many targets.
    @inlinable public static var isToMany: Bool { true }
    /// Whether `nil` (or no target) is allowed.
    @inlinable public static var isOptional: Bool { true }
    /// The property value for a list of targets.
    @inlinable public static func property(_ targets: [D]) -> [D] { targets }
    /// The targets of a property value.
    @inlinable public static func targets(_ value: [D]) -> [D] { value }
    /// Whether the list holds `target`, compared by identity.
    @inlinable public static func contains(_ value: [D], _ target: D) -> Bool {
        let wanted = ObjectIdentifier(target)
        return value.contains { ObjectIdentifier($0) == wanted }
    }
    /// Appends `target`, in place.
    @inlinable public static func add(_ target: D, to value: inout [D]) { value.append(target) }
    /// Removes the first occurrence of `target`, in place.
    @inlinable public static func remove(_ target: D, from value: inout [D]) {
        let wanted = ObjectIdentifier(target)
        if let index = value.firstIndex(where: { ObjectIdentifier($0) == wanted }) { value.remove(at: index) }
    }
}
