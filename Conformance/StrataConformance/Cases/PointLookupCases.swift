import Strata

/// The point lookup, `DataStore.snapshot(for:)`: whatever a backend does to make it cheap, it must
/// answer exactly what a fetch of `.identifierIn([id])` answers (store contract, section 6).
extension ConformanceSuite {
    static let pointLookupCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [])
        return [
            c("point-lookup-agrees-with-fetch", "A point lookup by identifier returns the record a fetch by that identifier returns, ordered lists in order (unordered ones compare as sets), after inserts, updates and reopen.") { ctx in
                let library = ctx.new("Library", ["name": "Central", "city": "Oslo"])
                let shelves = (0..<3).map { ctx.new("Shelf", ["label": .string("s\($0)")]) }
                var owner = library
                owner.set("shelves", to: [shelves[2].id, shelves[0].id, shelves[1].id])
                let book = ctx.new("Book", ["title": "Dune", "isbn": "978-0", "pages": 412], ["library": .toOne(library.id), "shelf": .toOne(shelves[0].id)])
                let author = ctx.new("Author", ["name": "Herbert"], ["books": .toMany([book.id]), "favorites": .toMany([book.id])])
                let ids = try ctx.insert([owner] + shelves + [book, author])
                try checkPointLookups(ctx, ids, "after the insert")

                var renamed = try ctx.get(ids[0])
                renamed["city"] = .null
                renamed.set("shelves", to: [ids[1], ids[3], ids[2]])
                _ = try ctx.save(updated: [renamed])
                try checkPointLookups(ctx, ids, "after an update")
                try ctx.checkEqual(try ctx.store.snapshot(for: ids[0])?.targets("shelves") ?? [], [ids[1], ids[3], ids[2]], "shelves of the library by point lookup")

                if ctx.store.capabilities.contains(.persistence) {
                    try ctx.reopen()
                    try checkPointLookups(ctx, ids, "after reopen")
                }
            },
            c("point-lookup-missing-is-nil", "A point lookup of a record the store does not hold — deleted, never made, temporary, another store's, or a key of another entity — returns nil, as the fetch returns nothing.") { ctx in
                let ids = try ctx.insert((0..<3).map { ctx.new("Library", ["name": .string("L\($0)")]) })
                _ = try ctx.delete(ids[1])
                let other = try ctx.openOther()
                let elsewhere = ctx.new("Library", ["name": "Elsewhere"])
                let foreign = try other.save(inserted: [elsewhere], updated: [], deleted: []).remapped[elsewhere.id]!
                let absent: [(PersistentIdentifier, String)] = [
                    (ids[1], "a deleted record"),
                    (PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Library", primaryKey: 1_000_000), "a key the store never gave out"),
                    (PersistentIdentifier.temporary(entity: "Library"), "a temporary identifier"),
                    (foreign, "another store's record"),
                    (PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Tag", primaryKey: ids[0].primaryKey), "a held Library key named as a Tag"),
                ]
                for (id, what) in absent {
                    try ctx.check(try ctx.store.snapshot(for: id) == nil, "The point lookup of \(what) (\(id)) returned a record.")
                    try ctx.checkEqual(try ctx.store.fetch(FetchDescriptor(entity: id.entityName, predicate: .identifierIn([id]))).count, 0, "records fetched for \(what)")
                }
                try checkPointLookups(ctx, [ids[0], ids[2]], "beside the missing ones")
            },
            c("point-lookup-unknown-entity", "A point lookup of an identifier whose entity the schema lacks fails with unknownEntity, as the fetch does.") { ctx in
                let ids = try ctx.insert(ctx.new("Library", ["name": "L"]))
                let stranger = PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Spaceship", primaryKey: ids[0].primaryKey)
                try ctx.expectError(.unknownEntity, "fetch of a Spaceship") { _ = try ctx.store.fetch(FetchDescriptor(entity: "Spaceship", predicate: .identifierIn([stranger]))) }
                try ctx.expectError(.unknownEntity, "point lookup of a Spaceship") { _ = try ctx.store.snapshot(for: stranger) }
            },
        ]
    }()

    /// Requires the point lookup of each of `ids` to equal the fetch by that identifier.
    private static func checkPointLookups(_ ctx: CaseContext, _ ids: [PersistentIdentifier], _ when: String) throws {
        for id in ids {
            let fetched = try ctx.store.fetch(FetchDescriptor(entity: id.entityName, predicate: .identifierIn([id])))
            let looked = try ctx.store.snapshot(for: id)
            try ctx.check(fetched.count == 1, "\(when): the fetch of \(ctx.name(id)) returned \(fetched.count) records.")
            try ctx.check(looked?.normalized == fetched.first?.normalized, "\(when): the point lookup of \(ctx.name(id)) returned \(looked.map { "\($0)" } ?? "nil"), the fetch \(fetched[0]).")
        }
    }
}
