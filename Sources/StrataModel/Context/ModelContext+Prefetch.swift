/// `relationshipKeyPathsForPrefetching`: the targets of the named relationships of a whole result,
/// loaded in one store round trip per relationship (not one per object), so reading
/// `note.folder` or `note.tags` afterwards finds them in the context.
extension ModelContext {
    /// The relationship ordinals and destinations the key paths name.
    ///
    /// - Throws: `unknownProperty` for a key path that names no relationship of `T`.
    func prefetchPlan<T: PersistentModel>(_ keyPaths: [PartialKeyPath<T>]) throws -> [(ordinal: Int, destination: any PersistentModel.Type)] {
        let info = ModelTypeInfo.of(T.self)
        return try keyPaths.map { keyPath in
            guard let name = T.propertyName(for: keyPath), let ordinal = info.ordinal(named: name),
                  let relationship = info.properties[ordinal].relationship
            else {
                throw StrataError(.unknownProperty, "relationshipKeyPathsForPrefetching names a key path of \(T.self) that is not a persisted relationship.", entity: T.entityName)
            }
            return (ordinal, relationship.destination)
        }
    }

    /// Loads the targets of each planned relationship of `models` that the context does not hold yet.
    func prefetch<T: PersistentModel>(_ plan: [(ordinal: Int, destination: any PersistentModel.Type)], for models: [T]) throws {
        for (ordinal, destination) in plan {
            var seen = Set<PersistentIdentifier>()
            var missing: [PersistentIdentifier] = []
            for model in models {
                for id in model.persistentBackingData.storedTargets(ordinal) where registered[id] == nil && seen.insert(id).inserted {
                    missing.append(id)
                }
            }
            guard !missing.isEmpty else { continue }
            func load<D: PersistentModel>(_: D.Type) throws {
                let snapshots = try store.fetch(Strata.FetchDescriptor(entity: D.entityName, predicate: .identifierIn(missing)))
                for snapshot in snapshots {
                    // As when the relationship loads on access: an unreadable target is left out, with its error kept.
                    do { _ = try register(snapshot, as: D.self) } catch let error as StrataError { unreadableRecords[snapshot.persistentIdentifier] = error }
                }
            }
            try load(destination)
        }
    }
}
