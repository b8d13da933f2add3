import Strata
import StrataMemory

/// Ignores string comparators: every sort key sorts by bytes, as a backend that never read the new
/// field (or used SQLite's `NOCASE` for one of them) would.
struct ComparatorIgnored: StoreFlaw {
    func fetch(_ d: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] {
        var plain = d
        plain.sortBy = d.sortBy.map { SortKey($0.path, order: $0.order) }
        return try inner.fetch(plain)
    }
}

/// Reads a to-many behind an empty to-one as an empty list, as a naive `NOT EXISTS` does: `allMatch`
/// through a to-one chain holds when the chain is empty.
struct NilChainAsEmpty: StoreFlaw {
    func fetch(_ d: FetchDescriptor, inner: MemoryStore) throws -> [DefaultSnapshot] {
        var naive = d
        naive.predicate = d.predicate.map(Self.rewrite)
        return try inner.fetch(naive)
    }

    static func rewrite(_ p: FetchPredicate) -> FetchPredicate {
        switch p {
        case .allMatch(let path, let inner) where path.components.count > 1:
            return .or([.isNil(PropertyPath(Array(path.components.dropLast()))), .allMatch(path, rewrite(inner))])
        case .allMatch(let path, let inner): return .allMatch(path, rewrite(inner))
        case .anyMatch(let path, let inner): return .anyMatch(path, rewrite(inner))
        case .and(let parts): return .and(parts.map(rewrite))
        case .or(let parts): return .or(parts.map(rewrite))
        case .not(let inner): return .not(rewrite(inner))
        default: return p
        }
    }
}

/// A point lookup by key alone, as a backend that indexes records by primary key and forgets to
/// check the identifier's store: another store's identifier finds this store's record.
struct PointLookupIgnoresStore: StoreFlaw {
    func snapshot(for id: PersistentIdentifier, inner: MemoryStore) throws -> DefaultSnapshot? {
        try inner.snapshot(for: PersistentIdentifier(storeIdentifier: inner.identifier, entityName: id.entityName, primaryKey: id.primaryKey))
    }
}
