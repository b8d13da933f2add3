import Strata

extension ConformanceSuite {
    /// Two clients load the same record and save different properties from their own copies.
    static let partialUpdateCases: [ConformanceCase] = {
        let c = ConformanceCategory.partialUpdates.cases(requiring: [])
        return [
            c("writes-listed-only", "Two stale copies saving different attributes both land: each update writes only its listed properties.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "Old"]))[0]
                var first = try ctx.get(id), second = try ctx.get(id)
                first["city"] = "New"
                second["name"] = "Main"
                try ctx.savePartial(first, ["city"])
                try ctx.savePartial(second, ["name"])
                let stored = try ctx.get(id)
                try ctx.checkEqual(stored["name"], "Main", "name written by the second client")
                try ctx.checkEqual(stored["city"], "New", "city written by the first client")
            },
            c("unlisted-relationships-kept", "A stale copy's unlisted relationships are not written: a partial update does not undo links another save made.") { ctx in
                let library = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let book = try ctx.insert(ctx.new("Book", ["title": "B"], ["library": .toOne(library)]))[0]
                var stale = try ctx.get(book)
                let (shelf, author) = try {
                    let ids = try ctx.insert(ctx.new("Shelf", ["label": "S"]), ctx.new("Author", ["name": "A"]))
                    return (ids[0], ids[1])
                }()
                var fresh = try ctx.get(book)
                fresh.set("shelf", to: shelf)
                fresh.set("authors", to: [author])
                try ctx.save(updated: [fresh])
                stale["title"] = "Renamed"
                try ctx.savePartial(stale, ["title"])
                let stored = try ctx.get(book)
                try ctx.checkEqual(stored["title"], "Renamed", "title")
                try ctx.checkEqual(stored.target("shelf"), shelf, "shelf kept")
                try ctx.checkEqual(stored.targets("authors"), [author], "authors kept")
                try ctx.checkEqual(try ctx.get(author).targets("books"), [book], "the author's inverse")
            },
            c("listed-relationship-applied", "A listed relationship is written with its inverse; unlisted attributes of the stale copy are not.") { ctx in
                let library = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let book = try ctx.insert(ctx.new("Book", ["title": "B", "pages": 10], ["library": .toOne(library)]))[0]
                let shelf = try ctx.insert(ctx.new("Shelf", ["label": "S"]))[0]
                var stale = try ctx.get(book)
                var other = try ctx.get(book)
                other["pages"] = 99
                try ctx.savePartial(other, ["pages"])
                stale.set("shelf", to: shelf)
                try ctx.savePartial(stale, ["shelf"])
                let stored = try ctx.get(book)
                try ctx.checkEqual(stored["pages"], 99, "pages written by the other client")
                try ctx.checkEqual(stored.target("shelf"), shelf, "shelf")
                try ctx.checkEqual(try ctx.get(shelf).targets("books"), [book], "the shelf's inverse")
            },
            c("same-property-later-wins", "Without the conflict check, two saves of the same property: the later one wins.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "Old"]))[0]
                var first = try ctx.get(id), second = try ctx.get(id)
                first["city"] = "First"
                second["city"] = "Second"
                try ctx.savePartial(first, ["city"])
                try ctx.savePartial(second, ["city"])
                try ctx.checkEqual(try ctx.get(id)["city"], "Second", "city")
            },
            c("conflict-check-fails", "With the conflict check, a property changed since it was read fails the save with writeConflict, changing nothing.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "Old"]))[0]
                let seen = try ctx.get(id)
                var first = seen, second = seen
                first["city"] = "First"
                try ctx.savePartial(first, ["city"], expecting: seen)
                second["city"] = "Second"
                second["name"] = "Renamed"
                let before = try ctx.everything()
                let error = try ctx.expectError(.writeConflict, "saving a city changed by another save") {
                    try ctx.savePartial(second, ["name", "city"], expecting: seen)
                }
                try ctx.checkEqual(error.entity, "Library", "error entity")
                try ctx.checkEqual(error.properties, ["city"], "error properties")
                try ctx.checkEqual(error.identifiers, [id], "error identifiers")
                try ctx.expectUnchanged(before, "write conflict")
            },
            c("conflict-check-relationships", "The conflict check covers relationships: an unordered to-many compares as a set, a changed one conflicts.") { ctx in
                let library = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let authors = try ctx.insert(ctx.new("Author", ["name": "A"]), ctx.new("Author", ["name": "B"]), ctx.new("Author", ["name": "C"]))
                let book = try ctx.insert(ctx.new("Book", ["title": "T"], ["library": .toOne(library), "authors": .toMany([authors[0], authors[1]])]))[0]
                var seen = try ctx.get(book)
                seen.set("authors", to: [authors[1], authors[0]])  // same set, other order
                var edit = seen
                edit.set("authors", to: [authors[0]])
                try ctx.savePartial(edit, ["authors"], expecting: seen)
                try ctx.checkEqual(try ctx.get(book).targets("authors"), [authors[0]], "authors after a checked save")
                edit.set("authors", to: [authors[2]])
                try ctx.expectError(.writeConflict, "saving authors changed since they were read") {
                    try ctx.savePartial(edit, ["authors"], expecting: seen)
                }
                try ctx.checkEqual(try ctx.get(book).targets("authors"), [authors[0]], "authors after the conflict")
            },
            c("conflict-check-passes-unchanged", "With the conflict check, an update of unchanged properties succeeds even if other properties changed.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "Old"]))[0]
                let seen = try ctx.get(id)
                var other = seen
                other["name"] = "Main"
                try ctx.savePartial(other, ["name"], expecting: seen)
                var mine = seen
                mine["city"] = "New"
                try ctx.savePartial(mine, ["city"], expecting: seen)
                let stored = try ctx.get(id)
                try ctx.checkEqual([stored["name"], stored["city"]], ["Main", "New"], "name and city")
            },
            c("result-reports-merged-record", "When the stored result differs from the stale snapshot sent, the save result's changedSnapshots holds the record as stored.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "Old"]))[0]
                var stale = try ctx.get(id)
                var other = stale
                other["name"] = "Main"
                try ctx.savePartial(other, ["name"])
                stale["city"] = "New"
                let result = try ctx.savePartial(stale, ["city"])
                guard let changed = result.changed[id] else {
                    throw CaseFailure(message: "changedSnapshots does not hold \(id), whose stored name differs from the snapshot sent.")
                }
                try ctx.checkEqual([changed["name"], changed["city"]], ["Main", "New"], "the reported record")
            },
            c("unique-checked-on-merged-values", "Unique constraints are checked on the merged record; a listed property that collides fails as usual.") { ctx in
                let ids = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                var b = try ctx.get(ids[1])
                b["name"] = "A"
                b["city"] = "X"
                try ctx.savePartial(b, ["city"])  // the stale name "A" is not written
                try ctx.checkEqual(try ctx.get(ids[1])["name"], "B", "name of the second library")
                try ctx.expectError(.uniqueConstraintViolation, "renaming B to A, listed") { try ctx.savePartial(b, ["name"]) }
            },
            c("bad-properties-rejected", "Updated properties naming an index the entity lacks are invalidRequest.") { ctx in
                let id = try ctx.insert(ctx.new("Library", ["name": "A"]))[0]
                let record = try ctx.get(id)
                try ctx.expectError(.invalidRequest, "an attribute index out of range") {
                    try ctx.save(updated: [record], properties: [id: UpdatedProperties(attributes: [99])])
                }
            },
        ]
    }()
}
