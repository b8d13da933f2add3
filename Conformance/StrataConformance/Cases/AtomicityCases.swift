import Strata

extension ConformanceSuite {
    static let atomicityCases: [ConformanceCase] = {
        let c = ConformanceCategory.atomicity.cases(requiring: [])
        @Sendable func seed(_ ctx: CaseContext) throws -> [PersistentIdentifier] {
            let lib = ctx.new("Library", ["name": "Seed"])
            let books = (0..<20).map { ctx.new("Book", ["title": .string("seed\($0)")], ["library": .toOne(lib.id)]) }
            return try ctx.insert([lib] + books)
        }
        return [
            c("failure-in-large-insert", "A unique failure in the middle of 2,000 inserts changes nothing.") { ctx in
                let ids = try seed(ctx)
                let before = try ctx.everything()
                var records = (0..<2_000).map { ctx.new("Book", ["title": .string("bulk\($0)")], ["library": .toOne(ids[0])]) }
                records[1_000]["title"] = "seed3"
                try ctx.expectError(.uniqueConstraintViolation, "bulk insert with one duplicate title in the middle") { try ctx.save(inserted: records) }
                try ctx.expectUnchanged(before, "failed bulk insert")
            },
            c("failure-in-mixed-save", "A failure after updates and deletes in the same save undoes all of them.") { ctx in
                let ids = try seed(ctx)
                let before = try ctx.everything()
                var updates = try ids[1...10].map { try ctx.get($0) }
                for i in updates.indices { updates[i]["pages"] = .int(Int64(100 + i)) }
                let deletes = try ids[11...15].map { try ctx.get($0) }
                let bad = ctx.new("Book", ["title": "no library"])
                try ctx.expectError(.missingRequiredRelationship, "a save whose last insert lacks its required library") {
                    try ctx.save(inserted: [ctx.new("Library", ["name": "New"]), bad], updated: updates, deleted: deletes)
                }
                try ctx.expectUnchanged(before, "failed mixed save")
            },
            c("failed-cascade-changes-nothing", "A delete whose cascade reaches a deny with outside targets leaves every cascaded record in place.") { ctx in
                let ids = try seed(ctx)
                let outside = try ctx.insert(ctx.new("Library", ["name": "Outside"]))[0]
                var moved = try ids[6...10].map { try ctx.get($0) }
                for i in moved.indices { moved[i].set("library", to: outside) }
                try ctx.save(updated: moved)
                try ctx.insert(ctx.new("Shelf", ["label": "S"], ["library": .toOne(outside), "books": .toMany([ids[5]])]))
                let before = try ctx.everything()
                try ctx.expectError(.deleteDenied, "deleting Outside, whose cascaded shelf holds a Seed book") { try ctx.delete(outside) }
                try ctx.expectUnchanged(before, "denied cascade")
            },
            c("failure-keeps-inverses", "A failed save leaves both sides of every relationship as they were.") { ctx in
                let ids = try seed(ctx)
                let other = try ctx.insert(ctx.new("Library", ["name": "Other"]))[0]
                let before = try ctx.everything()
                var moves = try ids[1...5].map { try ctx.get($0) }
                for i in moves.indices { moves[i].set("library", to: other) }
                try ctx.expectError(.uniqueConstraintViolation, "moves plus a duplicate library") {
                    try ctx.save(inserted: [ctx.new("Library", ["name": "Seed"])], updated: moves)
                }
                try ctx.expectUnchanged(before, "failed moves")
            },
            c("store-usable-after-failure", "After a failed save the next good save works and sees the old state.") { ctx in
                let ids = try seed(ctx)
                _ = try? ctx.insert(ctx.new("Library", ["name": "Seed"]))
                try ctx.insert(ctx.new("Book", ["title": "after"], ["library": .toOne(ids[0])]))
                try ctx.checkEqual(try ctx.get(ids[0]).targets("books").count, 21, "library.books")
            },
        ]
    }()
}
