import Strata

extension ConformanceSuite {
    /// Books b0…b5 in one library, with pages 5, 3, 5, 7, 3, 5 and titles f, e, d, c, b, a (one
    /// save each, so key order is b0…b5): ties on an indexed column, titles against key order.
    static func seedBooks(_ ctx: CaseContext) throws -> (library: PersistentIdentifier, books: [PersistentIdentifier]) {
        let library = try ctx.insert(ctx.new("Library", ["name": "Shelfmark"]))[0]
        let pages: [Int64] = [5, 3, 5, 7, 3, 5]
        let titles = ["f", "e", "d", "c", "b", "a"]
        var books: [PersistentIdentifier] = []
        for i in pages.indices {
            books += try ctx.insert(ctx.new("Book", ["title": .string(titles[i]), "pages": .int(pages[i])], ["library": .toOne(library)]))
        }
        return (library, books)
    }

    /// NaN in every comparison operator, ties under descending and indexed sorts, windows over a
    /// sort that is not key order, and the window checks of the fetch-by-identifier path.
    static let orderingCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [])
        return [
            c("nan-in-comparisons", "NaN satisfies no <, <=, >, >= and no ==, and every != (Swift semantics); a NaN constant matches nothing but !=.") { ctx in
                // d0 NaN, d1 1, d2 nil, d3 -inf, d4 +inf
                let values: [Value] = [.double(.nan), .double(1), .null, .double(-.infinity), .double(.infinity)]
                for (i, v) in values.enumerated() { try ctx.insert(ctx.new("Sample", ["label": .string("d\(i)"), "double": v])) }
                func labels(_ p: FetchPredicate) throws -> [String] { try ctx.fetch("Sample", p).map { $0["label"].string ?? "?" } }
                let name = "doubles [NaN, 1, nil, -inf, +inf] as d0…d4"
                try ctx.checkEqual(try labels(.compare("double", .less, 2.0)), ["d1", "d3"], "\(name): < 2")
                try ctx.checkEqual(try labels(.compare("double", .lessOrEqual, .double(.infinity))), ["d1", "d3", "d4"], "\(name): <= +inf")
                try ctx.checkEqual(try labels(.compare("double", .greater, .double(-.infinity))), ["d1", "d4"], "\(name): > -inf")
                try ctx.checkEqual(try labels(.compare("double", .greaterOrEqual, .double(-.infinity))), ["d1", "d3", "d4"], "\(name): >= -inf")
                try ctx.checkEqual(try labels(.compare("double", .notEqual, 1.0)), ["d0", "d2", "d3", "d4"], "\(name): != 1")
                try ctx.checkEqual(try labels(.compare("double", .equal, .double(.nan))), [], "\(name): == NaN")
                try ctx.checkEqual(try labels(.compare("double", .notEqual, .double(.nan))), ["d0", "d1", "d2", "d3", "d4"], "\(name): != NaN")
                try ctx.checkEqual(try labels(.compare("double", .less, .double(.nan))), [], "\(name): < NaN")
                try ctx.checkEqual(try labels(.compare("double", .greaterOrEqual, .double(.nan))), [], "\(name): >= NaN")
                try ctx.checkEqual(try labels(!.compare("double", .less, 2.0)), ["d0", "d2", "d4"], "\(name): not (< 2)")
                try ctx.checkEqual(try labels(.isIn("double", [.double(.nan), 1.0])), ["d1"], "\(name): in [NaN, 1]")
                try ctx.checkEqual(try ctx.count("Sample", .compare("double", .greater, 0.0)), 2, "\(name): count of > 0")
            },
            c("descending-ties-indexed", "Descending sorts on an indexed column keep ties in ascending key order, also with a window.") { ctx in
                let (_, b) = try seedBooks(ctx)
                let desc = [SortKey("pages", order: .descending)]
                try ctx.checkEqual(try ctx.fetch("Book", sort: desc).map(\.id), [b[3], b[0], b[2], b[5], b[1], b[4]], "books by pages descending (pages 5,3,5,7,3,5 for b0…b5)")
                try ctx.checkEqual(try ctx.fetch("Book", sort: [SortKey("pages")]).map(\.id), [b[1], b[4], b[0], b[2], b[5], b[3]], "books by pages ascending")
                try ctx.checkEqual(try ctx.fetch("Book", sort: desc, limit: 3, offset: 2).map(\.id), [b[2], b[5], b[1]], "books by pages descending, offset 2, limit 3")
                try ctx.checkEqual(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Book", sortBy: desc, fetchLimit: 3, fetchOffset: 2)), [b[2], b[5], b[1]], "fetchIdentifiers of the same window")
                try ctx.checkEqual(try ctx.fetch("Book", .compare("pages", .equal, 5), sort: desc).map(\.id), [b[0], b[2], b[5]], "books with 5 pages, sorted descending (all tied)")
                let mixed = [SortKey("pages", order: .descending), SortKey("title")]
                try ctx.checkEqual(try ctx.fetch("Book", sort: mixed).map(\.id), [b[3], b[5], b[2], b[0], b[4], b[1]], "books by pages descending then title (f,e,d,c,b,a) ascending")
            },
            c("window-over-non-key-sort", "fetchOffset and fetchLimit apply after a sort that is not key order, ties included.") { ctx in
                try seedSamples(ctx)
                // strings: s0 apple, s1 Banana, s2 cherry pie, s3 nil, s4 APPLE tart, s5 banana split
                func labels(_ sort: [SortKey], limit: Int?, offset: Int) throws -> [String] {
                    try ctx.fetch("Sample", sort: sort, limit: limit, offset: offset).map { $0["label"].string ?? "?" }
                }
                try ctx.checkEqual(try labels([SortKey("string", order: .descending)], limit: 3, offset: 1), ["s5", "s0", "s1"], "samples by string descending, offset 1, limit 3")
                // doubles: s0 1.5, s1 -2, s2 nil, s3 0, s4 1.5, s5 9
                try ctx.checkEqual(try labels([SortKey("double")], limit: 2, offset: 3), ["s0", "s4"], "samples by double ascending, offset 3, limit 2 (a tie)")
                try ctx.checkEqual(try labels([SortKey("double", order: .descending)], limit: 2, offset: 1), ["s0", "s4"], "samples by double descending, offset 1, limit 2 (a tie)")
                try ctx.checkEqual(try labels([SortKey("double", order: .descending)], limit: nil, offset: 5), ["s2"], "samples by double descending, offset 5 (nil last)")
                let count = try ctx.store.fetchCount(FetchDescriptor(entity: "Sample", sortBy: [SortKey("double")], fetchLimit: 2, fetchOffset: 5))
                try ctx.checkEqual(count, 1, "fetchCount of a window that runs past the end")
            },
            c("negative-window-by-identifier", "A negative fetchLimit or fetchOffset is an error on every fetch path, fetch by one identifier included.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "only"]))[0]
                for (limit, offset) in [(-1, 0), (nil, -1), (-5, -5)] as [(Int?, Int)] {
                    let d = FetchDescriptor(entity: "Sample", predicate: .identifierIn([id]), fetchLimit: limit, fetchOffset: offset)
                    let what = "fetch of Sample \"only\" by identifier with limit \(limit.map(String.init) ?? "nil"), offset \(offset)"
                    try ctx.expectError(.typeMismatch, what) { _ = try ctx.store.fetch(d) }
                    try ctx.expectError(.typeMismatch, "fetchIdentifiers, " + what) { _ = try ctx.store.fetchIdentifiers(d) }
                    try ctx.expectError(.typeMismatch, "fetchCount, " + what) { _ = try ctx.store.fetchCount(d) }
                }
            },
        ]
    }()
}
