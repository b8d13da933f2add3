import Strata

extension ConformanceSuite {
    /// Predicate and value-order rules of section 6 that no other case pinned down, each found by a
    /// mutant that survived the suite (docs/conformance.md, "Mutation testing"): the order of Bools,
    /// an empty search text, an integer constant against a double, `nil` inside an `isIn` list, and
    /// `targetIs(path, nil)` through an empty to-one.
    static let predicateSemanticsCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [])
        return [
            c("bool-order", "false sorts before true (nil first ascending, last descending), and <, > compare Bools the same way.") { ctx in
                try seedSamples(ctx)
                let name = "flags [true, false, nil, true, false, nil] as s0…s5"
                try ctx.checkEqual(try texts(ctx, nil, sort: [SortKey("flag")]), ["s2", "s5", "s1", "s4", "s0", "s3"], "\(name): sorted by flag ascending")
                try ctx.checkEqual(try texts(ctx, nil, sort: [SortKey("flag", order: .descending)]), ["s0", "s3", "s1", "s4", "s2", "s5"], "\(name): sorted by flag descending")
                try ctx.checkEqual(try texts(ctx, .compare("flag", .less, true)), ["s1", "s4"], "\(name): flag < true")
                try ctx.checkEqual(try texts(ctx, .compare("flag", .greater, false)), ["s0", "s3"], "\(name): flag > false")
            },
            c("empty-search-text", "An empty search text is part, prefix and suffix of every string (the empty string included), with or without case folding; nil never matches.") { ctx in
                try seedTexts(ctx, ["abc", "", nil, "\u{C9}t\u{E9}"])
                let name = "texts [abc, \"\", nil, Été] as t0…t3"
                for insensitive in [false, true] {
                    let how = insensitive ? "ignoring case" : "with case"
                    try ctx.checkEqual(try texts(ctx, .text("string", .contains, "", caseInsensitive: insensitive)), ["t0", "t1", "t3"], "\(name): contains \"\" \(how)")
                    try ctx.checkEqual(try texts(ctx, .text("string", .hasPrefix, "", caseInsensitive: insensitive)), ["t0", "t1", "t3"], "\(name): hasPrefix \"\" \(how)")
                    try ctx.checkEqual(try texts(ctx, .text("string", .hasSuffix, "", caseInsensitive: insensitive)), ["t0", "t1", "t3"], "\(name): hasSuffix \"\" \(how)")
                }
                try ctx.checkEqual(try ctx.count("Sample", !.text("string", .contains, "", caseInsensitive: false)), 1, "\(name): count of not (contains \"\") (only nil)")
            },
            c("int-constant-on-double", "An integer constant compared with a double property means that number, in ==, !=, <, > and isIn (no typeMismatch).") { ctx in
                try seedSamples(ctx)
                let name = "doubles [1.5, -2, nil, 0, 1.5, 9] as s0…s5"
                try ctx.checkEqual(try texts(ctx, .compare("double", .equal, .int(9))), ["s5"], "\(name): == 9 (an Int)")
                try ctx.checkEqual(try texts(ctx, .compare("double", .notEqual, .int(0))), ["s0", "s1", "s2", "s4", "s5"], "\(name): != 0 (an Int)")
                try ctx.checkEqual(try texts(ctx, .compare("double", .less, .int(2))), ["s0", "s1", "s3", "s4"], "\(name): < 2 (an Int)")
                try ctx.checkEqual(try texts(ctx, .compare("double", .greater, .int(-2))), ["s0", "s3", "s4", "s5"], "\(name): > -2 (an Int)")
                try ctx.checkEqual(try texts(ctx, .isIn("double", [.int(0), .int(9)])), ["s3", "s5"], "\(name): in [0, 9] (Ints)")
                try ctx.checkEqual(try ctx.count("Sample", .compare("double", .greaterOrEqual, .int(1))), 3, "\(name): count of >= 1 (an Int)")
            },
            c("in-list-with-nil", "isIn is == against each value: nil in the list matches the records whose value is nil.") { ctx in
                try seedSamples(ctx)
                let name = "ints [3, 1, 3, nil, 2, 3] and strings [apple, Banana, cherry pie, nil, APPLE tart, banana split] as s0…s5"
                try ctx.checkEqual(try texts(ctx, .isIn("int", [nil, 1])), ["s1", "s3"], "\(name): int in [nil, 1]")
                try ctx.checkEqual(try texts(ctx, .isIn("string", [nil])), ["s3"], "\(name): string in [nil]")
                try ctx.checkEqual(try texts(ctx, !.isIn("int", [nil, 3])), ["s1", "s4"], "\(name): not (int in [nil, 3])")
                try ctx.checkEqual(try ctx.count("Sample", .isIn("double", [nil, 9.0])), 2, "\(name): count of double in [nil, 9]")
            },
            c("target-is-nil-through-empty-to-one", "A path through an empty to-one yields nil, so targetIs(path, nil) holds there and targetIs(path, record) does not.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let shelf = try ctx.insert(ctx.new("Shelf", ["label": "S"]))[0]
                // A on shelf S, B on no shelf; C follows A, D follows B; E follows nothing.
                let a = try ctx.insert(ctx.new("Book", ["title": "A"], ["library": .toOne(lib), "shelf": .toOne(shelf)]))[0]
                let b = try ctx.insert(ctx.new("Book", ["title": "B"], ["library": .toOne(lib)]))[0]
                let cBook = try ctx.insert(ctx.new("Book", ["title": "C"], ["library": .toOne(lib), "prequel": .toOne(a)]))[0]
                let d = try ctx.insert(ctx.new("Book", ["title": "D"], ["library": .toOne(lib), "prequel": .toOne(b)]))[0]
                let e = try ctx.insert(ctx.new("Book", ["title": "E"], ["library": .toOne(lib)]))[0]
                let name = "books A (on Shelf S), B, C (prequel A), D (prequel B), E"
                try ctx.checkEqual(try ctx.fetch("Book", .targetIs("prequel.shelf", nil)).map(\.id), [a, b, d, e], "\(name): prequel.shelf is nil (A, B and E have no prequel)")
                try ctx.checkEqual(try ctx.fetch("Book", .targetIs("prequel.shelf", shelf)).map(\.id), [cBook], "\(name): prequel.shelf is Shelf S")
                try ctx.checkEqual(try ctx.fetch("Book", !.targetIs("prequel.shelf", nil)).map(\.id), [cBook], "\(name): not (prequel.shelf is nil)")
                try ctx.checkEqual(try ctx.count("Book", .targetIs("sequel.prequel", nil)), 3, "\(name): count of sequel.prequel is nil (C, D and E have no sequel)")
            },
        ]
    }()
}
