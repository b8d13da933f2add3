import Strata

extension ConformanceSuite {
    /// Interactions inside one save: records inserted and updated together, lists naming a target
    /// twice, key counters after failed saves, other stores' identifiers, ordered positions after
    /// removals, and unique values held back while a save runs.
    static let saveInteractionCases: [ConformanceCase] = {
        let ids = ConformanceCategory.identifiers.cases(requiring: [])
        let rel = ConformanceCategory.relationships.cases(requiring: [])
        let uni = ConformanceCategory.unique.cases(requiring: [])
        let del = ConformanceCategory.deleteRules.cases(requiring: [])
        return [
            uni("update-collides-with-pending-insert", "An update into the value a record inserted by the same save takes fails; the error names the updated record (lowest key, neither held the value before), then the insert.") { ctx in
                let a = try ctx.insert(ctx.new("Library", ["name": "A"]))[0]
                let before = try ctx.everything()
                var renamed = try ctx.get(a)
                renamed["name"] = "B"
                let newB = ctx.new("Library", ["name": "B"])
                let error = try ctx.expectError(.uniqueConstraintViolation, "inserting Library B while renaming Library A to B") {
                    try ctx.save(inserted: [newB], updated: [renamed])
                }
                try ctx.checkEqual(error.identifiers, [a, newB.id], "the identifiers the error names (collided with, then offender)")
                try ctx.expectUnchanged(before, "a save whose update collided with its own insert")
            },
            uni("insert-takes-value-freed-by-update", "A value an update gives up is free for an insert of the same save, and a rotation of values among three records is no collision.") { ctx in
                let l = try ctx.insert(ctx.new("Library", ["name": "x"]), ctx.new("Library", ["name": "y"]), ctx.new("Library", ["name": "z"]))
                var a = try ctx.get(l[0]), b = try ctx.get(l[1]), c = try ctx.get(l[2])
                a["name"] = "y"; b["name"] = "z"; c["name"] = "w"
                try ctx.save(inserted: [ctx.new("Library", ["name": "x"])], updated: [a, b, c])
                let names = try ctx.fetch("Library", sort: [SortKey("name")]).map { $0["name"].string ?? "?" }
                try ctx.checkEqual(names, ["w", "x", "y", "z"], "library names after renaming x→y, y→z, z→w and inserting x")
            },
            ids("update-or-delete-of-pending-insert-rejected", "An update or delete naming a record inserted by the same save (by its temporary identifier or the key it would get) is unknownIdentifier, and nothing is saved.") { ctx in
                let first = try ctx.insert(ctx.new("Library", ["name": "Stored"]))[0]
                let before = try ctx.everything()
                let fresh = ctx.new("Library", ["name": "Fresh"])
                let forged = PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Library", primaryKey: first.primaryKey + 1)
                var forgedRecord = fresh
                forgedRecord.id = forged
                try ctx.expectError(.unknownIdentifier, "updating Library Fresh by its temporary identifier in the save that inserts it") { try ctx.save(inserted: [fresh], updated: [fresh]) }
                try ctx.expectError(.unknownIdentifier, "deleting Library Fresh by its temporary identifier in the save that inserts it") { try ctx.save(inserted: [fresh], deleted: [fresh]) }
                try ctx.expectError(.unknownIdentifier, "updating the key Library Fresh would get, in the save that inserts it") { try ctx.save(inserted: [fresh], updated: [forgedRecord]) }
                try ctx.expectError(.unknownIdentifier, "deleting the key Library Fresh would get, in the save that inserts it") { try ctx.save(inserted: [fresh], deleted: [forgedRecord]) }
                try ctx.expectUnchanged(before, "saves naming their own inserts")
            },
            ids("failed-save-consumes-no-keys", section: "§1 Identifiers, §5 Atomicity", "A failed save consumes no primary keys: the next insert gets the key it would have got had the failed save never run, also after reopen.") { ctx in
                let k1 = try ctx.insert(ctx.new("Sample", ["label": "first"]))[0].primaryKey
                let k2 = try ctx.insert(ctx.new("Sample", ["label": "second"]))[0].primaryKey
                try ctx.insert(ctx.new("Tag", ["name": "taken"]))
                let step = k2 - k1
                try ctx.expectError(.uniqueConstraintViolation, "three samples saved with a colliding tag") {
                    try ctx.save(inserted: (0..<3).map { ctx.new("Sample", ["label": .string("lost \($0)")]) } + [ctx.new("Tag", ["name": "taken"])])
                }
                let k3 = try ctx.insert(ctx.new("Sample", ["label": "third"]))[0].primaryKey
                try ctx.checkEqual(k3, k2 + step, "the key of Sample third after a failed save of three samples (keys so far \(k1), \(k2))")
                if ctx.store.capabilities.contains(.persistence) {
                    try ctx.expectError(.uniqueConstraintViolation, "another failing save") {
                        try ctx.save(inserted: [ctx.new("Sample", ["label": "lost"]), ctx.new("Tag", ["name": "taken"])])
                    }
                    try ctx.reopen()
                    let k4 = try ctx.insert(ctx.new("Sample", ["label": "fourth"]))[0].primaryKey
                    try ctx.checkEqual(k4, k3 + step, "the key of Sample fourth after a failed save and a reopen")
                }
            },
            ids("foreign-update-delete-fetch", "Another store's identifiers are rejected in updates and deletes (unknownIdentifier) and match nothing in fetches.") { ctx in
                let other = try ctx.openOther()
                let lib = ctx.new("Library", ["name": "Elsewhere"])
                let foreign = try other.save(inserted: [lib], updated: [], deleted: []).remapped[lib.id]!
                let mine = try ctx.insert(ctx.new("Library", ["name": "Here"]))[0]
                let before = try ctx.everything()
                var update = try ctx.get(mine)
                update.id = foreign
                update["name"] = "Renamed"
                try ctx.expectError(.unknownIdentifier, "updating the other store's Library Elsewhere") { try ctx.save(updated: [update]) }
                try ctx.expectError(.unknownIdentifier, "deleting the other store's Library Elsewhere") { try ctx.save(deleted: [update]) }
                try ctx.expectError(.unknownIdentifier, "a book of this store in the other store's Library Elsewhere") {
                    try ctx.insert(ctx.new("Book", ["title": "X"], ["library": .toOne(foreign)]))
                }
                try ctx.expectUnchanged(before, "saves naming another store's record")
                try ctx.checkEqual(try ctx.fetch("Library", .identifierIn([foreign])).map(\.id), [], "a fetch by the other store's identifier")
                try ctx.checkEqual(try ctx.fetch("Library", .identifierIn([foreign, mine])).map(\.id), [mine], "a fetch by both stores' identifiers")
                try ctx.checkEqual(try ctx.count("Book", .targetIs("library", foreign)), 0, "books whose library is the other store's")
            },
            rel("duplicate-targets-keep-first", "A to-many list that names a target twice keeps its first occurrence; counts and bounds count distinct targets.") { ctx in
                let s = (0..<3).map { ctx.new("Shelf", ["label": .string("s\($0)")]) }
                let lib = ctx.new("Library", ["name": "L"], ["shelves": .toMany([s[0].id, s[1].id, s[0].id, s[2].id, s[1].id])])
                let saved = try ctx.insert([lib] + s)
                try ctx.checkEqual(try ctx.get(saved[0]).targets("shelves"), [saved[1], saved[2], saved[3]], "shelves of L written as [s0, s1, s0, s2, s1]")
                let books = (0..<3).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(saved[0])]) }
                let bookIDs = try ctx.insert(books)
                var shelf = try ctx.get(saved[1])
                shelf.set("books", to: [bookIDs[0], bookIDs[0], bookIDs[1], bookIDs[2], bookIDs[2]])
                try ctx.save(updated: [shelf])  // 3 distinct books: within maxCount 3
                try ctx.checkEqual(try ctx.get(saved[1]).targets("books").sorted(), bookIDs.sorted(), "books of shelf s0 written as [b0, b0, b1, b2, b2]")
                let players = (0..<2).map { ctx.new("Player", ["name": .string("p\($0)")]) }
                let team = ctx.new("Team", ["name": "T"], ["members": .toMany([players[0].id, players[0].id, players[0].id, players[1].id])])
                let t = try ctx.insert([team] + players)
                try ctx.checkEqual(try ctx.get(t[0]).targets("members").sorted(), [t[1], t[2]].sorted(), "members of team T written as [p0, p0, p0, p1]")
                try ctx.checkEqual(try ctx.get(t[1]).target("team"), t[0], "team of player p0")
            },
            rel("ordered-positions-after-removals", "After members leave an ordered to-many, a member added from the to-one side goes after the remaining ones; likewise on an ordered many-to-many.") { ctx in
                let s = (0..<3).map { ctx.new("Shelf", ["label": .string("s\($0)")]) }
                let lib = ctx.new("Library", ["name": "L"], ["shelves": .toMany(s.map(\.id))])
                let saved = try ctx.insert([lib] + s)
                var s0 = try ctx.get(saved[1]), s1 = try ctx.get(saved[2])
                s0.set("library", to: nil as PersistentIdentifier?)
                s1.set("library", to: nil as PersistentIdentifier?)
                try ctx.save(updated: [s0, s1])
                let s3 = try ctx.insert(ctx.new("Shelf", ["label": "s3"], ["library": .toOne(saved[0])]))[0]
                try ctx.checkEqual(try ctx.get(saved[0]).targets("shelves"), [saved[3], s3], "shelves of L after s0 and s1 left and s3 was added from its side")
                let books = try ctx.insert((0..<4).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(saved[0])]) })
                let author = try ctx.insert(ctx.new("Author", ["name": "Fan"], ["favorites": .toMany(Array(books[0..<3]))]))[0]
                var fan = try ctx.get(author)
                fan.set("favorites", to: [books[2]])
                try ctx.save(updated: [fan])
                var b3 = try ctx.get(books[3])
                b3.set("fans", to: [author])
                try ctx.save(updated: [b3])
                try ctx.checkEqual(try ctx.get(author).targets("favorites"), [books[2], books[3]], "favorites of Author Fan after b0, b1 left and b3 added from the book's side")
                if ctx.store.capabilities.contains(.persistence) {
                    try ctx.reopen()
                    try ctx.checkEqual(try ctx.get(saved[0]).targets("shelves"), [saved[3], s3], "shelves of L after reopen")
                    try ctx.checkEqual(try ctx.get(author).targets("favorites"), [books[2], books[3]], "favorites of Fan after reopen")
                }
            },
            rel("later-write-wins-over-held-unique", "When one save moves two same-titled books into one library and then each to its own, the later writes win (no collision, nothing stale restored).") { ctx in
                let libs = try ctx.insert(["A", "B", "C", "D", "E"].map { ctx.new("Library", ["name": .string($0)]) })
                let n = try ctx.insert(ctx.new("Book", ["title": "x"], ["library": .toOne(libs[3])]), ctx.new("Book", ["title": "x"], ["library": .toOne(libs[4])]))
                var a = try ctx.get(libs[0])
                a.set("books", to: [n[0], n[1]])
                var n1 = try ctx.get(n[0]), n2 = try ctx.get(n[1])
                n1.set("library", to: libs[1])
                n2.set("library", to: libs[2])
                try ctx.save(updated: [a, n1, n2])
                for reopened in [false, true] where !reopened || ctx.store.capabilities.contains(.persistence) {
                    if reopened { try ctx.reopen() }
                    let when = reopened ? " after reopen" : ""
                    try ctx.checkEqual(try ctx.get(n[0]).target("library"), libs[1], "library of book x (first, from D)\(when)")
                    try ctx.checkEqual(try ctx.get(n[1]).target("library"), libs[2], "library of book x (second, from E)\(when)")
                    try ctx.checkEqual(try ctx.get(libs[0]).targets("books"), [], "books of Library A\(when)")
                    try ctx.checkEqual(try ctx.get(libs[2]).targets("books"), [n[1]], "books of Library C\(when)")
                }
            },
            rel("insert-moved-by-update-no-collision", "A book inserted into a library where its title is taken, and moved elsewhere by an update of the same save, is saved where the update put it.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                let n1 = try ctx.insert(ctx.new("Book", ["title": "x"], ["library": .toOne(libs[0])]))[0]
                let n2 = ctx.new("Book", ["title": "x"], ["library": .toOne(libs[0])])
                var b = try ctx.get(libs[1])
                b.set("books", to: [n2.id])
                let result = try ctx.save(inserted: [n2], updated: [b])
                guard let id = result.remapped[n2.id] else { throw CaseFailure(message: "No permanent identifier for the inserted book x.") }
                try ctx.checkEqual(try ctx.get(id).target("library"), libs[1], "library of the inserted book x")
                try ctx.checkEqual(try ctx.get(libs[0]).targets("books"), [n1], "books of Library A")
            },
            rel("insert-own-to-one-wins-over-earlier-list", "An insert's own to-one, later in the request than another insert's list that named it, wins: both sides agree on the later write.") { ctx in
                let old = try ctx.insert(ctx.new("Library", ["name": "Old"]))[0]
                let book = ctx.new("Book", ["title": "b"], ["library": .toOne(old)])
                let fresh = ctx.new("Library", ["name": "New"], ["books": .toMany([book.id])])
                let result = try ctx.save(inserted: [fresh, book])
                guard let b = result.remapped[book.id], let n = result.remapped[fresh.id] else { throw CaseFailure(message: "No permanent identifiers for the inserted library New and book b.") }
                try ctx.checkEqual(try ctx.get(b).target("library"), old, "library of book b (its own write, later than New's list)")
                try ctx.checkEqual(try ctx.get(old).targets("books"), [b], "books of Library Old")
                try ctx.checkEqual(try ctx.get(n).targets("books"), [], "books of Library New")
            },
            rel("own-to-one-keeps-request-order", "An insert's own to-one that wins over an earlier list joins the ordered list at its place in request order: before the inserts that follow it.") { ctx in
                let old = try ctx.insert(ctx.new("Library", ["name": "Old"]))[0]
                let first = try ctx.insert(ctx.new("Shelf", ["label": "S1"], ["library": .toOne(old)]))[0]
                let a = ctx.new("Shelf", ["label": "A"], ["library": .toOne(old)]), b = ctx.new("Shelf", ["label": "B"], ["library": .toOne(old)])
                let fresh = ctx.new("Library", ["name": "New"], ["shelves": .toMany([a.id])])
                let result = try ctx.save(inserted: [fresh, a, b])
                guard let sa = result.remapped[a.id], let sb = result.remapped[b.id], let n = result.remapped[fresh.id] else { throw CaseFailure(message: "No permanent identifiers for the inserted library New and shelves A, B.") }
                try ctx.checkEqual(try ctx.get(old).targets("shelves"), [first, sa, sb], "shelves of Library Old (S1 stored; A's own write, later than New's list, then B)")
                try ctx.checkEqual(try ctx.get(n).targets("shelves"), [], "shelves of Library New")
                try ctx.reopen()
                try ctx.checkEqual(try ctx.get(old).targets("shelves"), [first, sa, sb], "shelves of Library Old after reopen")
            },
            del("cascade-sees-record-moved-in", "A delete's cascade reaches a record the same save moved into the deleted parent, even when its unique values were held back during the save.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "D"]))
                let n = try ctx.insert(ctx.new("Book", ["title": "x"], ["library": .toOne(libs[0])]), ctx.new("Book", ["title": "x"], ["library": .toOne(libs[1])]))
                var moved = try ctx.get(n[1])
                moved.set("library", to: libs[0])
                let result = try ctx.save(updated: [moved], deleted: [try ctx.get(libs[0])])
                try ctx.checkEqual(result.deleted, Set([libs[0], n[0], n[1]]), "deleted identifiers (Library A, both books x)")
                try ctx.checkEqual(try ctx.count("Book"), 0, "books left")
                try ctx.checkEqual(try ctx.get(libs[1]).targets("books"), [], "books of Library D")
            },
            rel("result-reports-own-changes", "changedSnapshots lists a written record the store changed beyond what was sent (a record made its own mentor), and not one whose unordered list merely came back in another order.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let books = try ctx.insert(ctx.new("Book", ["title": "b1"], ["library": .toOne(lib)]), ctx.new("Book", ["title": "b2"], ["library": .toOne(lib)]))
                let ids = try ctx.insert(ctx.new("Author", ["name": "Self"]), ctx.new("Author", ["name": "Reader"], ["books": .toMany(books)]))
                var me = try ctx.get(ids[0])
                me.set("mentor", to: ids[0])
                var reader = try ctx.get(ids[1])
                reader.set("books", to: Array(reader.targets("books").reversed()))
                reader["country"] = "FR"
                let result = try ctx.save(updated: [me, reader])
                guard let reported = result.changed[ids[0]] else {
                    throw CaseFailure(message: "Author Self, made its own mentor, is missing from changedSnapshots (its students now list itself); reported: \(ctx.names(Array(result.changed.keys)))")
                }
                try ctx.checkEqual(reported.targets("students"), [ids[0]], "students of Author Self as reported")
                try ctx.check(result.changed[ids[1]] == nil, "Author Reader is in changedSnapshots although only its unordered books came back in another order.")
            },
        ]
    }()
}
