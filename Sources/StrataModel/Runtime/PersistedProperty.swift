/// The storage behind one persisted property of a model (the `_name` peer `@Model` generates):
/// the value, or "not loaded" for a fetched object whose property was not read yet.
///
/// The members the generated code calls are inlinable, so they compile into the model's own
/// module for its concrete types (a fetched object sets every slot to `fault`: called through
/// unspecialized generic code, several times the cost of a slot; `strata-model-bench`'s scan).
public struct _PersistedProperty<Value> {
    @usableFromInline enum State {
        case value(Value)
        case fault
    }

    @usableFromInline var state: State

    /// A loaded value (what the init accessor stores).
    @inlinable public init(_ value: Value) { state = .value(value) }
    @inlinable init(fault: ()) { state = .fault }

    /// Not loaded: the next read takes the stored record's value.
    @inlinable public static var fault: Self { Self(fault: ()) }

    /// Forgets the loaded value.
    @inlinable public mutating func refault() { state = .fault }

    /// The loaded value, if any.
    var loaded: Value? {
        if case .value(let v) = state { return v }
        return nil
    }
}

/// One property's value as a save needs it.
public enum _PropertyValue {
    /// Not loaded, so unchanged: the stored value stands.
    case stored
    /// An attribute's value.
    case attribute(Value)
    /// A to-one relationship's target.
    case toOne((any PersistentModel)?)
    /// A to-many relationship's targets, in order.
    case toMany([any PersistentModel])
    /// An attribute's value that cannot be stored: a `Codable` value whose `encode(to:)` threw
    /// (the encoder's error, described). A save of it fails with `typeMismatch` naming the
    /// property; nothing is stored in its place.
    case unencodable(String)
}

/// The other side of a relationship change, applied to the target object.
public enum _InverseChange {
    /// The source now points at this object: add it (to-many) or set it (to-one).
    case add(any PersistentModel)
    /// The source no longer points at this object.
    case remove(any PersistentModel)
}

/// Applies the other side of a relationship change to `target`, noting it in its context first
/// (an inverse is not the target's own change, but `rollback` must still undo it).
func applyInverse(_ target: any PersistentModel, _ ordinal: Int, _ change: _InverseChange) {
    let backing = target.persistentBackingData
    if !backing.isNew, let context = backing.context { context.noteInverseChange(target) }
    target._$inverse(ordinal, change)
}

/// What a property write must still do to other objects once the write is over: the other
/// side of relationship changes, and inserting new objects into the owner's context.
///
/// Returned by the codecs and applied by the generated accessors after the slot is written, so
/// a chain of inverse updates that comes back to the first object never finds its slot in use.
public struct _Effects {
    @usableFromInline var inverses: [(target: any PersistentModel, ordinal: Int, change: _InverseChange)] = []
    @usableFromInline var inserts: [(model: any PersistentModel, context: ModelContext)] = []

    /// Nothing to do.
    @inlinable public init() {}

    /// Applies the inverse changes, then the inserts.
    public func apply() {
        for (target, ordinal, change) in inverses { applyInverse(target, ordinal, change) }
        for (model, context) in inserts { context.insertGraph(model) }
    }
}
