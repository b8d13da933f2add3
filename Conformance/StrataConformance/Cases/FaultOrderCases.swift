import Strata

extension ConformanceSuite {
    /// Which fault a save or fetch with several faults reports, and which records the error names:
    /// the contract's order ("Which fault a save reports", section 5), the same on every backend.
    /// Runs `body`, requires `code`, requires the error to name `first` first, and nothing changed.
    @discardableResult
    static func expectFault(_ ctx: CaseContext, _ code: StrataError.Code, first: PersistentIdentifier?, entity: String? = nil, _ what: String, _ body: () throws -> Void) throws -> StrataError {
        let before = try ctx.everything()
        let error = try ctx.expectError(code, what, body)
        if let first { try ctx.checkEqual(error.identifiers.first, first, "\(what): the record the error names first") }
        if let entity { try ctx.checkEqual(error.entity, entity, "\(what): the entity the error names") }
        try ctx.expectUnchanged(before, what)
        return error
    }

    static let faultOrderCases: [ConformanceCase] = {
        let c = ConformanceCategory.atomicity.cases(requiring: [])
        return [
            c("fault-order-request-first", "Faults in the request itself (values, identifiers, references) are reported before delete rules, relationship rules and unique constraints.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "A"]))
                let noTitle = ctx.new("Book", ["title": .null])
                try expectFault(ctx, .missingRequiredValue, first: noTitle.id, "a save with a duplicate Library A and a book without title") {
                    try ctx.save(inserted: [ctx.new("Library", ["name": "A"]), noTitle])
                }
                let gone = try ctx.insert(ctx.new("Library", ["name": "Gone"]))[0]
                try ctx.delete(gone)
                let dangling = ctx.new("Book", ["title": "t"], ["library": .toOne(gone)])
                try expectFault(ctx, .unknownIdentifier, first: gone, "a save with a duplicate Library A and a book in deleted Library Gone") {
                    try ctx.save(inserted: [ctx.new("Library", ["name": "A"]), dangling])
                }
            },
            c("fault-order-request-order", "Request faults are reported in request order: inserts, then updates, then deletes; within a record, its values before its references.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let gone = try ctx.insert(ctx.new("Library", ["name": "Gone"]))[0]
                try ctx.delete(gone)
                let noLabel = ctx.new("Sample", ["label": .null])
                let wrongType = ctx.new("Sample", ["label": .int(1)])
                try expectFault(ctx, .missingRequiredValue, first: noLabel.id, "inserts [Sample without label, Sample with an int label]") { try ctx.save(inserted: [noLabel, wrongType]) }
                try expectFault(ctx, .typeMismatch, first: wrongType.id, "inserts [Sample with an int label, Sample without label]") { try ctx.save(inserted: [wrongType, noLabel]) }
                let dangling = ctx.new("Book", ["title": "t"], ["library": .toOne(gone)])
                try expectFault(ctx, .unknownIdentifier, first: gone, "inserts [book in deleted Library Gone, Sample without label]") { try ctx.save(inserted: [dangling, noLabel]) }
                try expectFault(ctx, .missingRequiredValue, first: noLabel.id, "inserts [Sample without label, book in deleted Library Gone]") { try ctx.save(inserted: [noLabel, dangling]) }
                var badUpdate = try ctx.get(lib)
                badUpdate["name"] = .null
                let unknown = PersistentIdentifier(storeIdentifier: ctx.store.identifier, entityName: "Library", primaryKey: 999_999)
                var ghost = badUpdate
                ghost.id = unknown
                try expectFault(ctx, .missingRequiredValue, first: noLabel.id, "an update of an unknown library and an insert without label") { try ctx.save(inserted: [noLabel], updated: [ghost]) }
                try expectFault(ctx, .missingRequiredValue, first: lib, "an update of Library L without name and a delete of an unknown library") { try ctx.save(updated: [badUpdate], deleted: [ghost]) }
            },
            c("fault-order-rules", "After the request: delete rules (deny) first, then required relationships and counts, then unique constraints.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "A"]))[0]
                let shelf = try ctx.insert(ctx.new("Shelf", ["label": "S"]))[0]
                try ctx.insert(ctx.new("Book", ["title": "held"], ["library": .toOne(lib), "shelf": .toOne(shelf)]))
                try expectFault(ctx, .deleteDenied, first: shelf, "deleting Shelf S (deny, holds a book) with a book without library and a duplicate Library A") {
                    try ctx.save(inserted: [ctx.new("Library", ["name": "A"]), ctx.new("Book", ["title": "orphan"])], deleted: [try ctx.get(shelf)])
                }
                let orphan = ctx.new("Book", ["title": "orphan"])
                try expectFault(ctx, .missingRequiredRelationship, first: orphan.id, "a book without library and a duplicate Library A") {
                    try ctx.save(inserted: [ctx.new("Library", ["name": "A"]), orphan])
                }
            },
            c("fault-order-records-by-key", "Among records breaking delete or relationship rules, the one with the lowest key (entity in schema order) is named; stored records come before inserts.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "L"]))[0]
                let shelves = try ctx.insert(ctx.new("Shelf", ["label": "S1"]), ctx.new("Shelf", ["label": "S2"]))
                try ctx.insert(ctx.new("Book", ["title": "on S2"], ["library": .toOne(lib), "shelf": .toOne(shelves[1])]), ctx.new("Book", ["title": "on S1"], ["library": .toOne(lib), "shelf": .toOne(shelves[0])]))
                try expectFault(ctx, .deleteDenied, first: shelves[0], "deleting [Shelf S2, Shelf S1], both holding a book") {
                    try ctx.save(deleted: [try ctx.get(shelves[1]), try ctx.get(shelves[0])])
                }
                let teams = [ctx.new("Team", ["name": "T1"]), ctx.new("Team", ["name": "T2"])]
                try expectFault(ctx, .relationshipCountViolation, first: teams[0].id, "two teams without members") { try ctx.save(inserted: teams) }
                let player = ctx.new("Player", ["name": "P"])
                let team = try ctx.insert([ctx.new("Team", ["name": "Kept"], ["members": .toMany([player.id])]), player])
                var leaving = try ctx.get(team[1])
                leaving.set("team", to: nil as PersistentIdentifier?)
                try expectFault(ctx, .relationshipCountViolation, first: team[0], "a new empty team and Team Kept losing its only member") {
                    try ctx.save(inserted: [ctx.new("Team", ["name": "Empty"])], updated: [leaving])
                }
            },
            c("fault-order-unique", "Among unique violations: the first entity in schema order, its first constraint, the collision whose offender has the lowest key; the error names the record that held the value, then the offender.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                try ctx.insert(ctx.new("Tag", ["name": "t"]))
                let dupA = ctx.new("Library", ["name": "A"])
                try expectFault(ctx, .uniqueConstraintViolation, first: libs[0], entity: "Library", "a duplicate Tag t and a duplicate Library A") {
                    try ctx.save(inserted: [ctx.new("Tag", ["name": "t"]), dupA])
                }
                let newB = ctx.new("Library", ["name": "B"]), newA = ctx.new("Library", ["name": "A"])
                let error = try ctx.expectError(.uniqueConstraintViolation, "inserting [Library B, Library A] while both are stored") { try ctx.save(inserted: [newB, newA]) }
                try ctx.checkEqual(error.identifiers, [libs[1], newB.id], "records named for inserts [B, A] (the collision whose offender has the lowest key)")
                var a = try ctx.get(libs[0]), b = try ctx.get(libs[1])
                a["name"] = "C"; b["name"] = "C"
                let both = try ctx.expectError(.uniqueConstraintViolation, "renaming Library A and Library B both to C") { try ctx.save(updated: [b, a]) }
                try ctx.checkEqual(both.identifiers, [libs[0], libs[1]], "records named when A and B both take C (neither held it: lowest key first)")
                var onlyB = try ctx.get(libs[1])
                onlyB["name"] = "A"
                var sameA = try ctx.get(libs[0])
                sameA["city"] = "Lyon"
                let held = try ctx.expectError(.uniqueConstraintViolation, "renaming Library B to A while A is re-saved unchanged") { try ctx.save(updated: [onlyB, sameA]) }
                try ctx.checkEqual(held.identifiers, [libs[0], libs[1]], "records named (A held the value before the save)")
            },
            c("fault-order-updated-records-by-key", "Among stored records breaking relationship rules, the one with the lowest key is named, whatever the request order and whether the save changed it directly or through an inverse.") { ctx in
                let players = [ctx.new("Player", ["name": "P1"]), ctx.new("Player", ["name": "P2"])]
                let teams = try ctx.insert([ctx.new("Team", ["name": "T1"], ["members": .toMany([players[0].id])]), ctx.new("Team", ["name": "T2"], ["members": .toMany([players[1].id])])] + players)
                var t1 = try ctx.get(teams[0]), t2 = try ctx.get(teams[1])
                t1.set("members", to: [PersistentIdentifier]())
                t2.set("members", to: [PersistentIdentifier]())
                try expectFault(ctx, .relationshipCountViolation, first: teams[0], entity: "Team", "emptying Team T2 then Team T1 (one member each, at least one required)") {
                    try ctx.save(updated: [t2, t1])
                }
                var p1 = try ctx.get(teams[2]), p2 = try ctx.get(teams[3])
                p1.set("team", to: nil as PersistentIdentifier?)
                p2.set("team", to: nil as PersistentIdentifier?)
                try expectFault(ctx, .relationshipCountViolation, first: teams[0], entity: "Team", "Player P2 then Player P1 leaving their teams T2 and T1 (each team's only member)") {
                    try ctx.save(updated: [p2, p1])
                }
            },
            c("fault-order-unique-holder-not-lowest", "A collision's error names first the record that held the values before the save, even when the offender has the lower key.") { ctx in
                let libs = try ctx.insert(ctx.new("Library", ["name": "A"]), ctx.new("Library", ["name": "B"]))
                var a = try ctx.get(libs[0])
                a["name"] = "B"
                let error = try expectFault(ctx, .uniqueConstraintViolation, first: libs[1], entity: "Library", "renaming Library A (lower key) to B, which Library B holds") {
                    try ctx.save(updated: [a])
                }
                try ctx.checkEqual(error.identifiers, [libs[1], libs[0]], "records named: the holder Library B, then the offender Library A")
                let books = try ctx.insert(ctx.new("Book", ["title": "T"], ["library": .toOne(libs[0])]), ctx.new("Book", ["title": "T"], ["library": .toOne(libs[1])]))
                var first = try ctx.get(books[0])
                first.set("library", to: libs[1])
                let moved = try expectFault(ctx, .uniqueConstraintViolation, first: books[1], entity: "Book", "moving book \"T\" of Library A into Library B, which holds a book \"T\"") {
                    try ctx.save(updated: [first])
                }
                try ctx.checkEqual(moved.identifiers, [books[1], books[0]], "records named: the holder (book \"T\" of Library B), then the moved book")
            },
            c("fault-order-unique-text-bytes", "Unique text collides by bytes, also in the records an error names: of two canonically equivalent names, only the byte-equal one is the holder.") { ctx in
                let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
                let tags = try ctx.insert(ctx.new("Tag", ["name": .string(decomposed)]), ctx.new("Tag", ["name": .string(composed)]))
                let newComposed = ctx.new("Tag", ["name": .string(composed)]), newDecomposed = ctx.new("Tag", ["name": .string(decomposed)])
                let error = try expectFault(ctx, .uniqueConstraintViolation, first: tags[1], entity: "Tag", "inserting tags café (U+00E9) then cafe + U+0301 while both are stored (cafe + U+0301 has the lower key)") {
                    try ctx.save(inserted: [newComposed, newDecomposed])
                }
                try ctx.checkEqual(error.identifiers, [tags[1], newComposed.id], "records named: the stored café (U+00E9), then the new café (U+00E9) — not the decomposed tag, which holds other bytes")
            },
            c("fault-order-fetch", section: "§6 Fetch", "A fetch with several faults reports the entity first, then the window, then the predicate (depth first, left to right), then the sort keys in order.") { ctx in
                func fault(_ d: FetchDescriptor) -> StrataError? {
                    guard case .failure(let error) = Result(catching: { try ctx.store.fetch(d) }) else { return nil }
                    return error as? StrataError
                }
                let bad = FetchPredicate.and([.compare("nope", .equal, 1), .compare("label", .equal, 1)])
                let cases: [(FetchDescriptor, StrataError.Code, [String], String)] = [
                    (FetchDescriptor(entity: "Nowhere", predicate: bad, fetchLimit: -1), .unknownEntity, [], "unknown entity, bad predicate, negative limit"),
                    (FetchDescriptor(entity: "Sample", predicate: bad, sortBy: [SortKey("zzz")], fetchLimit: -1), .typeMismatch, [], "bad predicate, bad sort, negative limit"),
                    (FetchDescriptor(entity: "Sample", predicate: bad, sortBy: [SortKey("zzz")]), .unknownProperty, ["nope"], "predicate on 'nope' (then a type error), sort on 'zzz'"),
                    (FetchDescriptor(entity: "Sample", predicate: .compare("label", .equal, 1), sortBy: [SortKey("zzz")]), .typeMismatch, ["label"], "predicate comparing label with an int, sort on 'zzz'"),
                    (FetchDescriptor(entity: "Sample", sortBy: [SortKey("zzz"), SortKey("yyy")]), .unknownProperty, ["zzz"], "sort on 'zzz' then 'yyy'"),
                ]
                for (d, code, properties, what) in cases {
                    guard let e = fault(d) else { throw CaseFailure(message: "A fetch with \(what) succeeded; expected \(code.rawValue).") }
                    try ctx.checkEqual(e.code, code, "the fault reported for a fetch with \(what)")
                    if !properties.isEmpty { try ctx.checkEqual(e.properties, properties, "the property named for a fetch with \(what)") }
                }
            },
            c("second-instance-locked-or-shared", "A second instance opened on a location already open either fails with storeLocked, leaving the first usable, or shares it safely: each sees the other's saves and none is lost.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "First"]))
                let second: any SuiteStore
                do {
                    second = try ctx.openSameLocation()
                } catch let error as StrataError where error.code == .storeLocked {
                    try ctx.insert(ctx.new("Library", ["name": "After refusal"]))
                    try ctx.checkEqual(try ctx.count("Library"), 2, "libraries in the first instance after the second was refused")
                    return
                }
                let seen = try second.fetch(FetchDescriptor(entity: "Library")).map { $0["name"].string ?? "?" }
                try ctx.checkEqual(seen, ["First"], "libraries the second instance sees")
                let other = ctx.new("Library", ["name": "Second"])
                let saved = try second.save(inserted: [other], updated: [], deleted: []).remapped[other.id]
                try ctx.insert(ctx.new("Library", ["name": "Third"]))
                let names = try ctx.fetch("Library", sort: [SortKey("name")]).map { $0["name"].string ?? "?" }
                try ctx.checkEqual(names, ["First", "Second", "Third"], "libraries the first instance sees after saves through both")
                try ctx.checkEqual(try second.fetchCount(FetchDescriptor(entity: "Library")), 3, "libraries the second instance counts")
                try ctx.expectError(.uniqueConstraintViolation, "the first instance inserting Library Second, saved through the second") {
                    try ctx.insert(ctx.new("Library", ["name": "Second"]))
                }
                try ctx.check(saved != nil, "The second instance's save returned no identifier for Library Second.")
            },
        ]
    }()
}
