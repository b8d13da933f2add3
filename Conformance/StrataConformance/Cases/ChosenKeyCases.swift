import Strata

extension ConformanceSuite {
    /// Saves that choose the key of their first insert of an entity (`SaveRequest.firstKeys`,
    /// docs/store-contract.md §1 "Chosen keys"): optional, for stores declaring `chosenKeys`.
    static let chosenKeyCases: [ConformanceCase] = {
        let c = ConformanceCategory.chosenKeys.cases(requiring: .chosenKeys)
        let keys = ChosenKeyHelpers.keys, samples = ChosenKeyHelpers.samples, id = ChosenKeyHelpers.id

        return [
            c("first-insert-takes-chosen-key", "The save's first insert of an entity takes the chosen key, its other inserts the keys after it; the keys skipped name nothing; the next save goes on after them.") { ctx in
                try ctx.insert(samples(["a", "b"], ctx))
                let chosen = samples(["c", "d", "e"], ctx)
                try ctx.checkEqual(try keys(try ctx.store.save(inserted: chosen, firstKeys: ["Sample": 10]), chosen), [10, 11, 12], "keys of the inserts choosing 10")
                try ctx.checkEqual(try ctx.get(id(ctx, "Sample", 11))["label"], .string("d"), "record 11")
                for skipped: Int64 in [3, 9] {
                    try ctx.check(try ctx.store.snapshot(for: id(ctx, "Sample", skipped)) == nil, "key \(skipped) was skipped, yet names a record")
                }
                let after = samples(["f"], ctx)
                try ctx.checkEqual(try keys(try ctx.save(inserted: after), after), [13], "key of the next insert without a choice")
                try ctx.checkEqual(try ctx.store.fetchCount(FetchDescriptor(entity: "Sample")), 6, "records")
            },
            c("below-next-key-refused", "A chosen key below the entity's next key (held, or given out and deleted) is invalidRequest; the save changes nothing and consumes no key; the next key itself may be chosen.") { ctx in
                let ids = try ctx.insert(samples(["a", "b", "c"], ctx))
                try ctx.save(deleted: [try ctx.get(ids[2])])
                let before = try ctx.store.fetch(FetchDescriptor(entity: "Sample"))
                for key: Int64 in [2, 3] {
                    let error = try ctx.expectError(.invalidRequest, "choosing key \(key), below the next key 4") {
                        _ = try ctx.store.save(inserted: samples(["x"], ctx), firstKeys: ["Sample": key])
                    }
                    try ctx.check(error.entity == "Sample", "the error names the entity: \(error)")
                }
                try ctx.expectUnchanged(before, "refused choices")
                let next = samples(["d"], ctx)
                try ctx.checkEqual(try keys(try ctx.store.save(inserted: next, firstKeys: ["Sample": 4]), next), [4], "choosing the next key")
            },
            c("per-entity-with-references", "Choices are per entity: a save inserting several entities takes each chosen first key, an entity without a choice its next key, and references between the inserts land on the chosen keys.") { ctx in
                let library = ctx.new("Library", ["name": "Central"])
                let books = (0..<2).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(library.id)]) }
                let chapter = ctx.new("Chapter", ["title": "One"], ["book": .toOne(books[1].id)])
                let result = try ctx.store.save(inserted: books + [library, chapter], firstKeys: ["Library": 7, "Book": 20])
                try ctx.checkEqual(try keys(result, books + [library, chapter]), [20, 21, 7, 1], "keys of two books, the library and a chapter without a choice")
                try ctx.checkEqual(try ctx.get(id(ctx, "Book", 21)).target("library"), id(ctx, "Library", 7), "book 21's library")
                try ctx.checkEqual(try ctx.get(id(ctx, "Library", 7)).targets("books"), [id(ctx, "Book", 20), id(ctx, "Book", 21)], "library 7's books")
            },
            c("temporary-number-names-no-record", "A temporary identifier never names the stored record whose key equals its number: updating or deleting it is unknownIdentifier and the record is unchanged.") { ctx in
                let ghost = ctx.new("Sample", ["label": "ghost"])
                let held = samples(["held"], ctx)
                try ctx.checkEqual(try keys(try ctx.store.save(inserted: held, firstKeys: ["Sample": ghost.id.primaryKey]), held), [ghost.id.primaryKey], "key chosen as the temporary's number")
                let before = try ctx.store.fetch(FetchDescriptor(entity: "Sample"))
                var renamed = ghost
                renamed["label"] = "overwritten"
                try ctx.expectError(.unknownIdentifier, "update of temporary \(ghost.id)") { try ctx.save(updated: [renamed]) }
                try ctx.expectError(.unknownIdentifier, "delete of temporary \(ghost.id)") { try ctx.save(deleted: [ghost]) }
                try ctx.expectUnchanged(before, "saves naming a temporary identifier")
            },
            c("survives-reopen", requires: .persistence, "After reopen the records keep their chosen keys and the next insert goes on after the highest.") { ctx in
                let chosen = samples(["a", "b"], ctx)
                _ = try ctx.store.save(inserted: chosen, firstKeys: ["Sample": 100])
                try ctx.reopen()
                try ctx.checkEqual(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Sample")).map(\.primaryKey), [100, 101], "keys after reopen")
                let after = samples(["c"], ctx)
                try ctx.checkEqual(try keys(try ctx.save(inserted: after), after), [102], "key of the next insert after reopen")
            },
        ]
    }()
}

/// What the chosen-key cases share.
enum ChosenKeyHelpers {
    /// The keys a save gave `records`, in order.
    @Sendable static func keys(_ result: SuiteSaveResult, _ records: [SuiteRecord]) throws -> [Int64] {
        try records.map { record in
            guard let id = result.remapped[record.id] else { throw CaseFailure(message: "No permanent identifier for inserted \(record.id).") }
            return id.primaryKey
        }
    }

    /// New `Sample`s with these labels.
    @Sendable static func samples(_ labels: [String], _ ctx: CaseContext) -> [SuiteRecord] { labels.map { ctx.new("Sample", ["label": .string($0)]) } }

    /// The identifier of `entity` `key` in the case's store.
    @Sendable static func id(_ ctx: CaseContext, _ entity: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: entity, primaryKey: key)
    }
}
