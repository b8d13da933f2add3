import Strata

extension ConformanceSuite {
    static let identifierCases: [ConformanceCase] = {
        let c = ConformanceCategory.identifiers.cases(requiring: [])
        return [
            c("insert-gets-permanent", "Every insert gets a permanent identifier of this store in the remapping.") { ctx in
                let records = (0..<5).map { ctx.new("Sample", ["label": .string("s\($0)")]) }
                let result = try ctx.save(inserted: records)
                try ctx.checkEqual(result.remapped.count, 5, "remapping size")
                for r in records {
                    guard let id = result.remapped[r.id] else { throw CaseFailure(message: "No permanent identifier for \(r.id).") }
                    try ctx.check(!id.isTemporary, "\(id) is still temporary.")
                    try ctx.checkEqual(id.storeIdentifier, ctx.store.identifier, "store identifier of \(id)")
                    try ctx.checkEqual(id.entityName, "Sample", "entity of \(id)")
                    try ctx.checkEqual(try ctx.get(id)["label"], r["label"], "label fetched by \(id)")
                }
            },
            c("unique-per-entity", "Permanent identifiers are unique within an entity, also across saves.") { ctx in
                var all: [PersistentIdentifier] = []
                for batch in 0..<3 {
                    all += try ctx.insert((0..<10).map { ctx.new("Sample", ["label": .string("b\(batch)-\($0)")]) })
                }
                try ctx.checkEqual(Set(all).count, 30, "distinct identifiers over three saves")
                try ctx.checkEqual(Set(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Sample"))), Set(all), "fetched identifiers")
            },
            c("references-between-inserts", "References between snapshots inserted in one save are rewritten to permanent identifiers.") { ctx in
                let library = ctx.new("Library", ["name": "Central"])
                let book = ctx.new("Book", ["title": "Dune"], ["library": .toOne(library.id)])
                let chapter = ctx.new("Chapter", ["title": "One"], ["book": .toOne(book.id)])
                let ids = try ctx.insert(chapter, book, library)
                let storedChapter = try ctx.get(ids[0])
                try ctx.checkEqual(storedChapter.target("book"), ids[1], "chapter.book after save")
                try ctx.checkEqual(try ctx.get(ids[1]).target("library"), ids[2], "book.library after save")
                try ctx.checkEqual(try ctx.get(ids[2]).targets("books"), [ids[1]], "library.books maintained from the other side")
            },
            c("stable-across-reopen", requires: .persistence, "Identifiers are stable across reopen.") { ctx in
                let ids = try ctx.insert((0..<4).map { ctx.new("Sample", ["label": .string("x\($0)")]) })
                let storeID = ctx.store.identifier
                try ctx.reopen()
                try ctx.checkEqual(ctx.store.identifier, storeID, "store identifier after reopen")
                for (i, id) in ids.enumerated() { try ctx.checkEqual(try ctx.get(id)["label"], .string("x\(i)"), "record \(id) after reopen") }
            },
            c("never-reused-after-delete", "An identifier is never reused after its record is deleted.") { ctx in
                let ids = try ctx.insert((0..<3).map { ctx.new("Sample", ["label": .string("r\($0)")]) })
                try ctx.delete(ids[2])
                let again = try ctx.insert(ctx.new("Sample", ["label": "new"]))
                try ctx.check(!ids.contains(again[0]), "The new record got \(again[0]), the identifier of a deleted record.")
            },
            c("never-reused-after-reopen", requires: .persistence, "Deleted identifiers stay retired after reopen.") { ctx in
                let ids = try ctx.insert((0..<3).map { ctx.new("Sample", ["label": .string("r\($0)")]) })
                try ctx.delete(ids[1], ids[2])
                try ctx.reopen()
                let again = try ctx.insert((0..<3).map { ctx.new("Sample", ["label": .string("n\($0)")]) })
                try ctx.check(Set(again).isDisjoint(with: ids), "After reopen, new records got retired identifiers: \(again).")
            },
            c("foreign-store-rejected", "An identifier of another store is rejected.") { ctx in
                let other = try ctx.openOther()
                let lib = ctx.new("Library", ["name": "Elsewhere"])
                let foreign = try other.save(inserted: [lib], updated: [], deleted: []).remapped[lib.id]!
                try ctx.expectError(.unknownIdentifier, "a book whose library is another store's") {
                    try ctx.insert(ctx.new("Book", ["title": "X"], ["library": .toOne(foreign)]))
                }
                try ctx.checkEqual(try ctx.count("Book"), 0, "books after the rejected save")
            },
            c("unknown-rejected", "An identifier the store never made is rejected.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "A"]))
                let madeUp = PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Library", primaryKey: 987_654)
                try ctx.expectError(.unknownIdentifier, "a book pointing at a library that does not exist") {
                    try ctx.insert(ctx.new("Book", ["title": "X"], ["library": .toOne(madeUp)]))
                }
            },
            c("temporary-not-inserted-rejected", "A temporary identifier that is not inserted in the same save is rejected.") { ctx in
                let ghost = ctx.new("Library", ["name": "Ghost"])
                try ctx.expectError(.unknownIdentifier, "a book pointing at a library that is not in the save") {
                    try ctx.insert(ctx.new("Book", ["title": "X"], ["library": .toOne(ghost.id)]))
                }
                try ctx.checkEqual(try ctx.count("Book") + ctx.count("Library"), 0, "records after the rejected save")
            },
            c("update-unknown-rejected", "Updating a record the store does not hold is rejected.") { ctx in
                var record = ctx.new("Sample", ["label": "never saved"])
                try ctx.expectError(.unknownIdentifier, "update of a temporary identifier") { try ctx.save(updated: [record]) }
                record.id = PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Sample", primaryKey: 4242)
                try ctx.expectError(.unknownIdentifier, "update of an unknown permanent identifier") { try ctx.save(updated: [record]) }
            },
            c("delete-unknown-rejected", "Deleting a record the store does not hold is rejected, also twice in a row.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "once"]))[0]
                let record = try ctx.get(id)
                try ctx.save(deleted: [record])
                try ctx.expectError(.unknownIdentifier, "second delete of the same record") { try ctx.save(deleted: [record]) }
            },
            c("fetch-identifiers-match", "fetchIdentifiers returns the identifiers of fetch, in the same order.") { ctx in
                try ctx.insert((0..<6).map { ctx.new("Sample", ["label": .string("l\($0 % 3)"), "int": .int(Int64(5 - $0))]) })
                let d = FetchDescriptor(entity: "Sample", sortBy: [SortKey("label"), SortKey("int")])
                try ctx.checkEqual(try ctx.store.fetchIdentifiers(d), try ctx.store.fetch(d).map(\.id), "identifiers vs fetch")
            },
            c("uri-round-trip", "A store identifier's URI form parses back to the same identifier.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "uri"]))[0]
                try ctx.checkEqual(PersistentIdentifier(uri: id.description), id, "identifier parsed from \(id)")
            },
        ]
    }()
}
