import Foundation
import Strata

extension ConformanceSuite {
    /// The six samples every fetch case starts from (label, int, double, string, date offset, flag).
    @discardableResult
    static func seedSamples(_ ctx: CaseContext) throws -> [PersistentIdentifier] {
        let t = Date(timeIntervalSince1970: 1_600_000_000)
        let rows: [(String, Value, Value, Value, Value, Value)] = [
            ("s0", 3, 1.5, "apple", .date(t), true),
            ("s1", 1, -2.0, "Banana", .date(t + 10), false),
            ("s2", 3, nil, "cherry pie", nil, nil),
            ("s3", nil, 0.0, nil, .date(t + 5), true),
            ("s4", 2, 1.5, "APPLE tart", .date(t + 10), false),
            ("s5", 3, 9.0, "banana split", .date(t + 1), nil),
        ]
        var ids: [PersistentIdentifier] = []
        for row in rows {  // one save each, so primary key order is row order on every backend
            ids += try ctx.insert(ctx.new("Sample", ["label": .string(row.0), "int": row.1, "double": row.2, "string": row.3, "date": row.4, "flag": row.5]))
        }
        return ids
    }

    static let fetchCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [])
        /// A case that seeds the samples, fetches with a predicate and sort, and expects these labels in order.
        func labels(_ id: String, _ summary: String, _ predicate: FetchPredicate?, sort: [SortKey] = [], limit: Int? = nil, offset: Int = 0, _ expected: [String]) -> ConformanceCase {
            c(id, summary) { ctx in
                try seedSamples(ctx)
                let got = try ctx.fetch("Sample", predicate, sort: sort, limit: limit, offset: offset).map { $0["label"].string ?? "?" }
                try ctx.checkEqual(got, expected, "labels")
                let count = try ctx.store.fetchCount(FetchDescriptor(entity: "Sample", predicate: predicate, sortBy: sort, fetchLimit: limit, fetchOffset: offset))
                try ctx.checkEqual(count, expected.count, "fetchCount")
            }
        }
        let t = Date(timeIntervalSince1970: 1_600_000_000)
        return [
            labels("equal", "== on an int.", .compare("int", .equal, 3), ["s0", "s2", "s5"]),
            labels("not-equal", "!= holds for nil (Swift optional semantics).", .compare("int", .notEqual, 3), ["s1", "s3", "s4"]),
            labels("less", "< excludes nil.", .compare("int", .less, 3), ["s1", "s4"]),
            labels("less-or-equal", "<= on an int.", .compare("int", .lessOrEqual, 2), ["s1", "s4"]),
            labels("greater", "> on a double.", .compare("double", .greater, 1.5), ["s5"]),
            labels("greater-or-equal", ">= on a double.", .compare("double", .greaterOrEqual, 1.5), ["s0", "s4", "s5"]),
            labels("equal-nil", "== nil matches only nil.", .compare("int", .equal, nil), ["s3"]),
            labels("is-nil", "isNil on an optional string.", .isNil("string"), ["s3"]),
            labels("not-nil", "not isNil.", !.isNil("double"), ["s0", "s1", "s3", "s4", "s5"]),
            labels("in-list", "in-list on an int.", .isIn("int", [1, 2]), ["s1", "s4"]),
            labels("bool-equal", "== on a bool.", .compare("flag", .equal, true), ["s0", "s3"]),
            labels("date-range", "A date range.", .compare("date", .greater, .date(t)) && .compare("date", .lessOrEqual, .date(t + 5)), ["s3", "s5"]),
            labels("string-less", "< on strings compares UTF-8 bytes (uppercase first).", .compare("string", .less, "apple"), ["s1", "s4"]),
            labels("contains", "contains is case-sensitive.", .text("string", .contains, "an", caseInsensitive: false), ["s1", "s5"]),
            labels("contains-insensitive", "contains, case-insensitive.", .text("string", .contains, "APPLE", caseInsensitive: true), ["s0", "s4"]),
            labels("prefix", "hasPrefix is case-sensitive.", .text("string", .hasPrefix, "b", caseInsensitive: false), ["s5"]),
            labels("prefix-insensitive", "hasPrefix, case-insensitive.", .text("string", .hasPrefix, "B", caseInsensitive: true), ["s1", "s5"]),
            labels("suffix", "hasSuffix is case-sensitive.", .text("string", .hasSuffix, "e", caseInsensitive: false), ["s0", "s2"]),
            labels("suffix-insensitive", "hasSuffix, case-insensitive.", .text("string", .hasSuffix, "T", caseInsensitive: true), ["s4", "s5"]),
            labels("and-or-not", "and, or and not combine.", .or([.compare("int", .equal, 1), .and([.compare("int", .equal, 3), !.isNil("date")])]), ["s0", "s1", "s5"]),
            labels("empty-and-or", "An empty and holds; an empty or does not.", .and([.and([]), !.or([])]), ["s0", "s1", "s2", "s3", "s4", "s5"]),
            labels("compare-properties", "Two properties of the same record compared.", .compareProperties("int", .less, "count"), ["s0", "s1", "s2", "s4", "s5"]),
            labels("sort-ties-by-key", "Equal sort keys come out in primary key order.", nil, sort: [SortKey("int")], ["s3", "s1", "s4", "s0", "s2", "s5"]),
            labels("sort-descending-ties", "Descending: nil last, ties still in ascending key order.", nil, sort: [SortKey("int", order: .descending)], ["s0", "s2", "s5", "s4", "s1", "s3"]),
            labels("sort-multi-key", "Several sort keys, most significant first.", nil, sort: [SortKey("double", order: .descending), SortKey("label", order: .descending)], ["s5", "s4", "s0", "s3", "s1", "s2"]),
            labels("sort-strings-bytes", "Strings sort by UTF-8 bytes, nil first.", nil, sort: [SortKey("string")], ["s3", "s4", "s1", "s0", "s5", "s2"]),
            labels("sort-dates", "Dates sort by time, ties by key.", !.isNil("date"), sort: [SortKey("date")], ["s0", "s5", "s3", "s1", "s4"]),
            labels("limit", "fetchLimit.", nil, sort: [SortKey("label", order: .descending)], limit: 2, ["s5", "s4"]),
            labels("offset", "fetchOffset.", nil, sort: [SortKey("label")], offset: 4, ["s4", "s5"]),
            labels("limit-offset", "fetchLimit with fetchOffset, filtered.", .compare("int", .greaterOrEqual, 2), limit: 2, offset: 1, ["s2", "s4"]),
            labels("offset-past-end", "An offset past the end gives nothing.", nil, offset: 10, []),
            labels("limit-zero", "A limit of 0 gives nothing.", nil, limit: 0, []),
            labels("no-sort-key-order", "Without sort, records come in primary key order.", nil, ["s0", "s1", "s2", "s3", "s4", "s5"]),
            c("sort-doubles-special", "Doubles sort -inf < … < -0 = +0 < … < +inf < NaN, ties by key.") { ctx in
                let values: [Double] = [.nan, 1, -0.0, .infinity, -1, 0, -.infinity]
                var ids: [PersistentIdentifier] = []
                for (i, v) in values.enumerated() { ids += try ctx.insert(ctx.new("Sample", ["label": .string("d\(i)"), "double": .double(v)])) }
                let got = try ctx.fetch("Sample", sort: [SortKey("double")]).map { $0["label"].string ?? "?" }
                try ctx.checkEqual(got, ["d6", "d4", "d2", "d5", "d1", "d3", "d0"], "order")
                try ctx.checkEqual(try ctx.count("Sample", .compare("double", .equal, 0.0)), 2, "records equal to 0 (-0 included)")
                try ctx.checkEqual(try ctx.count("Sample", .compare("double", .equal, .double(.nan))), 0, "records equal to NaN")
            },
            c("count-all", "fetchCount of an entity.") { ctx in
                try seedSamples(ctx)
                try ctx.checkEqual(try ctx.count("Sample"), 6, "count")
                try ctx.checkEqual(try ctx.count("Library"), 0, "count of an empty entity")
            },
            c("identifiers-in-order", "fetchIdentifiers follows the sort.") { ctx in
                let ids = try seedSamples(ctx)
                let got = try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Sample", sortBy: [SortKey("int")]))
                try ctx.checkEqual(got, [ids[3], ids[1], ids[4], ids[0], ids[2], ids[5]], "identifiers")
            },
            c("by-identifier", "A fetch by identifiers returns those records, in key order, ignoring unknown ones.") { ctx in
                let ids = try seedSamples(ctx)
                let unknown = PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Sample", primaryKey: 99_999)
                let got = try ctx.fetch("Sample", .identifierIn([ids[4], unknown, ids[1]])).map(\.id)
                try ctx.checkEqual(got, [ids[1], ids[4]], "records")
                let combined = try ctx.fetch("Sample", .and([.identifierIn(ids), .compare("int", .equal, 3)])).map(\.id)
                try ctx.checkEqual(combined, [ids[0], ids[2], ids[5]], "identifiers combined with a filter")
            },
            c("to-one-target", "targetIs matches a to-one target, and nil matches empty.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                let books = try ctx.insert(ctx.new("Book", ["title": "1"], ["library": .toOne(libs[0])]), ctx.new("Book", ["title": "2"], ["library": .toOne(libs[1])]), ctx.new("Book", ["title": "3"], ["library": .toOne(libs[0])]))
                try ctx.checkEqual(try ctx.fetch("Book", .targetIs("library", libs[0])).map(\.id), [books[0], books[2]], "books of A")
                try ctx.checkEqual(try ctx.fetch("Book", .targetIs("shelf", nil)).count, 3, "books without shelf")
            },
            c("to-many-contains", "contains matches a to-many that holds the identifier.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                let book = try ctx.insert(ctx.new("Book", ["title": "1"], ["library": .toOne(libs[1])]))[0]
                try ctx.checkEqual(try ctx.fetch("Library", .contains("books", book)).map(\.id), [libs[1]], "libraries holding the book")
            },
            c("path-through-to-one", "A predicate and a sort may follow a to-one path.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "Zeta"]), ctx.new("Library", ["name": "Alpha"]))
                let books = try ctx.insert(ctx.new("Book", ["title": "1"], ["library": .toOne(libs[0])]), ctx.new("Book", ["title": "2"], ["library": .toOne(libs[1])]), ctx.new("Book", ["title": "3"], ["library": .toOne(libs[0])]))
                try ctx.checkEqual(try ctx.fetch("Book", .compare("library.name", .equal, "Zeta")).map(\.id), [books[0], books[2]], "books in Zeta")
                try ctx.checkEqual(try ctx.fetch("Book", sort: [SortKey("library.name")]).map(\.id), [books[1], books[0], books[2]], "books sorted by library name")
            },
            c("sees-latest-save", "A fetch sees the last committed save.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "v1"]))[0]
                var r = try ctx.get(id)
                r["label"] = "v2"
                try ctx.save(updated: [r])
                try ctx.checkEqual(try ctx.fetch("Sample", .compare("label", .equal, "v2")).map(\.id), [id], "fetch by new value")
                try ctx.checkEqual(try ctx.count("Sample", .compare("label", .equal, "v1")), 0, "fetch by old value")
            },
        ]
    }()
}
