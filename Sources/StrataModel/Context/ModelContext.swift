/// Tracks model objects of one container: the identity map, pending inserts, changes and deletes,
/// and the save that sends them to the store.
///
/// One object per record per context: fetching a record twice returns the same object. Not
/// `Sendable` (as in SwiftData): use a context on one actor or thread; pass identifiers between
/// them and give each its own context (see `ModelActor`).
///
/// ```swift
/// let context = ModelContext(container)
/// let trip = Trip(name: "Rome", start: .now)
/// context.insert(trip)
/// try context.save()
/// ```
public final class ModelContext {
    /// The container this context works on.
    public let container: ModelContainer
    let store: any ModelStore
    /// Identity map: the registered object of each saved record.
    /// (Touched on the context's thread only, never overlapping: no run-time exclusivity check.)
    #if STRATA_INTERNAL_CHECKS  // debug builds keep the run-time check (docs/architecture.md, "Internal checks")
    var registered: [PersistentIdentifier: any PersistentModel] = [:]
    #else
    @exclusivity(unchecked) var registered: [PersistentIdentifier: any PersistentModel] = [:]
    #endif
    /// Objects inserted since the last save, in insert order. Deleting a pending insert only takes
    /// it out of `insertedSet`; the list drops such objects when next read or changed, in one pass,
    /// so deleting k of n pending inserts costs O(n + k), not O(n·k).
    var inserted: [any PersistentModel] {
        get { dropDeletedInserts(); return insertedOrder }
        _modify { dropDeletedInserts(); yield &insertedOrder }
        set { insertedOrder = newValue; droppedInserts = 0 }
    }
    private var insertedOrder: [any PersistentModel] = []
    /// How many objects of `insertedOrder` left `insertedSet` (deleted before a save).
    private var droppedInserts = 0
    var insertedSet = Set<ObjectIdentifier>()
    /// Registered objects with changes since the last save, in the order they changed.
    var changed: [ObjectIdentifier: any PersistentModel] = [:]
    var changedOrder: [ObjectIdentifier] = []
    /// Registered objects deleted since the last save.
    var deleted: [ObjectIdentifier: any PersistentModel] = [:]
    var deletedOrder: [ObjectIdentifier] = []
    /// Saved objects whose relationships changed in memory as the other side of a change (an
    /// inverse), which does not count as their own change: `rollback` reloads them with the
    /// changed ones instead of every registered object.
    var inverseTouched: [ObjectIdentifier: any PersistentModel] = [:]
    /// Records a relationship reached but left out because a stored value does not fit its Swift
    /// type (a getter cannot throw; `fetch` and `model(for:)` throw the same error instead).
    public internal(set) var unreadableRecords: [PersistentIdentifier: StrataError] = [:]
    /// Entity per model type, looked up once.
    private var entities: [ObjectIdentifier: EntitySchema] = [:]
    private var lastEntity: (type: ObjectIdentifier, entity: EntitySchema)?

    /// Whether a save fails with `writeConflict` when a property it writes was changed by another
    /// save since this context read it. Off by default: the later save wins (but never for
    /// properties it did not change).
    public var checksConflicts = false

    /// Who saves, recorded in each save's history transaction (SwiftData's `author`).
    public var author: String?

    /// Whether the context saves pending changes on its own, as SwiftData's: `false` for contexts
    /// you make, `true` for `ModelContainer.mainContext`. When and how: `ModelContext+Autosave.swift`.
    public var autosaveEnabled = false
    /// Which context this is, for stores that keep state per context (SwiftData's `editingState`):
    /// a new identity per context, no author. A custom store's requests carry its container's
    /// editing state instead (`CustomStoreAdapter`): Strata's contexts reach a store only through
    /// the container.
    public var editingState = EditingState()
    /// Whether this is its container's main context (autosaves on the main actor).
    var isMainContext = false
    /// Whether a main-actor autosave is already queued.
    var autosaveQueued = false

    /// Makes a context on `container`.
    public init(_ container: ModelContainer) {
        self.container = container
        self.store = container.store
    }

    /// Hands the container to the saved objects that outlive this context, so their relationships
    /// still load (through a context of their own) instead of reading as empty.
    deinit {
        for model in registered.values { model.persistentBackingData.containerAfterRelease = container }
    }

    // MARK: Registration

