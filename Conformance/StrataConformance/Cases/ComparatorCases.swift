import Strata

extension ConformanceSuite {
    /// §6c: the string comparators of a sort key, pinned on a mixed-case, accented word list whose
    /// expected orders are written out by hand from the rules in docs/store-contract.md.
    static let comparatorCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [])
        let s = "§6c String comparators in sorts"
        // t0 … t12; t6 is "éclair" precomposed (U+00E9), t11 the same word decomposed (e + U+0301).
        let words: [String?] = ["apple", "Apple", "\u{C4}pfel", "banana", "Zebra", "zebra", "\u{E9}clair", "Eclair", "file2", "file10", nil, "e\u{301}clair", "file02"]
        let legend = "t0 apple, t1 Apple, t2 Äpfel, t3 banana, t4 Zebra, t5 zebra, t6 éclair (precomposed), t7 Eclair, t8 file2, t9 file10, t10 nil, t11 éclair (decomposed), t12 file02"
        return [
            c("sort-comparators", section: s, "byteOrder, caseInsensitive and localizedStandard order a mixed-case, accented list exactly as the contract defines, nil first, ties by bytes.") { ctx in
                try seedTexts(ctx, words)
                func order(_ comparator: StringComparator, _ direction: SortOrder = .ascending) throws -> [String] {
                    try texts(ctx, nil, sort: [SortKey("string", order: direction, comparator: comparator)])
                }
                // Bytes: uppercase (0x41…) before lowercase (0x61…), "e" + U+0301 (65 CC 81) before
                // "file…", "file0" < "file1" < "file2", then the two-byte Ä (C3 84) and é (C3 A9).
                try ctx.checkEqual(try order(.byteOrder), ["t10", "t1", "t7", "t4", "t0", "t3", "t11", "t12", "t9", "t8", "t5", "t2", "t6"], "byteOrder of [\(legend)]")
                try ctx.checkEqual(try texts(ctx, nil, sort: [SortKey("string")]), try order(.byteOrder), "a key without comparator sorts as byteOrder")
                // Lowercased, by code point: "eclair" < "e\u{301}clair" (c before U+0301), digits
                // are characters ("file02" < "file10" < "file2"), ä (E4) and é (E9) after z;
                // "Apple"/"apple" and "Zebra"/"zebra" tie and fall back to bytes (uppercase first).
                try ctx.checkEqual(try order(.caseInsensitive), ["t10", "t1", "t0", "t3", "t7", "t11", "t12", "t9", "t8", "t4", "t5", "t2", "t6"], "caseInsensitive of [\(legend)]")
                // Folded (lowercase, no accents): apfel < apple < banana < eclair (three ways,
                // ties by bytes: E 0x45, e 0x65, é 0xC3) < file{2} (file02 before file2 by bytes)
                // < file{10} < zebra.
                let standard = ["t10", "t2", "t1", "t0", "t3", "t7", "t11", "t6", "t12", "t8", "t9", "t4", "t5"]
                try ctx.checkEqual(try order(.localizedStandard), standard, "localizedStandard of [\(legend)]")
                try ctx.checkEqual(try order(.localizedStandard, .descending), standard.reversed(), "localizedStandard descending (nil last) of [\(legend)]")
                // Labels t0…t12: digit runs as numbers put t10 after t9; bytes put it after t1.
                try ctx.checkEqual(try texts(ctx, nil, sort: [SortKey("label", comparator: .localizedStandard)]), (0...12).map { "t\($0)" }, "labels, localizedStandard")
                try ctx.checkEqual(try texts(ctx, nil, sort: [SortKey("label")]), ["t0", "t1", "t10", "t11", "t12", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"], "labels, byteOrder")
            },
            c("sort-comparators-paths-and-windows", section: s, "A comparator applies through a to-one path, beside other keys, under a window; non-string keys ignore it.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "Beta"]), ctx.new("Library", ["name": "Alpha"]), ctx.new("Library", ["name": "alpha"]))
                var books: [PersistentIdentifier] = []
                for (i, lib) in [libs[0], libs[1], libs[2], libs[1]].enumerated() {  // one save each: key order is list order
                    books += try ctx.insert(ctx.new("Book", ["title": .string("b\(i)"), "pages": .int(Int64(10 - i))], ["library": .toOne(lib)]))
                }
                func titles(_ sort: [SortKey], limit: Int? = nil, offset: Int = 0) throws -> [String] {
                    try ctx.fetch("Book", sort: sort, limit: limit, offset: offset).map { $0["title"].string ?? "?" }
                }
                // b0 Beta, b1 Alpha, b2 alpha, b3 Alpha.
                try ctx.checkEqual(try titles([SortKey("library.name")]), ["b1", "b3", "b0", "b2"], "books by library name, byteOrder")
                try ctx.checkEqual(try titles([SortKey("library.name", comparator: .caseInsensitive)]), ["b1", "b3", "b2", "b0"], "books by library name, caseInsensitive")
                try ctx.checkEqual(try titles([SortKey("library.name", order: .descending, comparator: .localizedStandard), SortKey("pages")]), ["b0", "b2", "b3", "b1"], "library name descending (localizedStandard), then pages")
                try ctx.checkEqual(try titles([SortKey("library.name", comparator: .caseInsensitive)], limit: 2, offset: 1), ["b3", "b2"], "caseInsensitive with offset 1, limit 2")
                try ctx.checkEqual(try titles([SortKey("pages", comparator: .localizedStandard)]), ["b3", "b2", "b1", "b0"], "an int key ignores the comparator")
            },
        ]
    }()
}
