/// A record as the context sees it during a fetch that includes pending changes: an object of the
/// context (read with its unsaved values) or a stored snapshot.
enum PendingRecord {
    /// A registered or inserted object.
    case object(any PersistentModel)
    /// A record as the store returned it.
    case snapshot(StoredSnapshot)

    var identifier: PersistentIdentifier {
        switch self {
        case .object(let model): model.persistentModelID
        case .snapshot(let snapshot): snapshot.persistentIdentifier
        }
    }
}

/// Lets the core's `PredicateEvaluator` read the context's pending objects, so a fetch evaluates
/// its translated predicate over them exactly as a store evaluates it over records.
///
/// Related records are the context's objects when it has them (unsaved values included), else the
/// stored snapshot, fetched once per identifier and kept for the fetch.
final class PendingReader: PredicateReader {
    typealias Record = PendingRecord
    typealias Key = PersistentIdentifier

    private let context: ModelContext
    private var fetched: [PersistentIdentifier: StoredSnapshot?] = [:]

    init(_ context: ModelContext) { self.context = context }

    func attribute(_ record: PendingRecord, _ index: Int) -> Value {
        switch record {
        case .snapshot(let snapshot):
            return snapshot.attribute(at: index)
        case .object(let model):
            let backing = model.persistentBackingData
            guard index < backing.info.attributeOrdinals.count else { return .null }
            let ordinal = backing.info.attributeOrdinals[index]
            if case .attribute(let value) = model._$encode(ordinal) { return value }
            return backing.storedAttribute(ordinal)
        }
    }

    /// The targets of relationship `index`: the object's (unsaved) ones, or the stored ones.
    func targets(_ record: PendingRecord, _ index: Int) -> [PersistentIdentifier] {
        switch record {
        case .snapshot(let snapshot):
            return snapshot.relationship(at: index).targets
        case .object(let model):
            let backing = model.persistentBackingData
            // A hidden inverse (one-way relationship) has no property: the stored side is all there is.
            guard index < backing.info.relationshipOrdinals.count else { return backing.snapshot?.relationship(at: index).targets ?? [] }
            let ordinal = backing.info.relationshipOrdinals[index]
            switch model._$encode(ordinal) {
            case .toOne(let target): return target.map { [$0.persistentModelID] } ?? []
            case .toMany(let targets): return targets.map(\.persistentModelID)
            default: return backing.storedTargets(ordinal)
            }
        }
    }

    func toOne(_ record: PendingRecord, _ index: Int) -> PersistentIdentifier? { targets(record, index).first }

    func forEachTarget(_ record: PendingRecord, _ index: Int, _ body: (PersistentIdentifier) -> Bool) {
        for target in targets(record, index) where !body(target) { return }
    }

    func toMany(_ record: PendingRecord, _ index: Int, contains key: PersistentIdentifier) -> Bool {
        targets(record, index).contains(key)
    }

    func targetCount(_ record: PendingRecord, _ index: Int) -> Int { targets(record, index).count }

    func key(of record: PendingRecord) -> PersistentIdentifier { record.identifier }

    func key(for identifier: PersistentIdentifier, in entity: EntitySchema) -> PersistentIdentifier? { identifier }

    func record(_ entity: EntitySchema, _ key: PersistentIdentifier) -> PendingRecord? {
        if let model = context.pendingOrRegistered(key) { return model.isDeleted ? nil : .object(model) }
        if let known = fetched[key] { return known.map { .snapshot($0) } }
        let snapshot = try? context.store.fetch(Strata.FetchDescriptor(entity: entity.name, predicate: .identifierIn([key]))).first
        fetched[key] = .some(snapshot)
        return snapshot.map { .snapshot($0) }
    }
}

extension ModelContext {
    /// The context's object for an identifier: registered, or inserted (temporary identifier).
    func pendingOrRegistered(_ id: PersistentIdentifier) -> (any PersistentModel)? {
        if let model = registered[id] { return model }
        guard id.isTemporary else { return nil }
        return inserted.first { $0.persistentModelID == id }
    }
}