    /// Registers `model` for insertion at the next save, with every new object reachable through
    /// its relationships. Inserting an object twice, or one already saved, does nothing.
    public func insert<T: PersistentModel>(_ model: T) {
        insertGraph(model)
    }

    func insertGraph(_ model: any PersistentModel) {
        let backing = model.persistentBackingData
        if let owner = backing.context {
            precondition(owner === self, "\(type(of: model)) \(model.persistentModelID) belongs to another ModelContext; look it up in this one with model(for:).")
            return
        }
        guard !backing.isDeleted || backing.isNew else { return }
        backing.context = self
        backing.isDeleted = false
        queueAutosave()
        inserted.append(model)
        insertedSet.insert(ObjectIdentifier(model))
        for ordinal in backing.info.relationshipOrdinals {
            switch model._$encode(ordinal) {
            case .toOne(let target?): insertGraph(target)
            case .toMany(let targets): for target in targets { insertGraph(target) }
            default: break
            }
        }
    }

    /// Marks `model` for deletion at the next save (with its delete rules, applied by the store).
    /// An object inserted and not yet saved is simply dropped, and taken out of its relationships.
    public func delete<T: PersistentModel>(_ model: T) {
        let backing = model.persistentBackingData
        guard backing.context === self, !backing.isDeleted else { return }
        let key = ObjectIdentifier(model)
        if insertedSet.remove(key) != nil {
            droppedInserts += 1
            detachFromRelationships(model)
            backing.context = nil
            backing.isDeleted = true
            return
        }
        backing.isDeleted = true
        if deleted.updateValue(model, forKey: key) == nil { deletedOrder.append(key) }
        queueAutosave()
    }

    private func dropDeletedInserts() {
        guard droppedInserts > 0 else { return }
        droppedInserts = 0
        insertedOrder.removeAll { !insertedSet.contains(ObjectIdentifier($0)) }
    }

    /// Takes an unsaved object out of the loaded relationships of the objects it points at.
    private func detachFromRelationships(_ model: any PersistentModel) {
        let info = model.persistentBackingData.info
        for ordinal in info.relationshipOrdinals {
            guard let inverse = info.inverseOrdinal(ordinal) else { continue }
            switch model._$encode(ordinal) {
            case .toOne(let target?): applyInverse(target, inverse, .remove(model))
            case .toMany(let targets): for target in targets { applyInverse(target, inverse, .remove(model)) }
            default: break
            }
        }
    }

    /// Notes that the saved object `model`'s relationships are about to change in memory as an
    /// inverse, so a rollback reloads it (new objects are not noted: a rollback drops them anyway).
    func noteInverseChange(_ model: any PersistentModel) {
        inverseTouched[ObjectIdentifier(model)] = model
    }

    /// Called by an object's backing data the first time one of its properties changes.
    func registerChange(_ model: any PersistentModel) {
        let key = ObjectIdentifier(model)
        guard !insertedSet.contains(key), changed.updateValue(model, forKey: key) == nil else { return }
        changedOrder.append(key)
        queueAutosave()
    }

    /// Whether there are inserts, changes or deletes not yet saved.
    public var hasChanges: Bool { !insertedSet.isEmpty || !deleted.isEmpty || changed.values.contains { $0.persistentBackingData.hasChanges } }

    /// Objects inserted since the last save.
    public var insertedModelsArray: [any PersistentModel] { inserted }
    /// Registered objects with unsaved changes (deleted ones excluded).
    public var changedModelsArray: [any PersistentModel] {
        changedOrder.compactMap { changed[$0] }.filter { $0.persistentBackingData.hasChanges && !$0.isDeleted }
    }
    /// Objects marked for deletion since the last save.
    public var deletedModelsArray: [any PersistentModel] { deletedOrder.compactMap { deleted[$0] } }

    /// The registered object of `identifier`, without fetching.
    public func registeredModel<T: PersistentModel>(for identifier: PersistentIdentifier) -> T? {
        registered[identifier] as? T ?? inserted.first { $0.persistentModelID == identifier } as? T
    }

