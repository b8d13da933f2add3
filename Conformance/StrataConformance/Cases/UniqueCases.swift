import Strata

extension ConformanceSuite {
    static let uniqueCases: [ConformanceCase] = {
        let c = ConformanceCategory.unique.cases(requiring: [])
        return [
            c("collision-with-stored", "Inserting a value a stored record holds fails, naming entity, property and that record.") { ctx in
                let first = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "A"]))[0]
                let before = try ctx.everything()
                let error = try ctx.expectError(.uniqueConstraintViolation, "a second library named Central") {
                    try ctx.insert(ctx.new("Library", ["name": "Central", "city": "B"]))
                }
                try ctx.checkEqual(error.entity, "Library", "error entity")
                try ctx.checkEqual(error.properties, ["name"], "error properties")
                try ctx.checkEqual(error.identifiers.first, first, "the identifier collided with")
                try ctx.expectUnchanged(before, "unique collision")
            },
            c("no-silent-overwrite", "After a collision the stored record keeps all its values.") { ctx in
                let first = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "Original"]))[0]
                _ = try? ctx.insert(ctx.new("Library", ["name": "Central", "city": "Intruder"]))
                try ctx.checkEqual(try ctx.get(first)["city"], "Original", "city of the stored record")
                try ctx.checkEqual(try ctx.count("Library"), 1, "libraries")
            },
            c("collision-within-save", "Two snapshots of one save with the same value fail the whole save.") { ctx in
                let a = ctx.new("Library", ["name": "Twin"])
                let b = ctx.new("Library", ["name": "Twin"])
                let error = try ctx.expectError(.uniqueConstraintViolation, "two new libraries named Twin") {
                    try ctx.insert(a, b, ctx.new("Library", ["name": "Other"]))
                }
                try ctx.check(error.identifiers.contains(a.id) || error.identifiers.contains(b.id), "The error names neither colliding snapshot: \(error.identifiers).")
                try ctx.checkEqual(try ctx.count("Library"), 0, "libraries after the failed save")
            },
            c("update-into-collision", "Updating a record into another's value fails and changes nothing.") { ctx in
                let ids = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                let before = try ctx.everything()
                var b = try ctx.get(ids[1])
                b["name"] = "A"
                let error = try ctx.expectError(.uniqueConstraintViolation, "renaming B to A") { try ctx.save(updated: [b]) }
                try ctx.checkEqual(error.identifiers.first, ids[0], "the identifier collided with")
                try ctx.expectUnchanged(before, "update into collision")
            },
            c("update-same-value-ok", "Re-saving a record with its own unique value is not a collision.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "Same"]))[0]
                var r = try ctx.get(id)
                r["city"] = "Changed"
                try ctx.save(updated: [r])
                try ctx.checkEqual(try ctx.get(id)["city"], "Changed", "city")
            },
            c("swap-within-save", "Two records may swap unique values in one save.") { ctx in
                let ids = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                var a = try ctx.get(ids[0]), b = try ctx.get(ids[1])
                a["name"] = "B"
                b["name"] = "A"
                try ctx.save(updated: [a, b])
                try ctx.checkEqual(try ctx.get(ids[0])["name"], "B", "first name")
                try ctx.checkEqual(try ctx.get(ids[1])["name"], "A", "second name")
            },
            c("delete-then-reuse-value", "A value freed by a delete can be inserted in the same save and after.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "Reused"]))[0]
                try ctx.save(inserted: [ctx.new("Library", ["name": "Reused"])], deleted: [try ctx.get(id)])
                try ctx.checkEqual(try ctx.count("Library", .compare("name", .equal, "Reused")), 1, "libraries named Reused")
            },
            c("freed-after-delete", "A value is free again after its holder is deleted.") { ctx in
                let id = try ctx.insert(ctx.new("Tag", ["name": "t"]))[0]
                try ctx.delete(id)
                try ctx.insert(ctx.new("Tag", ["name": "t"]))
                try ctx.checkEqual(try ctx.count("Tag"), 1, "tags")
            },
            c("nil-never-collides", "nil in a unique attribute never collides.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let books = (0..<3).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(lib.id)]) }
                try ctx.insert([lib] + books)
                try ctx.checkEqual(try ctx.count("Book", .isNil("isbn")), 3, "books with nil isbn")
            },
            c("optional-unique-collides", "A non-nil value of an optional unique attribute collides.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let a = ctx.new("Book", ["title": "a", "isbn": "978"], ["library": .toOne(lib.id)])
                let ids = try ctx.insert(lib, a)
                let error = try ctx.expectError(.uniqueConstraintViolation, "a second book with isbn 978") {
                    try ctx.insert(ctx.new("Book", ["title": "b", "isbn": "978"], ["library": .toOne(ids[0])]))
                }
                try ctx.checkEqual(error.properties, ["isbn"], "error properties")
            },
            c("composite-collision", "A composite constraint collides only when every part is equal.") { ctx in
                let first = try ctx.insert(ctx.new("Author", ["name": "Ann", "country": "FR"]))[0]
                try ctx.insert(ctx.new("Author", ["name": "Ann", "country": "DE"]), ctx.new("Author", ["name": "Bob", "country": "FR"]))
                let error = try ctx.expectError(.uniqueConstraintViolation, "a second Ann from FR") {
                    try ctx.insert(ctx.new("Author", ["name": "Ann", "country": "FR"]))
                }
                try ctx.checkEqual(error.properties, ["name", "country"], "error properties")
                try ctx.checkEqual(error.identifiers.first, first, "the identifier collided with")
            },
            c("composite-nil-never-collides", "A composite with a nil part never collides.") { ctx in
                try ctx.insert(ctx.new("Author", ["name": "Ann"]), ctx.new("Author", ["name": "Ann"]))
                try ctx.insert(ctx.new("Author", ["name": "Ann"]))
                try ctx.checkEqual(try ctx.count("Author"), 3, "authors")
            },
            c("composite-with-relationship", "A composite over a to-one and an attribute: same title in two libraries is fine, twice in one is not.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                try ctx.insert(ctx.new("Book", ["title": "Dune"], ["library": .toOne(libs[0])]), ctx.new("Book", ["title": "Dune"], ["library": .toOne(libs[1])]))
                let error = try ctx.expectError(.uniqueConstraintViolation, "a second Dune in library A") {
                    try ctx.insert(ctx.new("Book", ["title": "Dune"], ["library": .toOne(libs[0])]))
                }
                try ctx.checkEqual(error.properties, ["library", "title"], "error properties")
            },
            c("relationship-change-into-collision", "Moving a record to another parent into a composite collision fails.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                let books = try ctx.insert(ctx.new("Book", ["title": "Dune"], ["library": .toOne(libs[0])]), ctx.new("Book", ["title": "Dune"], ["library": .toOne(libs[1])]))
                var l = try ctx.get(libs[0])
                l.set("books", to: [books[0], books[1]])
                try ctx.expectError(.uniqueConstraintViolation, "library A taking B's Dune") { try ctx.save(updated: [l]) }
                try ctx.checkEqual(try ctx.get(books[1]).target("library"), libs[1], "the second Dune's library")
            },
            c("double-keys-compare-numerically", "A unique Double: −0 collides with +0; NaN, equal to nothing, never collides.") { ctx in
                let zero = try ctx.insert(ctx.new("Reading", ["value": .double(0.0)]))[0]
                let error = try ctx.expectError(.uniqueConstraintViolation, "−0 after +0") { try ctx.insert(ctx.new("Reading", ["value": .double(-0.0)])) }
                try ctx.checkEqual(error.identifiers.first, zero, "the identifier collided with")
                try ctx.insert(ctx.new("Reading", ["value": .double(.nan)]), ctx.new("Reading", ["value": .double(.nan)]))
                try ctx.checkEqual(try ctx.count("Reading"), 3, "readings (one zero, two NaN)")
            },
            c("case-sensitive", "Unique values compare exactly: \"a\" and \"A\" are different.") { ctx in
                try ctx.insert(ctx.new("Tag", ["name": "a"]), ctx.new("Tag", ["name": "A"]))
                try ctx.checkEqual(try ctx.count("Tag"), 2, "tags")
            },
            c("enforced-after-reopen", requires: .persistence, "Constraints hold against records loaded by a reopen.") { ctx in
                let id = try ctx.insert(ctx.new("Tag", ["name": "kept"]))[0]
                try ctx.reopen()
                let error = try ctx.expectError(.uniqueConstraintViolation, "a duplicate after reopen") { try ctx.insert(ctx.new("Tag", ["name": "kept"])) }
                try ctx.checkEqual(error.identifiers.first, id, "the identifier collided with")
            },
        ]
    }()
}
