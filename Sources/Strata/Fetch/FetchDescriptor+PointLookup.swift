extension FetchDescriptor {
    /// The one identifier this descriptor fetches, when it has the shape of a point lookup: an
    /// `identifierIn` predicate with one identifier, no sort, no offset, and no limit or one of at
    /// least 1. Every backend answers that shape (the hottest read) with one lookup by key instead of
    /// a query; this is the one statement of when it may.
    ///
    /// The caller still checks the entity (`unknownEntity` is thrown as for any fetch) and that the
    /// identifier is a permanent one of this store and entity.
    @inlinable
    public var pointLookupIdentifier: PersistentIdentifier? {
        guard case .identifierIn(let ids)? = predicate, ids.count == 1, sortBy.isEmpty, fetchOffset == 0, (fetchLimit ?? 1) > 0 else { return nil }
        return ids[0]
    }
}