    /// The object of `identifier`: the registered one, or a new one for the stored record.
    ///
    /// - Throws: `unknownIdentifier` if the store holds no such record, `typeMismatch` if it is
    ///   not a `T`.
    public func model<T: PersistentModel>(for identifier: PersistentIdentifier, as type: T.Type = T.self) throws -> T {
        if let known = registered[identifier] {
            guard let model = known as? T else { throw StrataError(.typeMismatch, "\(identifier) is a \(Swift.type(of: known)), not a \(T.self).", identifiers: [identifier]) }
            return model
        }
        guard identifier.entityName == T.entityName else {
            throw StrataError(.typeMismatch, "\(identifier) is a record of '\(identifier.entityName)', not of \(T.self).", entity: identifier.entityName, identifiers: [identifier])
        }
        // The store's point lookup, not a fetch with an identifier filter: no descriptor, no array.
        guard let snapshot = try store.snapshot(for: identifier) else {
            throw StrataError(.unknownIdentifier, "The store holds no record \(identifier) (never saved, or deleted).", entity: identifier.entityName, identifiers: [identifier])
        }
        // Moved into the new object, not copied.
        return try register(taking: snapshot, as: T.self, info: ModelTypeInfo.of(T.self))
    }

    /// The object for a fetched snapshot: the registered one (refreshed if it has no unsaved
    /// changes), or a new one. A fetch passes `info`, looked up once for all its records.
    ///
    /// The identity map is hashed once per record: the new object is made inside the map's
    /// default-value access, which inserts it where the lookup found no entry.
    ///
    /// - Throws: `typeMismatch` when a stored value does not fit its Swift type (see `checkRepresentable`).
    func register<T: PersistentModel>(_ snapshot: StoredSnapshot, as type: T.Type, info: ModelTypeInfo = ModelTypeInfo.of(T.self)) throws -> T {
        if !info.checkedAttributes.isEmpty { try checkRepresentable(snapshot, as: T.self, info: info) }
        var made: T?
        let id = snapshot.persistentIdentifier
        let entry = Self.access(&registered[id, default: {
            let model = object(snapshot, id: id, as: T.self, info: info)
            made = model
            return model
        }()])
        if let made { return made }
        if let known = entry as? T {
            refresh(known, with: snapshot)
            return known
        }
        // Another type registered under this identifier (a record of another entity): replaced.
        let model = object(snapshot, id: id, as: T.self, info: info)
        registered[id] = model
        return model
    }

    /// The objects for fetched snapshots, in order (see `register(_:as:info:)`).
    ///
    /// The array is taken, not read: each snapshot is moved out of it into its new object, last
    /// first (`removeLast` moves; iterating would copy every snapshot and destroy the array's
    /// copies afterwards, a retain and a release of each of its references per record; reversing
    /// the array first copied each snapshot through outlined copies). The objects are placed from
    /// the back, so they come out in the snapshots' order (docs/benchmarks.md, "The model layer's
    /// full fetch").
    ///
    /// Registration is batched per fetch: a context that holds no object yet (a new context's first
    /// fetch, the most common one) cannot hold any of these records, so each new object goes
    /// straight into the identity map without a lookup first (`registerNew`).
    func registerAll<T: PersistentModel>(_ snapshots: consuming [StoredSnapshot], as type: T.Type) throws -> [T] {
        let info = ModelTypeInfo.of(T.self)
        var rest = snapshots
        let count = rest.count
        let fresh = registered.isEmpty
        registered.reserveCapacity(registered.count + count)
        return try [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            var i = count
            do {
                while i > 0 {
                    let model = fresh
                        ? try registerNew(taking: rest.removeLast(), as: T.self, info: info)
                        : try register(taking: rest.removeLast(), as: T.self, info: info)
                    i -= 1
                    (buffer.baseAddress! + i).initialize(to: model)
                }
            } catch {
                if let base = buffer.baseAddress { (base + i).deinitialize(count: count - i) }
                throw error
            }
            initialized = count
        }
    }

    /// `register(_:as:info:)` for a snapshot the caller gives up: it moves into the new object.
    func register<T: PersistentModel>(taking snapshot: consuming StoredSnapshot, as type: T.Type, info: ModelTypeInfo) throws -> T {
        if !info.checkedAttributes.isEmpty { try checkRepresentable(snapshot, as: T.self, info: info) }
        let id = snapshot.persistentIdentifier
        var pending: StoredSnapshot? = consume snapshot
        var made: T?
        let entry = Self.access(&registered[id, default: {
            var taken: StoredSnapshot?
            swap(&taken, &pending)
            let model = object(consume taken, id: id, as: T.self, info: info)
            made = model
            return model
        }()])
        if let made { return made }
        guard let snapshot = pending else { preconditionFailure("a registered record's snapshot was taken") }
        if let known = entry as? T {
            refresh(known, with: snapshot)
            return known
        }
        // Another type registered under this identifier (a record of another entity): replaced.
        let model = object(snapshot, id: id, as: T.self, info: info)
        registered[id] = model
        return model
    }

