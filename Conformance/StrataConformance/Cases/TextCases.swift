import Strata

extension ConformanceSuite {
    /// Writes one Sample per text (label `t0`, `t1`, … in key order) and returns nothing: cases
    /// compare labels, which name the text by position.
    static func seedTexts(_ ctx: CaseContext, _ texts: [String?]) throws {
        for (i, text) in texts.enumerated() {  // one save each, so key order is list order everywhere
            try ctx.insert(ctx.new("Sample", ["label": .string("t\(i)"), "string": text.map(Value.string) ?? .null]))
        }
    }

    /// The labels a fetch of Samples returns, with the texts they hold, for readable failures.
    static func texts(_ ctx: CaseContext, _ predicate: FetchPredicate?, sort: [SortKey] = []) throws -> [String] {
        try ctx.fetch("Sample", predicate, sort: sort).map { $0["label"].string ?? "?" }
    }

    /// String semantics beyond ASCII: Unicode case folding, bytes rather than canonical equivalence,
    /// search text that a SQL `LIKE` would read as wildcards, and no SQL case folding.
    static let textCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [])
        return [
            c("insensitive-non-ascii", "Case-insensitive search lowercases both sides with Unicode rules, so \"ÉCOLE\" contains \"école\"; case-sensitive search does not fold.") { ctx in
                // t0 ÉCOLE normale, t1 l'école, t2 Ecole, t3 STRASSE, t4 ΣΟΦΙΑ
                try seedTexts(ctx, ["\u{C9}COLE normale", "l'\u{E9}cole", "Ecole", "STRASSE", "\u{3A3}\u{39F}\u{3A6}\u{399}\u{391}"])
                let name = "texts [ÉCOLE normale, l'école, Ecole, STRASSE, ΣΟΦΙΑ] as t0…t4"
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "\u{E9}cole", caseInsensitive: true)), ["t0", "t1"], "\(name): contains \"école\" ignoring case")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasPrefix, "\u{E9}", caseInsensitive: true)), ["t0"], "\(name): hasPrefix \"é\" ignoring case")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasSuffix, "OLE", caseInsensitive: true)), ["t1", "t2"], "\(name): hasSuffix \"OLE\" ignoring case")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "\u{C9}", caseInsensitive: false)), ["t0"], "\(name): contains \"É\" with case")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "\u{3C3}\u{3BF}\u{3C6}", caseInsensitive: true)), ["t4"], "\(name): contains \"σοφ\" ignoring case")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "\u{3C3}\u{3BF}\u{3C6}", caseInsensitive: false)), [], "\(name): contains \"σοφ\" with case")
            },
            c("canonical-equivalence-is-bytes", "Strings compare by bytes: \"café\" precomposed and \"cafe\\u{301}\" decomposed are different values for ==, in, search and sort.") { ctx in
                let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
                try seedTexts(ctx, [composed, decomposed])
                let name = "t0 \"café\" (U+00E9), t1 \"cafe\" + U+0301"
                try ctx.checkEqual(try texts(ctx, .compare("string", .equal, .string(composed))), ["t0"], "\(name): == the precomposed text")
                try ctx.checkEqual(try texts(ctx, .compare("string", .equal, .string(decomposed))), ["t1"], "\(name): == the decomposed text")
                try ctx.checkEqual(try texts(ctx, .compare("string", .notEqual, .string(composed))), ["t1"], "\(name): != the precomposed text")
                try ctx.checkEqual(try texts(ctx, .isIn("string", [.string(decomposed)])), ["t1"], "\(name): in [decomposed]")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasPrefix, "cafe", caseInsensitive: false)), ["t1"], "\(name): hasPrefix \"cafe\" (bytes)")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasSuffix, "\u{E9}", caseInsensitive: true)), ["t0"], "\(name): hasSuffix \"é\" ignoring case")
                try ctx.checkEqual(try texts(ctx, nil, sort: [SortKey("string")]), ["t1", "t0"], "\(name): sorted by bytes (e < 0xC3)")
                try ctx.checkEqual(try texts(ctx, .compare("string", .greater, .string(decomposed))), ["t0"], "\(name): > the decomposed text")
            },
            c("search-wildcards-literal", "Search text is literal: % and _ (and a backslash) match only themselves, as SQL LIKE would not.") { ctx in
                // t0 100%, t1 a_b, t2 axb, t3 a%b, t4 AXB, t5 c:\dir
                try seedTexts(ctx, ["100%", "a_b", "axb", "a%b", "AXB", "c:\\dir"])
                let name = "texts [100%, a_b, axb, a%b, AXB, c:\\dir] as t0…t5"
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "%", caseInsensitive: false)), ["t0", "t3"], "\(name): contains \"%\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "a_b", caseInsensitive: false)), ["t1"], "\(name): contains \"a_b\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "A_B", caseInsensitive: true)), ["t1"], "\(name): contains \"A_B\" ignoring case")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasPrefix, "a%", caseInsensitive: true)), ["t3"], "\(name): hasPrefix \"a%\" ignoring case")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasSuffix, "_b", caseInsensitive: false)), ["t1"], "\(name): hasSuffix \"_b\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasSuffix, "%", caseInsensitive: false)), ["t0"], "\(name): hasSuffix \"%\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "\\", caseInsensitive: false)), ["t5"], "\(name): contains a backslash")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "_", caseInsensitive: true)), ["t1"], "\(name): contains \"_\" ignoring case")
            },
            c("no-sql-case-folding", "Without caseInsensitive, ==, in, <, search and sort all tell \"apple\", \"Apple\" and \"APPLE\" apart (no NOCASE, no LIKE folding).") { ctx in
                try seedTexts(ctx, ["apple", "Apple", "APPLE", nil])
                let name = "texts [apple, Apple, APPLE, nil] as t0…t3"
                try ctx.checkEqual(try texts(ctx, .compare("string", .equal, "apple")), ["t0"], "\(name): == \"apple\"")
                try ctx.checkEqual(try texts(ctx, .compare("string", .notEqual, "apple")), ["t1", "t2", "t3"], "\(name): != \"apple\"")
                try ctx.checkEqual(try texts(ctx, .isIn("string", ["Apple"])), ["t1"], "\(name): in [Apple]")
                try ctx.checkEqual(try texts(ctx, .compare("string", .less, "a")), ["t1", "t2"], "\(name): < \"a\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "PP", caseInsensitive: false)), ["t2"], "\(name): contains \"PP\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasPrefix, "A", caseInsensitive: false)), ["t1", "t2"], "\(name): hasPrefix \"A\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .hasSuffix, "LE", caseInsensitive: false)), ["t2"], "\(name): hasSuffix \"LE\"")
                try ctx.checkEqual(try texts(ctx, .text("string", .contains, "pPl", caseInsensitive: true)), ["t0", "t1", "t2"], "\(name): contains \"pPl\" ignoring case")
                try ctx.checkEqual(try texts(ctx, nil, sort: [SortKey("string", order: .descending)]), ["t0", "t1", "t2", "t3"], "\(name): sorted descending by bytes")
            },
            c("unique-text-is-bytes", section: "§4 Unique constraints", "Unique text compares bytes: canonically equivalent names and names differing only in case do not collide; the same bytes do.") { ctx in
                try ctx.insert(ctx.new("Tag", ["name": .string("caf\u{E9}")]), ctx.new("Tag", ["name": .string("cafe\u{301}")]), ctx.new("Tag", ["name": "Caf\u{E9}"]))
                try ctx.checkEqual(try ctx.count("Tag"), 3, "tags café (U+00E9), cafe + U+0301 and Café")
                try ctx.expectError(.uniqueConstraintViolation, "a second tag \"cafe\" + U+0301") { try ctx.insert(ctx.new("Tag", ["name": .string("cafe\u{301}")])) }
            },
        ]
    }()
}
