import Foundation
import Strata
import StrataMemory
import Synchronization

/// Does not cascade: every cascade rule is quietly weakened to noAction.
struct NoCascade: StoreFlaw {
    func innerSchema(_ schema: Schema) -> Schema {
        let weakened = schema.entities.map { e -> Entity in
            var d = e.declaration
            for i in d.relationships.indices where d.relationships[i].deleteRule == .cascade { d.relationships[i].deleteRule = .noAction }
            return d
        }
        return (try? Schema(entities: weakened)) ?? schema
    }
}

/// Overwrites on a unique collision: the colliding insert silently becomes an update of the holder.
struct OverwriteOnCollision: StoreFlaw {
    func save(_ request: SaveRequest<DefaultSnapshot>, inner: MemoryStore) throws -> SaveResult<DefaultSnapshot> {
        var request = request
        var redirected = IdentifierRemapping()
        for _ in 0..<100 {
            do {
                var result = try inner.save(request)
                result.remappedIdentifiers.merge(redirected)
                return result
            } catch let error as StrataError where error.code == .uniqueConstraintViolation && error.identifiers.count == 2 {
                let holder = error.identifiers[0], intruder = error.identifiers[1]
                guard intruder.isTemporary, let i = request.inserted.firstIndex(where: { $0.persistentIdentifier == intruder }) else { throw error }
                let values = request.inserted.remove(at: i)
                request.updated.append(DefaultSnapshot(entity: values.entity, persistentIdentifier: holder, attributes: values.attributes, relationships: values.relationships))
                redirected.insert(holder, for: intruder)
            }
        }
        return try inner.save(request)
    }
}

/// Leaves a partial change when a save fails: inserts are committed in chunks of 100, then the rest.
struct PartialSave: StoreFlaw {
    func save(_ request: SaveRequest<DefaultSnapshot>, inner: MemoryStore) throws -> SaveResult<DefaultSnapshot> {
        var remap = IdentifierRemapping()
        var deleted = Set<PersistentIdentifier>()
        var changed: [PersistentIdentifier: DefaultSnapshot] = [:]
        func run(_ r: SaveRequest<DefaultSnapshot>) throws {
            let fix = { (s: DefaultSnapshot) in s.copy(persistentIdentifier: s.persistentIdentifier, remappedIdentifiers: remap) }
            let result = try inner.save(SaveRequest(inserted: r.inserted.map(fix), updated: r.updated.map(fix), deleted: r.deleted, updatedProperties: r.updatedProperties))
            remap.merge(result.remappedIdentifiers)
            deleted.formUnion(result.deletedIdentifiers)
            changed.merge(result.changedSnapshots) { _, b in b }
        }
        var start = 0
        repeat {
            let end = min(start + 100, request.inserted.count)
            try run(SaveRequest(inserted: Array(request.inserted[start..<end])))
            start = end
        } while start < request.inserted.count
        try run(SaveRequest(updated: request.updated, deleted: request.deleted, updatedProperties: request.updatedProperties))
        return SaveResult(storeIdentifier: inner.identifier, remappedIdentifiers: remap, deletedIdentifiers: deleted, changedSnapshots: changed)
    }
}

/// Ignores sort ties: equal sort keys come out in reverse key order.
struct UnstableTies: StoreFlaw {
    func fetch(_ d: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] {
        guard !d.sortBy.isEmpty, d.sortBy.allSatisfy({ $0.path.components.count == 1 }) else { return try inner.fetch(d) }
        var all = d
        all.fetchLimit = nil
        all.fetchOffset = 0
        let sorted = try inner.fetch(all).reversed().sorted { a, b in
            for key in d.sortBy {
                let order = Value.sortOrder(a[key.path.components[0]], b[key.path.components[0]])
                if order != 0 { return key.order == .descending ? order > 0 : order < 0 }
            }
            return false
        }
        return Array(sorted.dropFirst(d.fetchOffset).prefix(d.fetchLimit ?? .max))
    }
}

/// Reuses identifiers: a new record gets the identifier of the last deleted one of its entity.
final class ReusedIdentifiers: StoreFlaw, @unchecked Sendable {
    private let lock = NSLock()
    private var outerToInner: [PersistentIdentifier: PersistentIdentifier] = [:]
    private var innerToOuter: [PersistentIdentifier: PersistentIdentifier] = [:]
    private var free: [String: [PersistentIdentifier]] = [:]
    init() {}

    private func inward(_ id: PersistentIdentifier) -> PersistentIdentifier { outerToInner[id] ?? id }
    private func outward(_ id: PersistentIdentifier) -> PersistentIdentifier { innerToOuter[id] ?? id }
    private func map(_ s: DefaultSnapshot, _ f: (PersistentIdentifier) -> PersistentIdentifier) -> DefaultSnapshot {
        DefaultSnapshot(entity: s.entity, persistentIdentifier: f(s.persistentIdentifier), attributes: s.attributes, relationships: s.relationships.map {
            switch $0 {
            case .toOne(let id): .toOne(id.map(f))
            case .toMany(let ids): .toMany(ids.map(f))
            }
        })
    }

