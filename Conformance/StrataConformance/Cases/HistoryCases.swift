import Strata

extension ConformanceSuite {
    static let historyCases: [ConformanceCase] = {
        let c = ConformanceCategory.history.cases(requiring: .history)
        return [
            c("one-transaction-per-save", "Each committed save records one transaction; tokens increase in commit order.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "a"]))[0]
                var r = try ctx.get(id)
                r["label"] = "b"
                try ctx.save(updated: [r])
                try ctx.delete(id)
                let history = try ctx.store.fetchHistory(HistoryQuery())
                try ctx.checkEqual(history.map { $0.changes.map(\.kind) }, [[.insert], [.update], [.delete]], "changes of the three transactions")
                try ctx.check(history.map(\.token) == history.map(\.token).sorted() && Set(history.map(\.token)).count == 3, "tokens \(history.map(\.token)) are not increasing")
                try ctx.check(zip(history, history.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp }, "timestamps go backwards")
                try ctx.check(history.allSatisfy { $0.changes.allSatisfy { $0.identifier == id && !$0.isStoreInitiated } }, "the changes do not name \(ctx.name(id)) as requested")
            },
            c("update-old-and-new-values", "An update records exactly the changed attributes with their old and new values.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "old", "int": 1]))[0]
                var r = try ctx.get(id)
                r["label"] = "new"
                r["count"] = 8
                try ctx.save(updated: [r])
                let update = try ctx.store.fetchHistory(HistoryQuery()).last?.changes.first
                try ctx.checkEqual(update?.kind, .update, "kind of the update's change")
                try ctx.checkEqual(update?.attributes.sorted { $0.name < $1.name }, [
                    HistoryAttributeChange("count", old: 7, new: 8), HistoryAttributeChange("label", old: "old", new: "new"),
                ], "changed attributes")
                try ctx.checkEqual(update?.relationships.isEmpty, true, "changed relationships")
            },
            c("delete-tombstone", "A delete records the deleted record's last attribute values.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "gone", "int": 42]))[0]
                try ctx.delete(id)
                let delete = try ctx.store.fetchHistory(HistoryQuery()).last?.changes.first
                try ctx.checkEqual(delete?.kind, .delete, "kind of the delete's change")
                try ctx.checkEqual(delete?.tombstone["label"], "gone", "tombstone label")
                try ctx.checkEqual(delete?.tombstone["int"], 42, "tombstone int")
            },
            c("cascade-in-same-transaction", "Cascaded deletes are in the transaction of the delete that caused them, as the store's own, each with its own tombstone.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "T"], ["library": .toOne(lib.id)])
                let other = ctx.new("Book", ["title": "U"], ["library": .toOne(lib.id)])
                let ids = try ctx.insert(lib, book, other)
                try ctx.delete(ids[0])
                let last = try ctx.store.fetchHistory(HistoryQuery()).last
                let deletes = (last?.changes ?? []).filter { $0.kind == .delete }
                try ctx.checkEqual(Set(deletes.map(\.identifier)), Set(ids), "records deleted in the transaction")
                try ctx.checkEqual(deletes.first { $0.identifier == ids[1] }?.isStoreInitiated, true, "the cascaded book is the store's change")
                try ctx.checkEqual(deletes.first { $0.identifier == ids[0] }?.isStoreInitiated, false, "the library is the request's change")
                // Tombstones of several records and entities in one save (a backend may read them a set at a time).
                try ctx.checkEqual(deletes.first { $0.identifier == ids[0] }?.tombstone["name"], "L", "the library's tombstone")
                try ctx.checkEqual(deletes.first { $0.identifier == ids[1] }?.tombstone["title"], "T", "the first book's tombstone")
                try ctx.checkEqual(deletes.first { $0.identifier == ids[2] }?.tombstone["title"], "U", "the second book's tombstone")
            },
            c("inverse-in-same-transaction", "An inverse the store maintained is an update of the save that caused it, with old and new targets.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let book = try ctx.insert(ctx.new("Book", ["title": "T"], ["library": .toOne(lib)]))[0]
                let last = try ctx.store.fetchHistory(HistoryQuery()).last
                let update = last?.changes.first { $0.identifier == lib }
                try ctx.checkEqual(update?.kind, .update, "the library's change in the book's transaction")
                try ctx.checkEqual(update?.isStoreInitiated, true, "the library's change is the store's")
                try ctx.checkEqual(update?.relationships, [HistoryRelationshipChange("books", old: .toMany([]), new: .toMany([book]))], "the library's changed relationships")
            },
            c("list-positions", "Reordering an ordered list records the old and new order.") { ctx in
                let shelves = (0..<3).map { ctx.new("Shelf", ["label": .string("s\($0)")]) }
                var lib = ctx.new("Library", ["name": "L"])
                lib.set("shelves", to: shelves.map(\.id))
                let ids = try ctx.insert([lib] + shelves)
                var l = try ctx.get(ids[0])
                l.set("shelves", to: [ids[3], ids[1], ids[2]])
                try ctx.save(updated: [l])
                let update = try ctx.store.fetchHistory(HistoryQuery()).last?.changes.first { $0.identifier == ids[0] }
                try ctx.checkEqual(update?.relationships, [HistoryRelationshipChange("shelves", old: .toMany(Array(ids[1...3])), new: .toMany([ids[3], ids[1], ids[2]]))], "the reorder's change")
            },
            c("unchanged-update-records-nothing", "An update that changes no stored value records no change.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "same"]))[0]
                try ctx.save(updated: [try ctx.get(id)])
                let history = try ctx.store.fetchHistory(HistoryQuery())
                try ctx.check(history.allSatisfy { $0.changes.allSatisfy { $0.kind != .update } }, "an unchanged record was recorded as updated: \(history)")
            },
            c("failed-save-records-nothing", "A failed save records no transaction.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "L"]))
                let before = try ctx.store.fetchHistory(HistoryQuery())
                _ = try ctx.expectError(.uniqueConstraintViolation, "a duplicate library") { try ctx.insert(ctx.new("Library", ["name": "L"])) }
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery()), before, "history after the failed save")
            },
            c("authors-and-queries", "Transactions keep their author; fetches filter by author, bound by tokens and limit (0: none), oldest first.") { ctx in
                for (n, author) in ["importer", "ui", nil, "importer"].enumerated() {
                    _ = try ctx.store.save(inserted: [ctx.new("Sample", ["label": .string("s\(n)")])], updated: [], deleted: [], updatedProperties: [:], author: author)
                }
                let all = try ctx.store.fetchHistory(HistoryQuery())
                try ctx.checkEqual(all.map(\.author), ["importer", "ui", nil, "importer"], "authors")
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery(authors: ["importer"])).map(\.token), [all[0].token, all[3].token], "importer's transactions")
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery(after: all[0].token)).map(\.token), all[1...].map(\.token), "after the first")
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery(through: all[1].token)).map(\.token), all[...1].map(\.token), "through the second")
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery(after: all[0].token, limit: 2)).map(\.token), all[1...2].map(\.token), "two after the first")
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery(limit: 0)).map(\.token), [], "a limit of 0 gives none")
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery(authors: ["ui"], limit: 1)).map(\.token), [all[1].token], "the limit counts what the author filter kept")
            },
            c("delete-history", "deleteHistory removes transactions through a token; an older token then fails with historyTokenExpired.") { ctx in
                for n in 0..<3 { try ctx.insert(ctx.new("Sample", ["label": .string("s\(n)")])) }
                let all = try ctx.store.fetchHistory(HistoryQuery())
                try ctx.store.deleteHistory(through: all[1].token)
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery()).map(\.token), [all[2].token], "kept after the delete")
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery(after: all[1].token)).map(\.token), [all[2].token], "after the deleted token")
                _ = try ctx.expectError(.historyTokenExpired, "a fetch after an expired token") { _ = try ctx.store.fetchHistory(HistoryQuery(after: all[0].token)) }
                try ctx.insert(ctx.new("Sample", ["label": "later"]))
                try ctx.check(try ctx.store.fetchHistory(HistoryQuery()).map(\.token).last! > all[2].token, "a later save does not get a higher token")
            },
            c("two-writers-number-apart", "Two instances of one location that both save never give two transactions one number; each sees every transaction (a backend that refuses the second instance passes).") { ctx in
                try ctx.insert(ctx.new("Sample", ["label": "a0"]))
                let second: any SuiteStore
                do {
                    second = try ctx.openSameLocation()
                } catch let error as StrataError where error.code == .storeLocked {
                    return
                }
                for n in 1...2 {
                    _ = try second.save(inserted: [ctx.new("Sample", ["label": .string("b\(n)")])], updated: [], deleted: [], updatedProperties: [:], author: "second")
                    _ = try ctx.store.save(inserted: [ctx.new("Sample", ["label": .string("a\(n)")])], updated: [], deleted: [], updatedProperties: [:], author: "first")
                }
                let history = try ctx.store.fetchHistory(HistoryQuery())
                try ctx.checkEqual(history.map(\.author), [nil, "second", "first", "second", "first"], "authors in commit order")
                let numbers = history.map(\.token.transaction)
                try ctx.checkEqual(numbers, Array(numbers[0]..<(numbers[0] + 5)), "transaction numbers (one higher per transaction, none shared)")
                try ctx.checkEqual(try second.fetchHistory(HistoryQuery()), history, "the second instance's history")
            },
            c("numbers-not-reused-after-delete", "After deleteHistory removed every transaction, the next one still gets the next number, through the instance that deleted, another and after reopen; a failed save takes none.") { ctx in
                for n in 0..<3 { try ctx.insert(ctx.new("Sample", ["label": .string("s\(n)")])) }
                var newest = try ctx.store.fetchHistory(HistoryQuery()).last!.token.transaction
                func next(_ what: String, _ save: () throws -> Void) throws {
                    try ctx.store.deleteHistory(through: try ctx.store.fetchHistory(HistoryQuery()).last!.token)
                    try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery()).count, 0, "transactions kept after deleting through the newest")
                    try save()
                    let numbers = try ctx.store.fetchHistory(HistoryQuery()).map(\.token.transaction)
                    try ctx.checkEqual(numbers, [newest + 1], "the number of \(what) after deleting every transaction through \(newest)")
                    newest += 1
                }
                try next("the next save") { try ctx.insert(ctx.new("Sample", ["label": "after"])) }
                try next("a save after a failed one") {
                    _ = try ctx.expectError(.uniqueConstraintViolation, "a duplicate library") {
                        try ctx.insert(ctx.new("Library", ["name": "L"]), ctx.new("Library", ["name": "L"]))
                    }
                    try ctx.insert(ctx.new("Library", ["name": "L"]))
                }
                if let second = try? ctx.openSameLocation() {
                    try next("a save through a second instance") { _ = try second.save(inserted: [ctx.new("Sample", ["label": "second"])], updated: [], deleted: []) }
                }
                if ctx.store.capabilities.contains(.persistence) {
                    try next("the first save after reopen") {
                        try ctx.reopen()
                        try ctx.insert(ctx.new("Sample", ["label": "reopened"]))
                    }
                }
            },
            c("survives-reopen", requires: .persistence, "History, tokens and the deletion horizon survive reopen; later saves get higher tokens.") { ctx in
                for n in 0..<3 { try ctx.insert(ctx.new("Sample", ["label": .string("s\(n)")])) }
                try ctx.store.deleteHistory(through: try ctx.store.fetchHistory(HistoryQuery())[0].token)
                let before = try ctx.store.fetchHistory(HistoryQuery())
                try ctx.reopen()
                try ctx.checkEqual(try ctx.store.fetchHistory(HistoryQuery()), before, "history after reopen")
                try ctx.insert(ctx.new("Sample", ["label": "after"]))
                let after = try ctx.store.fetchHistory(HistoryQuery())
                try ctx.check(after.count == 3 && after[2].token > before[1].token, "the save after reopen did not get a higher token: \(after.map(\.token))")
                let expired = StoreHistoryToken(storeIdentifier: ctx.store.identifier, transaction: before[0].token.transaction - 2)
                _ = try ctx.expectError(.historyTokenExpired, "a fetch after a token deleted before reopen") { _ = try ctx.store.fetchHistory(HistoryQuery(after: expired)) }
            },
        ]
    }()
}
