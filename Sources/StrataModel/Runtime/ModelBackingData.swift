/// What every model object carries besides its values: identifier, context, the stored state it
/// was loaded from, and which properties were set since.
///
/// The stored snapshot serves three purposes: properties load lazily from it (a fetch makes no
/// decoding work for properties nobody reads), a save sends it with only the changed properties
/// replaced and listed (so another context's changes to other properties survive), and rollback
/// restores from it.
public final class ModelBackingData {
    /// The record's identifier (temporary until saved).
    ///
    /// The backing data is used on its context's thread only and never accessed overlapping, so
    /// the two properties every fetched object sets skip Swift's run-time exclusivity check
    /// (most of an access's cost; callgrind on `strata-model-bench`'s model-level scan).
    #if STRATA_INTERNAL_CHECKS  // debug builds keep the run-time check (docs/architecture.md, "Internal checks")
    public internal(set) var persistentModelID: PersistentIdentifier
    #else
    @exclusivity(unchecked) public internal(set) var persistentModelID: PersistentIdentifier
    #endif
    /// The context the object is registered in (set for every fetched object: no run-time
    /// exclusivity check either, as above).
    #if STRATA_INTERNAL_CHECKS
    public internal(set) weak var context: Optional<ModelContext>
    #else
    @exclusivity(unchecked) public internal(set) weak var context: Optional<ModelContext>
    #endif
    /// The model type's derived description.
    let info: ModelTypeInfo
    /// The record as stored when last loaded or saved; `nil` for a new object.
    #if STRATA_INTERNAL_CHECKS
    var snapshot: Optional<StoredSnapshot>
    #else
    @exclusivity(unchecked) var snapshot: Optional<StoredSnapshot>
    #endif
    /// Whether the object was deleted (pending or saved).
    public internal(set) var isDeleted = false
    /// Bits of the properties set since the last save (ordinals ≥ 64 in `changedBeyond`).
    private var changedMask: UInt64 = 0
    private var changedBeyond: Set<Int> = []

    // `context` and `snapshot` are spelled `Optional<…>`, not `…?`: Swift gives a `T?` stored
    // property an implicit `nil` that every initializer stores first, so the fetched object's
    // initializer assigned over it (a `swift_weakAssign` and the old `nil` snapshot destroyed,
    // about 100 instructions a fetched object; docs/benchmarks.md, "Issue 31, session 13").

    /// Makes the backing data of a new object of `type`, with a fresh temporary identifier.
    public init<T: PersistentModel>(for type: T.Type) {
        self.info = ModelTypeInfo.of(type)
        self.persistentModelID = .temporary(entity: info.entityName)
        self.context = nil
        self.snapshot = nil
    }

    /// The backing data of a fetched object, made by the context that registers it and handed to
    /// the generated `init(_$fetched:)`: the record's identifier and snapshot are moved in (no
    /// temporary identifier made and replaced, no copy of the snapshot), the type's description is
    /// the one the fetch looked up once for all its records, and the context is referenced weakly
    /// (SwiftData's `modelContext` is `nil` once the context is gone).
    init(fetched snapshot: consuming StoredSnapshot?, id: consuming PersistentIdentifier, info: ModelTypeInfo, context: ModelContext) {
        self.info = info
        self.persistentModelID = id
        self.snapshot = snapshot
        self.context = context
    }

    /// Whether any property was set since the last save.
    public var hasChanges: Bool { changedMask != 0 || !changedBeyond.isEmpty }

    /// Records that property `ordinal` was set and tells the context.
    @usableFromInline
    func didChange(_ ordinal: Int, owner: some PersistentModel) {
        let wasClean = !hasChanges
        if ordinal < 64 { changedMask |= 1 << UInt64(ordinal) } else { changedBeyond.insert(ordinal) }
        if wasClean, !isNew, let context { context.registerChange(owner) }
    }

    /// Whether property `ordinal` was set since the last save.
    func isChanged(_ ordinal: Int) -> Bool {
        ordinal < 64 ? changedMask & (1 << UInt64(ordinal)) != 0 : changedBeyond.contains(ordinal)
    }

    /// The ordinals set since the last save, ascending.
    var changedOrdinals: [Int] { info.properties.indices.filter(isChanged) }

    /// Whether the object was never saved (no stored record yet): it can be listed only where
    /// relationships set in memory put it.
    /// (`snapshot == nil` picks `Optional`'s `Equatable` `==` and copies the snapshot on every
    /// call of the insert path; callgrind on `strata-model-bench`'s insert.)
    @usableFromInline
    var isNew: Bool {
        if case .none = snapshot { return true }
        return false
    }

    /// The inverse of relationship `ordinal` on its destination, `nil` for a one-way relationship.
    @usableFromInline
    func inverseOrdinal(_ ordinal: Int) -> Int? { info.inverseOrdinal(ordinal) }

    /// The container of the context this object was registered in, handed over when that context
    /// was released (`ModelContext.deinit`) so the object can still load its relationships.
    var containerAfterRelease: ModelContainer?
    /// The context that loads this object's relationships after its own was released: the targets
    /// are registered there, and it lives as long as this object does.
    private var readerAfterRelease: ModelContext?

    /// The objects relationship `ordinal` holds in the store, from the identity map or in one fetch.
    ///
    /// An object whose context was released loads them through a context of its own on the same
    /// container, never answering with a silent empty value; its targets are other objects than
    /// the released context's, equal to them (`==` compares identifiers).
    @usableFromInline
    func loadTargets<D: PersistentModel>(_ ordinal: Int, as type: D.Type) -> [D] {
        let ids = storedTargets(ordinal)
        if ids.isEmpty { return [] }
        if let context { return context.resolve(ids, as: D.self) }
        if readerAfterRelease == nil, let container = containerAfterRelease { readerAfterRelease = ModelContext(container) }
        return readerAfterRelease?.resolve(ids, as: D.self) ?? []
    }

    /// Stops on a stored value a getter cannot represent (unreachable: fetches check records first).
    @usableFromInline
    func unreadable<M: PersistentModel>(_ ordinal: Int, of type: M.Type, _ error: any Error) -> Never {
        preconditionFailure("\(M.self).\(info.properties[ordinal].name): \(error)")
    }

    /// Forgets the changes (after a save or a rollback).
    func clearChanges() {
        changedMask = 0
        changedBeyond = []
    }

    /// The stored value of attribute property `ordinal`.
    @usableFromInline
    func storedAttribute(_ ordinal: Int) -> Value {
        guard let snapshot, let i = info.attributeIndex[ordinal] else { return .null }
        return snapshot.attribute(at: i)
    }

    /// The stored targets of relationship property `ordinal`.
    func storedTargets(_ ordinal: Int) -> [PersistentIdentifier] {
        guard let snapshot, let r = info.relationshipIndex[ordinal] else { return [] }
        return snapshot.relationship(at: r).targets
    }
}