    /// The object of a record a `FetchResultsCollection` read earlier and checked then
    /// (`checkRepresentable`): the registered object when the context holds one — as it is, not
    /// set back to the older snapshot — else a new object of `snapshot`, registered.
    func registerFetched<T: PersistentModel>(_ snapshot: StoredSnapshot, as type: T.Type, info: ModelTypeInfo) -> T {
        let id = snapshot.persistentIdentifier
        if let known = registered[id] as? T { return known }
        let model = object(snapshot, id: id, as: T.self, info: info)
        registered[id] = model
        return model
    }

    /// The new object of a record the identity map cannot hold yet (see `registerAll`): made and
    /// entered without a lookup first.
    private func registerNew<T: PersistentModel>(taking snapshot: consuming StoredSnapshot, as type: T.Type, info: ModelTypeInfo) throws -> T {
        if !info.checkedAttributes.isEmpty { try checkRepresentable(snapshot, as: T.self, info: info) }
        let id = snapshot.persistentIdentifier
        // `consume`: without it the snapshot was copied into the backing data and the original destroyed.
        let model = object(consume snapshot, id: id, as: T.self, info: info)
        registered[id] = model
        return model
    }

    /// A new object for a stored record, which the caller registers: made with the backing data
    /// of the record (its identifier and snapshot moved in), never with a temporary identifier
    /// that the record's would replace (docs/benchmarks.md, "Issue 31, session 13").
    @inline(__always)
    private func object<T: PersistentModel>(_ snapshot: consuming StoredSnapshot?, id: PersistentIdentifier, as type: T.Type, info: ModelTypeInfo) -> T {
        T(_$fetched: ModelBackingData(fetched: snapshot, id: id, info: info, context: self))
    }

    /// The value of an identity-map entry, reached through a mutating access so that a
    /// `default:` subscript inserts its default.
    private static func access(_ entry: inout any PersistentModel) -> any PersistentModel { entry }

    /// Replaces an unchanged object's stored state with a newer one and unloads its values.
    func refresh(_ model: any PersistentModel, with snapshot: StoredSnapshot) {
        let backing = model.persistentBackingData
        guard !backing.hasChanges, backing.snapshot != snapshot else { return }
        backing.snapshot = snapshot
        model._$refault()
    }

    /// The objects of stored identifiers, in order, fetching the unregistered ones in one go per
    /// entity; identifiers of records that no longer exist are left out.
    func resolve<T: PersistentModel>(_ ids: [PersistentIdentifier], as type: T.Type) -> [T] {
        let missing = ids.filter { registered[$0] == nil }
        if !missing.isEmpty {
            // A failed fetch leaves the relationship with the targets already registered; the
            // store's error has no caller to go to from a property getter.
            let snapshots = (try? store.fetch(Strata.FetchDescriptor(entity: T.entityName, predicate: .identifierIn(missing)))) ?? []
            for snapshot in snapshots {
                do { _ = try register(snapshot, as: T.self) } catch let error as StrataError { unreadableRecords[snapshot.persistentIdentifier] = error } catch {}
            }
        }
        return ids.compactMap { registered[$0] as? T }
    }

    /// The entity of a model type in this container's schema.
    ///
    /// - Throws: `unknownEntity` for a type the container was not made for (nor reached).
    func entity(of model: any PersistentModel) throws -> EntitySchema {
        let key = ObjectIdentifier(type(of: model))
        // A save's objects come in runs of one type: the last answer is checked before hashing.
        if let last = lastEntity, last.type == key { return last.entity }
        if let known = entities[key] {
            lastEntity = (key, known)
            return known
        }
        let entity = try container.schema.requireEntity(model.persistentBackingData.info.entityName)
        entities[key] = entity
        lastEntity = (key, entity)
        return entity
    }

    /// The entity of a model type, by type.
    func entity<T: PersistentModel>(of type: T.Type) throws -> EntitySchema {
        try container.schema.requireEntity(T.entityName)
    }
}
