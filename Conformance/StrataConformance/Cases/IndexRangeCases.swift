import Strata

extension ConformanceSuite {
    /// Top-level range comparisons on an indexed and on a unique attribute, each checked against a scan
    /// of every record filtered by `Value.satisfies` (a fetch no index can answer); and an ordered
    /// to-many that gets a member with a lower key than its last one (issue 27).
    static let indexRangeCases: [ConformanceCase] = {
        let c = ConformanceCategory.fetch.cases(requiring: [])
        let r = ConformanceCategory.relationships.cases(requiring: .orderedRelationships)
        return [
            c("range-on-indexed-matches-scan", "A top-level <, <=, >, >= on an indexed attribute returns what a scan filtered by the same comparison returns, negative keys, extremes and bounds equal to stored values included, in count, set and sorted order.") { ctx in
                let library = try ctx.insert(ctx.new("Library", ["name": "Range"]))[0]
                let pages: [Int64] = [5, -1, .min, 0, -1000, 1, .max, -1, -2, 1000, 0, 2]
                for (i, p) in pages.enumerated() {
                    try ctx.insert(ctx.new("Book", ["title": .string("b\(i)"), "pages": .int(p)], ["library": .toOne(library)]))
                }
                let bounds = Set(pages + [-3, 3, -999, .min + 1, .max - 1]).sorted().map { Value.int($0) }
                try checkRangesMatchScan(ctx, entity: "Book", attribute: "pages", bounds: bounds, described: "pages \(pages)")
            },
            c("range-on-unique-double-matches-scan", "A top-level <, <=, >, >= on a unique Double returns what a scan filtered by the same comparison returns: negative numbers, −0 equal to +0, NaN matching no range, nil excluded, bounds equal to stored values included.") { ctx in
                let values: [Value] = [
                    .double(2.5), .double(-0.0), .double(-1), .double(.nan), .null, .double(-.infinity), .double(-1e300),
                    .double(.leastNonzeroMagnitude), .double(-2.5), .double(1), .double(.infinity), .double(.nan), .double(1e300),
                    .null, .double(-.leastNonzeroMagnitude),
                ]
                for v in values { try ctx.insert(ctx.new("Reading", ["value": v])) }
                let bounds: [Value] = values.filter { !$0.isNull } + [.double(0), .double(-0.5), .double(0.5), .double(-Double(nan: 7, signaling: false))]
                try checkRangesMatchScan(ctx, entity: "Reading", attribute: "value", bounds: bounds, described: "values \(values)")
            },
            r("ordered-append-lower-key", "Appending to an ordered to-many a record whose key is lower than the list's last member puts it last, from the to-one side or the list, to a list of one member or several, and after reopen.") { ctx in
                // s-late gets the lowest key: appended last to a list of three, it must not sort in
                // among members whose keys are higher.
                let late = try ctx.insert(ctx.new("Shelf", ["label": "s-late"]))[0]
                let old = try ctx.insert(ctx.new("Shelf", ["label": "s-low"]))[0]
                let mid = try ctx.insert(ctx.new("Shelf", ["label": "s-mid"]))[0]
                let lib = ctx.new("Library", ["name": "L"])
                let high = ctx.new("Shelf", ["label": "s-high"], ["library": .toOne(lib.id)])
                let ids = try ctx.insert(lib, high)
                var shelf = try ctx.get(old)
                shelf.set("library", to: ids[0])
                try ctx.save(updated: [shelf])
                try ctx.checkEqual(try ctx.get(ids[0]).targets("shelves"), [ids[1], old], "shelves after setting the lower-key shelf's library (s-high, then s-low)")
                var library = try ctx.get(ids[0])
                library.set("shelves", to: [ids[1], old, mid])
                try ctx.save(updated: [library])
                let expected = [ids[1], old, mid]
                try ctx.checkEqual(try ctx.get(ids[0]).targets("shelves"), expected, "shelves after appending to the list a shelf with a lower key than s-high (s-high, s-low, s-mid)")
                try ctx.checkEqual(try ctx.get(mid).target("library"), ids[0], "the appended shelf's library")
                // From the to-one side onto a list of three: after the last member, not after the first.
                var lateShelf = try ctx.get(late)
                lateShelf.set("library", to: ids[0])
                try ctx.save(updated: [lateShelf])
                let all = expected + [late]
                try ctx.checkEqual(try ctx.get(ids[0]).targets("shelves"), all, "shelves after setting the library of s-late, whose key is lower than s-high's (s-high, s-low, s-mid, s-late)")
                if ctx.store.capabilities.contains(.persistence) {
                    try ctx.reopen()
                    try ctx.checkEqual(try ctx.get(ids[0]).targets("shelves"), all, "shelves after reopen")
                }
            },
        ]
    }()

    /// For every range operator and bound: the fetch, its count, and the fetch sorted by the attribute
    /// (both directions, and a window) against every record of `entity` filtered by `Value.satisfies`.
    static func checkRangesMatchScan(_ ctx: CaseContext, entity: String, attribute: String, bounds: [Value], described: String) throws {
        let all = try ctx.fetch(entity)
        for op in [ComparisonOperator.less, .lessOrEqual, .greater, .greaterOrEqual] {
            for bound in bounds {
                let predicate = FetchPredicate.compare(PropertyPath([attribute]), op, bound)
                let what = "\(entity) where \(attribute) \(op) \(bound), \(described)"
                let expected = all.filter { Value.satisfies($0[attribute], op, bound) }
                try ctx.checkEqual(try ctx.fetch(entity, predicate).map(\.id), expected.map(\.id), "\(what) (key order), against a scan")
                try ctx.checkEqual(try ctx.count(entity, predicate), expected.count, "count of \(what), against a scan")
                let ascending = expected.enumerated().sorted { a, b in
                    let order = Value.sortOrder(a.element[attribute], b.element[attribute])
                    return order != 0 ? order < 0 : a.offset < b.offset
                }.map(\.element.id)
                let descending = expected.enumerated().sorted { a, b in
                    let order = Value.sortOrder(a.element[attribute], b.element[attribute])
                    return order != 0 ? order > 0 : a.offset < b.offset
                }.map(\.element.id)
                try ctx.checkEqual(try ctx.fetch(entity, predicate, sort: [SortKey(PropertyPath([attribute]))]).map(\.id), ascending, "\(what), sorted ascending, against a scan")
                try ctx.checkEqual(try ctx.fetch(entity, predicate, sort: [SortKey(PropertyPath([attribute]), order: .descending)]).map(\.id), descending, "\(what), sorted descending, against a scan")
                try ctx.checkEqual(try ctx.fetch(entity, predicate, sort: [SortKey(PropertyPath([attribute]))], limit: 2, offset: 1).map(\.id), Array(ascending.dropFirst(1).prefix(2)), "\(what), sorted ascending, offset 1, limit 2, against a scan")
            }
        }
    }
}
