import Strata

extension ConformanceSuite {
    /// The graph every to-many case starts from, named so expectations read as data:
    ///
    /// - Libraries Alpha (books Dune 500 pages, Emma 0), Beta (Faust 300), Gamma (no books).
    /// - Authors Ann (UK), Bob (no country), Cid (FR); Dune by Ann and Bob, Faust by Bob, Emma by
    ///   nobody (many-to-many); Cid's ordered favorites (`Book.fans` side) are Dune and Faust.
    /// - Chapters Intro and End of Dune, Prologue of Faust (ordered one-to-many); Emma has none.
    /// - Shelf "top" in Alpha holds Dune; Emma and Faust are on no shelf (an empty to-one).
    @discardableResult
    static func seedToManyGraph(_ ctx: CaseContext) throws -> [String: PersistentIdentifier] {
        var ids: [String: PersistentIdentifier] = [:]
        func keep(_ names: [String], _ got: [PersistentIdentifier]) { for (n, id) in zip(names, got) { ids[n] = id } }
        keep(["Alpha", "Beta", "Gamma"], try ctx.insert(ctx.new("Library", ["name": "Alpha"]), ctx.new("Library", ["name": "Beta"]), ctx.new("Library", ["name": "Gamma"])))
        keep(["Ann", "Bob", "Cid"], try ctx.insert(ctx.new("Author", ["name": "Ann", "country": "UK"]), ctx.new("Author", ["name": "Bob"]), ctx.new("Author", ["name": "Cid", "country": "FR"])))
        keep(["top"], try ctx.insert(ctx.new("Shelf", ["label": "top"], ["library": .toOne(ids["Alpha"])])))
        keep(["Dune", "Emma", "Faust"], try ctx.insert(
            ctx.new("Book", ["title": "Dune", "pages": 500], ["library": .toOne(ids["Alpha"]), "authors": .toMany([ids["Ann"]!, ids["Bob"]!]), "shelf": .toOne(ids["top"]), "fans": .toMany([ids["Cid"]!])]),
            ctx.new("Book", ["title": "Emma", "pages": 0], ["library": .toOne(ids["Alpha"])]),
            ctx.new("Book", ["title": "Faust", "pages": 300], ["library": .toOne(ids["Beta"]), "authors": .toMany([ids["Bob"]!]), "fans": .toMany([ids["Cid"]!])])))
        keep(["Intro", "End", "Prologue"], try ctx.insert(
            ctx.new("Chapter", ["title": "Intro"], ["book": .toOne(ids["Dune"])]),
            ctx.new("Chapter", ["title": "End"], ["book": .toOne(ids["Dune"])]),
            ctx.new("Chapter", ["title": "Prologue"], ["book": .toOne(ids["Faust"])])))
        return ids
    }

    /// The names (sorted by bytes) of the records of `entity` matching `predicate`, after checking
    /// that `fetchCount` and `fetchIdentifiers` agree with `fetch`.
    static func matching(_ ctx: CaseContext, _ entity: String, _ predicate: FetchPredicate) throws -> [String] {
        let name = ["Library": "name", "Author": "name", "Tag": "name", "Book": "title", "Chapter": "title", "Note": "text"][entity] ?? "name"
        let descriptor = FetchDescriptor(entity: entity, predicate: predicate, sortBy: [SortKey(PropertyPath([name]))])
        let records = try ctx.store.fetch(descriptor)
        try ctx.checkEqual(try ctx.store.fetchCount(descriptor), records.count, "fetchCount of \(entity) where \(predicate)")
        try ctx.checkEqual(try ctx.store.fetchIdentifiers(descriptor), records.map(\.id), "fetchIdentifiers of \(entity) where \(predicate)")
        return records.map { $0[name].string ?? "?" }
    }

