extension ModelContainer {
    /// Removes every record of every entity from the container's stores (SwiftData's
    /// `deleteAllData()`): permanent, as in SwiftData.
    ///
    /// SwiftData's method does not throw, so a failure (a read-only store, an I/O error) leaves
    /// the data as it was and is not reported; call `erase()` to learn of it. Objects that contexts
    /// already hold keep the values they read; fetches find nothing.
    public func deleteAllData() {
        do { try erase() } catch {}  // SwiftData's signature reports nothing; `erase()` throws
    }

    /// Removes every record of every entity from the container's stores, throwing when a store
    /// cannot (SwiftData's `erase()`; its meaning here: `deleteAllData()` that reports failures).
    ///
    /// One atomic save per store deletes all its records (delete rules have nothing left to deny or
    /// cascade to), so each store is emptied whole or not at all; `changes()` subscribers see the
    /// deleted identifiers.
    ///
    /// - Throws: `readOnlyStore` for a store opened with `allowsSave: false`; whatever the store
    ///   throws. With several configurations, the stores emptied before the failing one stay empty.
    public func erase() throws {
        var groups: [Int: [EntitySchema]] = [:]
        let routed = store as? RoutedModelStore
        for entity in schema.entities { groups[routed?.storeOfEntity[entity.name] ?? 0, default: []].append(entity) }
        for index in groups.keys.sorted() {
            var request = SaveRequest<Strata.DefaultSnapshot>()
            for entity in groups[index] ?? [] {
                for id in try store.fetchIdentifiers(Strata.FetchDescriptor(entity: entity.name)) {
                    request.deleted.append(Strata.DefaultSnapshot(entity: entity, persistentIdentifier: id, attributes: [], relationships: []))
                }
            }
            guard !request.isEmpty else { continue }
            let result = try store.save(request)
            publish(ModelChanges(inserted: [], updated: [], deleted: Array(result.deletedIdentifiers)))
        }
    }
}