    func save(_ request: SaveRequest<DefaultSnapshot>, inner: MemoryStore) throws -> SaveResult<DefaultSnapshot> {
        lock.lock()
        defer { lock.unlock() }
        let result = try inner.save(SaveRequest(inserted: request.inserted.map { map($0, inward) }, updated: request.updated.map { map($0, inward) }, deleted: request.deleted.map { map($0, inward) }))
        var deleted = Set<PersistentIdentifier>()
        for id in result.deletedIdentifiers {
            let outer = outward(id)
            deleted.insert(outer)
            free[outer.entityName, default: []].append(outer)
        }
        var remap = IdentifierRemapping()
        for snapshot in request.inserted {
            guard let innerID = result.remappedIdentifiers[snapshot.persistentIdentifier] else { continue }
            var outer = innerID
            if let reused = free[innerID.entityName]?.popLast() { outer = reused }
            outerToInner[outer] = innerID
            innerToOuter[innerID] = outer
            remap.insert(outer, for: snapshot.persistentIdentifier)
        }
        return SaveResult(storeIdentifier: result.storeIdentifier, remappedIdentifiers: remap, deletedIdentifiers: deleted, changedSnapshots: [:])
    }

    func fetch(_ d: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] {
        lock.lock()
        defer { lock.unlock() }
        var d = d
        if case .identifierIn(let ids)? = d.predicate { d.predicate = .identifierIn(ids.map(inward)) }
        return try inner.fetch(d).map { map($0, outward) }
    }
}

/// Declares no persistence and no thread safety (honestly): its optional cases must be skipped with a
/// reason, and its required cases that need reopen must fail rather than be skipped.
struct WithoutPersistence: StoreFlaw {
    func capabilities(inner: MemoryStore) -> StoreCapabilities {
        inner.capabilities.subtracting([.persistence, .concurrentAccess])
    }
}

/// Ignores which properties an update lists: every update replaces the whole record from the
/// client's possibly stale copy, the lost-update bug of whole-record saves.
struct WholeRecordUpdates: StoreFlaw {
    func save(_ request: SaveRequest<DefaultSnapshot>, inner: MemoryStore) throws -> SaveResult<DefaultSnapshot> {
        try inner.save(SaveRequest(inserted: request.inserted, updated: request.updated, deleted: request.deleted))
    }
}

/// Folds case only for ASCII in case-insensitive search, as SQL's `LIKE` and `lower()` do.
struct AsciiCaseFolding: StoreFlaw {
    func fetch(_ d: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] {
        guard case .text(let path, let op, let pattern, true)? = d.predicate, path.components.count == 1 else { return try inner.fetch(d) }
        var all = d
        all.predicate = nil
        all.fetchLimit = nil
        all.fetchOffset = 0
        func fold(_ s: String) -> String { String(String.UnicodeScalarView(s.unicodeScalars.map { $0.isASCII ? Unicode.Scalar(UInt8(ascii: $0) | ($0.properties.isUppercase ? 0x20 : 0)) : $0 })) }
        let needle = fold(pattern)
        let matching = try inner.fetch(all).filter { snapshot in
            guard case .string(let s) = snapshot[path.components[0]] else { return false }
            let hay = fold(s)
            switch op {
            case .contains: return needle.isEmpty || hay.utf8.count >= needle.utf8.count && Array(hay.utf8).indices.contains { i in Array(hay.utf8)[i...].starts(with: needle.utf8) }
            case .hasPrefix: return hay.utf8.starts(with: needle.utf8)
            case .hasSuffix: return hay.utf8.reversed().starts(with: needle.utf8.reversed())
            }
        }
        return Array(matching.dropFirst(d.fetchOffset).prefix(d.fetchLimit ?? .max))
    }
}

/// Takes the fetch-by-identifier shortcut without checking the window: a negative limit is ignored.
struct NegativeLimitIgnored: StoreFlaw {
    func fetch(_ d: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] {
        guard case .identifierIn(let ids)? = d.predicate, ids.count == 1, (d.fetchLimit ?? 0) < 0 else { return try inner.fetch(d) }
        var shortcut = d
        shortcut.fetchLimit = nil
        return try inner.fetch(shortcut)
    }
}

/// Reports in `changedSnapshots` only records the request did not write, so a record that changed
/// itself (made its own mentor) is missing.
struct DropsOwnChanges: StoreFlaw {
    func save(_ request: SaveRequest<DefaultSnapshot>, inner: MemoryStore) throws -> SaveResult<DefaultSnapshot> {
        var result = try inner.save(request)
        let written = Set(request.updated.map(\.persistentIdentifier))
        result.changedSnapshots = result.changedSnapshots.filter { !written.contains($0.key) }
        return result
    }
}

/// Loses a NaN's payload and sign on the way out (every NaN comes back as the canonical `.nan`), as a
/// file format that writes NaN as the word `nan` does: the data is corrupted, nothing else breaks.
struct CanonicalNaN: StoreFlaw {
    func fetch(_ d: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] {
        try inner.fetch(d).map { snapshot in
            var copy = snapshot
            for attribute in snapshot.entity.attributes {
                if case .double(let x) = snapshot[attribute.name], x.isNaN { copy[attribute.name] = .double(.nan) }
            }
            return copy
        }
    }
}

/// Declares it cannot hold large values (honestly, by leaving out `largeValues`): the round-trips of
/// large values must be skipped as declared unsupported, and the report must say so.
struct WithoutLargeValues: StoreFlaw {
    func capabilities(inner: MemoryStore) -> StoreCapabilities { inner.capabilities.subtracting(.largeValues) }
}