    /// §6b: `anyMatch`, `allMatch` and `count` over one-to-many and many-to-many relationships.
    static let toManyCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [.manyToMany, .orderedRelationships])
        let s = "§6b To-many tests"
        @Sendable func expect(_ ctx: CaseContext, _ entity: String, _ predicate: FetchPredicate, _ expected: [String]) throws {
            try ctx.checkEqual(try matching(ctx, entity, predicate), expected, "\(entity) where \(predicate)")
        }
        return [
            c("any-match-one-to-many", section: s, "anyMatch over a one-to-many holds when some target satisfies the nested predicate.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Library", .anyMatch("books", .compare("pages", .greater, 100)), ["Alpha", "Beta"])
                try expect(ctx, "Library", .anyMatch("books", .compare("title", .equal, "Emma")), ["Alpha"])
                try expect(ctx, "Book", .anyMatch("chapters", .text("title", .hasPrefix, "Pro", caseInsensitive: false)), ["Faust"])
            },
            c("any-match-many-to-many", section: s, "anyMatch over a many-to-many, from both sides and over an ordered side.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Book", .anyMatch("authors", .compare("name", .equal, "Bob")), ["Dune", "Faust"])
                try expect(ctx, "Author", .anyMatch("books", .compare("title", .equal, "Dune")), ["Ann", "Bob"])
                try expect(ctx, "Author", .anyMatch("favorites", .compare("pages", .less, 400)), ["Cid"])
                try expect(ctx, "Book", .anyMatch("fans", .compare("country", .equal, "FR")), ["Dune", "Faust"])
                try expect(ctx, "Book", .anyMatch("fans", .isNil("country")), [])
            },
            c("any-match-not-empty", section: s, "anyMatch(path, true) is 'not empty'; anyMatch(path, false) never holds.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Library", .anyMatch("books", .constant(true)), ["Alpha", "Beta"])
                try expect(ctx, "Library", !.anyMatch("books", .constant(true)), ["Gamma"])
                try expect(ctx, "Book", .anyMatch("authors", .constant(true)), ["Dune", "Faust"])
                try expect(ctx, "Author", .anyMatch("books", .constant(true)), ["Ann", "Bob"])
                try expect(ctx, "Library", .anyMatch("books", .constant(false)), [])
            },
            c("any-match-nested", section: s, "A to-many test nested inside anyMatch is evaluated over the target's own to-many.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Library", .anyMatch("books", .anyMatch("chapters", .compare("title", .equal, "Prologue"))), ["Beta"])
                try expect(ctx, "Library", .anyMatch("books", .anyMatch("authors", .compare("name", .equal, "Ann"))), ["Alpha"])
                try expect(ctx, "Author", .anyMatch("books", .anyMatch("chapters", .text("title", .hasPrefix, "E", caseInsensitive: false))), ["Ann", "Bob"])
                // Emma has no authors (allMatch holds), Faust's only author has no country.
                try expect(ctx, "Library", .anyMatch("books", .allMatch("authors", .isNil("country"))), ["Alpha", "Beta"])
                try expect(ctx, "Library", .anyMatch("books", .count("chapters", .greaterOrEqual, 2)), ["Alpha"])
                try expect(ctx, "Chapter", .anyMatch("book.authors", .anyMatch("books", .compare("title", .equal, "Faust"))), ["End", "Intro", "Prologue"])
            },
            c("all-match-one-to-many", section: s, "allMatch over a one-to-many: every target satisfies it; an empty to-many holds.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Library", .allMatch("books", .compare("pages", .greaterOrEqual, 300)), ["Beta", "Gamma"])
                try expect(ctx, "Book", .allMatch("chapters", .text("title", .contains, "o", caseInsensitive: false)), ["Emma", "Faust"])
            },
            c("all-match-many-to-many", section: s, "allMatch over a many-to-many, from both sides.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Book", .allMatch("authors", !.isNil("country")), ["Emma"])
                try expect(ctx, "Author", .allMatch("books", .compare("pages", .greater, 400)), ["Ann", "Cid"])
                try expect(ctx, "Author", .allMatch("favorites", .compare("pages", .greater, 400)), ["Ann", "Bob"])
            },
            c("all-match-empty-holds", section: s, "allMatch(path, false) holds exactly for the records whose to-many is empty.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Library", .allMatch("books", .constant(false)), ["Gamma"])
                try expect(ctx, "Book", .allMatch("chapters", .constant(false)), ["Emma"])
                try expect(ctx, "Author", .allMatch("books", .constant(false)), ["Cid"])
                try expect(ctx, "Book", .allMatch("authors", .constant(true)), ["Dune", "Emma", "Faust"])
            },
            c("to-many-count-operators", section: s, "count compares the number of targets with every operator (Alpha 2 books, Beta 1, Gamma 0).") { ctx in
                try seedToManyGraph(ctx)
                let expected: [(ComparisonOperator, [String])] = [
                    (.equal, ["Beta"]), (.notEqual, ["Alpha", "Gamma"]), (.less, ["Gamma"]),
                    (.lessOrEqual, ["Beta", "Gamma"]), (.greater, ["Alpha"]), (.greaterOrEqual, ["Alpha", "Beta"]),
                ]
                for (op, names) in expected { try expect(ctx, "Library", .count("books", op, 1), names) }
                try expect(ctx, "Library", .count("books", .equal, 0), ["Gamma"])
                try expect(ctx, "Library", .count("books", .greater, -1), ["Alpha", "Beta", "Gamma"])
                try expect(ctx, "Book", .count("chapters", .equal, 2), ["Dune"])
            },
            c("to-many-count-many-to-many", section: s, "count over many-to-many sides, ordered and unordered, counts distinct targets.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Author", .count("books", .equal, 2), ["Bob"])
                try expect(ctx, "Author", .count("books", .greater, 0), ["Ann", "Bob"])
                try expect(ctx, "Book", .count("authors", .greaterOrEqual, 2), ["Dune"])
                try expect(ctx, "Book", .count("fans", .equal, 1), ["Dune", "Faust"])
                try expect(ctx, "Author", .count("favorites", .equal, 2), ["Cid"])
            },
            c("to-many-through-empty-to-one", section: s, "Through an empty or dangling to-one the to-many is nil: anyMatch and allMatch fail, count compares as nil (only != holds).") { ctx in
                try seedToManyGraph(ctx)
                // Only Dune is on a shelf (which holds Dune alone).
                try expect(ctx, "Book", .anyMatch("shelf.books", .constant(true)), ["Dune"])
                try expect(ctx, "Book", .allMatch("shelf.books", .constant(true)), ["Dune"])
                try expect(ctx, "Book", !.allMatch("shelf.books", .constant(true)), ["Emma", "Faust"])
                try expect(ctx, "Book", .count("shelf.books", .equal, 0), [])
                try expect(ctx, "Book", .count("shelf.books", .notEqual, 1), ["Emma", "Faust"])
                try expect(ctx, "Book", .count("shelf.books", .notEqual, 0), ["Dune", "Emma", "Faust"])
                try expect(ctx, "Book", .count("shelf.books", .less, 5), ["Dune"])
                // A dangling to-one (noAction): tag x is deleted, its notes still point at it.
                let tags = try ctx.insert(ctx.new("Tag", ["name": "x"]), ctx.new("Tag", ["name": "y"]))
                try ctx.insert(ctx.new("Note", ["text": "n0"], ["tag": .toOne(tags[0])]), ctx.new("Note", ["text": "n1"], ["tag": .toOne(tags[0])]), ctx.new("Note", ["text": "n2"], ["tag": .toOne(tags[1])]))
                try ctx.delete(tags[0])
                try expect(ctx, "Note", .anyMatch("tag.notes", .constant(true)), ["n2"])
                try expect(ctx, "Note", .allMatch("tag.notes", .compare("text", .equal, "n2")), ["n2"])
                try expect(ctx, "Note", .count("tag.notes", .notEqual, 1), ["n0", "n1"])
                try expect(ctx, "Note", .count("tag.notes", .greaterOrEqual, 0), ["n2"])
            },
            c("to-many-through-to-one-chain", section: s, "The to-many may follow a chain of to-ones (Chapter → book → library → books).") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Chapter", .anyMatch("book.library.books", .compare("title", .equal, "Emma")), ["End", "Intro"])
                try expect(ctx, "Chapter", .count("book.library.books", .equal, 1), ["Prologue"])
                try expect(ctx, "Chapter", .count("book.authors", .greaterOrEqual, 2), ["End", "Intro"])
                try expect(ctx, "Chapter", .allMatch("book.authors", .compare("name", .notEqual, "Ann")), ["Prologue"])
                try expect(ctx, "Chapter", .anyMatch("book.shelf.books", .constant(true)), ["End", "Intro"])
                try expect(ctx, "Chapter", .allMatch("book.shelf.library.books", .compare("pages", .greater, 100)), [])
                try expect(ctx, "Chapter", .anyMatch("book.shelf.library.books", .compare("pages", .equal, 0)), ["End", "Intro"])
            },
            c("to-many-combined", section: s, "To-many tests combine with and, or, not, other predicates, a sort and a window.") { ctx in
                try seedToManyGraph(ctx)
                try expect(ctx, "Library", .anyMatch("books", .compare("pages", .greater, 100)) && !.count("books", .greater, 1), ["Beta"])
                try expect(ctx, "Library", .allMatch("books", .constant(false)) || .anyMatch("books", .compare("title", .equal, "Dune")), ["Alpha", "Gamma"])
                try expect(ctx, "Book", !.anyMatch("authors", .compare("name", .equal, "Bob")) || .count("chapters", .equal, 2), ["Dune", "Emma"])
                try expect(ctx, "Book", .and([.compare("pages", .greater, 0), .anyMatch("authors", .constant(true)), !.allMatch("chapters", .compare("title", .equal, "Intro"))]), ["Dune", "Faust"])
                try expect(ctx, "Author", .or([.isNil("country"), .anyMatch("favorites", .compare("title", .equal, "Dune"))]) && !.anyMatch("books", .compare("pages", .equal, 300)), ["Cid"])
                let windowed = FetchDescriptor(entity: "Library", predicate: .anyMatch("books", .constant(true)) || .count("books", .equal, 0), sortBy: [SortKey("name", order: .descending)], fetchLimit: 2, fetchOffset: 1)
                try ctx.checkEqual(try ctx.store.fetch(windowed).map { $0["name"].string ?? "?" }, ["Beta", "Alpha"], "libraries, name descending, offset 1, limit 2")
                try ctx.checkEqual(try ctx.store.fetchCount(windowed), 2, "fetchCount of the window")
            },
            c("to-many-bad-paths-rejected", section: s, "A path that is not a to-many is invalidRequest, an unknown name unknownProperty; the nested predicate is checked against the target entity.") { ctx in
                try seedToManyGraph(ctx)
                func rejects(_ code: StrataError.Code, _ entity: String, _ predicate: FetchPredicate, naming property: String) throws {
                    for (call, run) in [("fetch", { _ = try ctx.store.fetch(FetchDescriptor(entity: entity, predicate: predicate)) }), ("fetchCount", { _ = try ctx.store.fetchCount(FetchDescriptor(entity: entity, predicate: predicate)) }), ("fetchIdentifiers", { _ = try ctx.store.fetchIdentifiers(FetchDescriptor(entity: entity, predicate: predicate)) })] as [(String, () throws -> Void)] {
                        let error = try ctx.expectError(code, "\(call) of \(entity) where \(predicate)", run)
                        try ctx.check(error.properties.contains(property), "\(call) of \(entity) where \(predicate): the error names \(error.properties), not '\(property)'")
                    }
                }
                try rejects(.invalidRequest, "Library", .anyMatch("name", .constant(true)), naming: "name")
                try rejects(.invalidRequest, "Book", .allMatch("library", .constant(true)), naming: "library")
                try rejects(.invalidRequest, "Library", .count("city", .equal, 1), naming: "city")
                try rejects(.invalidRequest, "Library", .anyMatch("books.authors", .constant(true)), naming: "books")
                try rejects(.unknownProperty, "Library", .anyMatch("volumes", .constant(true)), naming: "volumes")
                try rejects(.unknownProperty, "Chapter", .count("book.nope", .equal, 1), naming: "nope")
                try rejects(.unknownProperty, "Library", .anyMatch("books", .compare("name", .equal, "Alpha")), naming: "name")
                try rejects(.typeMismatch, "Library", .allMatch("books", .compare("pages", .equal, "many")), naming: "pages")
                try rejects(.unknownProperty, "Library", .anyMatch("books", .anyMatch("authors", .isNil("city"))), naming: "city")
            },
        ]
    }()
}
