import Strata

extension ConformanceSuite {
    static let relationshipCases: [ConformanceCase] = {
        let c = ConformanceCategory.relationships.cases(requiring: [])
        return [
            c("to-one-sets-inverse", "Setting a to-one adds the record to the inverse to-many.") { ctx in
                let ids = try ctx.insert(ctx.new("Library", ["name": "L"]))
                let book = try ctx.insert(ctx.new("Book", ["title": "B"], ["library": .toOne(ids[0])]))[0]
                try ctx.checkEqual(try ctx.get(ids[0]).targets("books"), [book], "library.books")
            },
            c("to-many-sets-inverse", "Adding to a to-many sets each target's inverse to-one.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let shelves = try ctx.insert((0..<2).map { ctx.new("Shelf", ["label": .string("s\($0)")]) })
                var l = try ctx.get(lib)
                l.set("shelves", to: shelves)
                try ctx.save(updated: [l])
                for s in shelves { try ctx.checkEqual(try ctx.get(s).target("library"), lib, "shelf.library") }
            },
            c("to-many-removal-clears-inverse", "Removing a target from a to-many empties its inverse to-one.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let s = try ctx.insert(ctx.new("Shelf", ["label": "s"], ["library": .toOne(lib)]))[0]
                var l = try ctx.get(lib)
                l.set("shelves", to: [PersistentIdentifier]())
                try ctx.save(updated: [l])
                try ctx.checkEqual(try ctx.get(s).target("library"), nil, "shelf.library after removal")
            },
            c("reassign-moves-between-parents", "Changing a to-one moves the record from the old parent's to-many to the new one's.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                let book = try ctx.insert(ctx.new("Book", ["title": "T"], ["library": .toOne(libs[0])]))[0]
                var b = try ctx.get(book)
                b.set("library", to: libs[1])
                let result = try ctx.save(updated: [b])
                try ctx.checkEqual(try ctx.get(libs[0]).targets("books"), [], "old library.books")
                try ctx.checkEqual(try ctx.get(libs[1]).targets("books"), [book], "new library.books")
                try ctx.check(result.changed[libs[0]] != nil && result.changed[libs[1]] != nil, "The save result does not report both libraries as changed by the store: \(Array(result.changed.keys)).")
            },
            c("many-to-many-both-sides", requires: .manyToMany, "A many-to-many agrees on both sides, whichever side was written.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let books = (0..<2).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(lib.id)]) }
                let author = ctx.new("Author", ["name": "A"], ["books": .toMany(books.map(\.id))])
                let ids = try ctx.insert([lib, author] + books)
                for b in ids[2...] { try ctx.checkEqual(try ctx.get(b).targets("authors"), [ids[1]], "book.authors") }
                let second = try ctx.insert(ctx.new("Author", ["name": "B"]))[0]
                var b0 = try ctx.get(ids[2])
                b0.set("authors", to: [ids[1], second])
                try ctx.save(updated: [b0])
                try ctx.checkEqual(try ctx.get(second).targets("books"), [ids[2]], "second author's books")
                try ctx.checkEqual(Set(try ctx.get(ids[1]).targets("books")), Set(ids[2...]), "first author's books")
            },
            c("many-to-many-removal", requires: .manyToMany, "Removing one side of a many-to-many removes the other.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "b"], ["library": .toOne(lib.id)])
                let author = ctx.new("Author", ["name": "A"], ["books": .toMany([book.id])])
                let ids = try ctx.insert(lib, book, author)
                var a = try ctx.get(ids[2])
                a.set("books", to: [PersistentIdentifier]())
                try ctx.save(updated: [a])
                try ctx.checkEqual(try ctx.get(ids[1]).targets("authors"), [], "book.authors after removal")
            },
            c("ordered-keeps-order", requires: .orderedRelationships, "An ordered to-many keeps the written order, also after reordering and reopen.") { ctx in
                let shelves = (0..<4).map { ctx.new("Shelf", ["label": .string("s\($0)")]) }
                let lib = ctx.new("Library", ["name": "L"], ["shelves": .toMany([shelves[2].id, shelves[0].id, shelves[3].id, shelves[1].id])])
                let ids = try ctx.insert([lib] + shelves)
                let s = Array(ids[1...])
                try ctx.checkEqual(try ctx.get(ids[0]).targets("shelves"), [s[2], s[0], s[3], s[1]], "order after insert")
                var l = try ctx.get(ids[0])
                l.set("shelves", to: [s[1], s[3], s[0], s[2]])
                try ctx.save(updated: [l])
                try ctx.checkEqual(try ctx.get(ids[0]).targets("shelves"), [s[1], s[3], s[0], s[2]], "order after reorder")
                if ctx.store.capabilities.contains(.persistence) {
                    try ctx.reopen()
                    try ctx.checkEqual(try ctx.get(ids[0]).targets("shelves"), [s[1], s[3], s[0], s[2]], "order after reopen")
                }
            },
            c("ordered-many-to-many", requires: [.orderedRelationships, .manyToMany], "An ordered many-to-many keeps its order on the ordered side, from either side and after reopen.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let books = (0..<3).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(lib.id)]) }
                let fan = ctx.new("Author", ["name": "F"], ["favorites": .toMany([books[2].id, books[0].id])])
                let ids = try ctx.insert([lib, fan] + books)
                let b = Array(ids[2...])
                try ctx.checkEqual(try ctx.get(ids[1]).targets("favorites"), [b[2], b[0]], "favorites after insert")
                try ctx.checkEqual(try ctx.get(b[2]).targets("fans"), [ids[1]], "the book's fans")
                var book = try ctx.get(b[1])
                book.set("fans", to: [ids[1]])
                try ctx.save(updated: [book])
                try ctx.checkEqual(try ctx.get(ids[1]).targets("favorites"), [b[2], b[0], b[1]], "favorites after a book added the author (appended)")
                var author = try ctx.get(ids[1])
                author.set("favorites", to: [b[1], b[2], b[0]])
                try ctx.save(updated: [author])
                if ctx.store.capabilities.contains(.persistence) { try ctx.reopen() }
                try ctx.checkEqual(try ctx.get(ids[1]).targets("favorites"), [b[1], b[2], b[0]], "favorites after reorder and reopen")
            },
            c("ordered-append-from-inverse", requires: .orderedRelationships, "Setting the to-one side appends to the end of an ordered to-many.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                var shelves: [PersistentIdentifier] = []
                for i in 0..<3 {
                    shelves += try ctx.insert(ctx.new("Shelf", ["label": .string("s\(i)")], ["library": .toOne(lib)]))
                }
                try ctx.checkEqual(try ctx.get(lib).targets("shelves"), shelves, "order of appended shelves")
            },
            c("self-reference", "A self-referencing relationship keeps both sides (mentor / students).") { ctx in
                let mentor = ctx.new("Author", ["name": "M"])
                let students = (0..<2).map { ctx.new("Author", ["name": .string("S\($0)")], ["mentor": .toOne(mentor.id)]) }
                let ids = try ctx.insert([mentor] + students)
                try ctx.checkEqual(Set(try ctx.get(ids[0]).targets("students")), Set(ids[1...]), "mentor.students")
                var s0 = try ctx.get(ids[1])
                s0.set("mentor", to: ids[2])
                try ctx.save(updated: [s0])
                try ctx.checkEqual(try ctx.get(ids[0]).targets("students"), [ids[2]], "old mentor's students")
                try ctx.checkEqual(try ctx.get(ids[2]).targets("students"), [ids[1]], "new mentor's students")
            },
            c("one-to-one-steal", "Taking a one-to-one target empties the previous holder's side.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let a = ctx.new("Book", ["title": "A"], ["library": .toOne(lib.id)])
                let b = ctx.new("Book", ["title": "B"], ["library": .toOne(lib.id), "prequel": .toOne(a.id)])
                let ids = try ctx.insert(lib, a, b)
                try ctx.checkEqual(try ctx.get(ids[1]).target("sequel"), ids[2], "A.sequel")
                let c = try ctx.insert(ctx.new("Book", ["title": "C"], ["library": .toOne(ids[0]), "prequel": .toOne(ids[1])]))[0]
                try ctx.checkEqual(try ctx.get(ids[1]).target("sequel"), c, "A.sequel after C took it")
                try ctx.checkEqual(try ctx.get(ids[2]).target("prequel"), nil, "B.prequel after C took A")
            },
            c("required-to-one-empty-fails", "A required to-one left empty fails the save.") { ctx in
                let error = try ctx.expectError(.missingRequiredRelationship, "a book without a library") {
                    try ctx.insert(ctx.new("Book", ["title": "Orphan"]))
                }
                try ctx.checkEqual(error.properties, ["library"], "error properties")
                try ctx.checkEqual(try ctx.count("Book"), 0, "books after the failed save")
            },
            c("required-to-one-cleared-fails", "Clearing a required to-one by removing the record from the parent's to-many fails the save.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(lib.id)])
                let ids = try ctx.insert(lib, book)
                var l = try ctx.get(ids[0])
                l.set("books", to: [PersistentIdentifier]())
                try ctx.expectError(.missingRequiredRelationship, "removing a book from its library's books") { try ctx.save(updated: [l]) }
                try ctx.checkEqual(try ctx.get(ids[1]).target("library"), ids[0], "book.library after the failed save")
            },
            c("max-count-fails", "A to-many above its maximum count fails the save.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                let books = (0..<4).map { ctx.new("Book", ["title": .string("b\($0)")], ["library": .toOne(lib.id)]) }
                let shelf = ctx.new("Shelf", ["label": "full"], ["books": .toMany(books.map(\.id))])
                let error = try ctx.expectError(.relationshipCountViolation, "a shelf with 4 books (max 3)") { try ctx.insert([lib, shelf] + books) }
                try ctx.checkEqual(error.properties, ["books"], "error properties")
                try ctx.checkEqual(try ctx.count("Book"), 0, "books after the failed save")
            },
            c("min-count-fails", "A to-many below its minimum count fails the save, also when a removal brings it there.") { ctx in
                try ctx.expectError(.relationshipCountViolation, "a team without members (min 1)") { try ctx.insert(ctx.new("Team", ["name": "Empty"])) }
                let team = ctx.new("Team", ["name": "T"])
                let player = ctx.new("Player", ["name": "P"], ["team": .toOne(team.id)])
                let ids = try ctx.insert(team, player)
                var p = try ctx.get(ids[1])
                p.set("team", to: nil)
                try ctx.expectError(.relationshipCountViolation, "the last player leaving") { try ctx.save(updated: [p]) }
                try ctx.checkEqual(try ctx.get(ids[0]).targets("members"), [ids[1]], "members after the failed save")
            },
            c("max-count-from-inverse", "Count bounds hold when the inverse side is what is written.") { ctx in
                let team = ctx.new("Team", ["name": "T"])
                let players = (0..<3).map { _ in ctx.new("Player", ["name": "P"], ["team": .toOne(team.id)]) }
                let ids = try ctx.insert([team] + players)
                try ctx.expectError(.relationshipCountViolation, "a fourth player joining a team of max 3") {
                    try ctx.insert(ctx.new("Player", ["name": "P4"], ["team": .toOne(ids[0])]))
                }
            },
            c("result-reports-inverse-changes", "The save result carries the snapshots the store changed on its own.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(lib)])
                let result = try ctx.save(inserted: [book])
                guard let changed = result.changed[lib] else { throw CaseFailure(message: "The result does not include the library whose books changed.") }
                try ctx.checkEqual(changed.targets("books"), [result.remapped[book.id]!], "library.books in the result")
            },
            c("contradicting-writes-agree", "When one save writes both sides inconsistently, the later write wins and both sides agree.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                let book = try ctx.insert(ctx.new("Book", ["title": "T"], ["library": .toOne(libs[0])]))[0]
                var b = try ctx.get(book)
                b.set("library", to: libs[0])
                var l = try ctx.get(libs[1])
                l.set("books", to: [book])
                try ctx.save(updated: [b, l])
                let stored = try ctx.get(book)
                try ctx.checkEqual(stored.target("library"), libs[1], "book.library (the later write)")
                try ctx.checkEqual(try ctx.get(libs[0]).targets("books"), [], "old library.books")
                try ctx.checkEqual(try ctx.get(libs[1]).targets("books"), [book], "new library.books")
            },
        ]
    }()
}
