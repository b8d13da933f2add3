import Strata

extension ConformanceSuite {
    static let persistenceCases: [ConformanceCase] = {
        let c = ConformanceCategory.persistence.cases(requiring: .persistence)
        return [
            c("inserts-survive", "Inserted records are all there after reopen.") { ctx in
                try ctx.insert((0..<50).map { ctx.new("Sample", ["label": .string("p\($0)"), "int": .int(Int64($0))]) })
                let before = try ctx.everything()
                try ctx.reopen()
                try ctx.checkEqual(try ctx.everything(), before, "records after reopen")
            },
            c("updates-survive", "Updates are there after reopen.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "old"]))[0]
                var r = try ctx.get(id)
                r["label"] = "new"
                try ctx.save(updated: [r])
                try ctx.reopen()
                try ctx.checkEqual(try ctx.get(id)["label"], "new", "label after reopen")
            },
            c("deletes-survive", "Deleted records stay deleted after reopen.") { ctx in
                let ids = try ctx.insert(ctx.new("Sample", ["label": "a"]), ctx.new("Sample", ["label": "b"]))
                try ctx.delete(ids[0])
                try ctx.reopen()
                try ctx.checkEqual(try ctx.store.fetchIdentifiers(FetchDescriptor(entity: "Sample")), [ids[1]], "identifiers after reopen")
            },
            c("graph-survives", "The relationship graph, ordered lists included, is the same after reopen.") { ctx in
                let lib = ctx.new("Library", ["name": "G"])
                let shelves = (0..<3).map { ctx.new("Shelf", ["label": .string("s\($0)")]) }
                var l = lib
                l.set("shelves", to: [shelves[2].id, shelves[0].id, shelves[1].id])
                let book = ctx.new("Book", ["title": "T"], ["library": .toOne(lib.id), "shelf": .toOne(shelves[1].id)])
                let author = ctx.new("Author", ["name": "A"], ["books": .toMany([book.id])])
                try ctx.insert([l, book, author] + shelves)
                let before = try ctx.everything()
                try ctx.reopen()
                try ctx.checkEqual(try ctx.everything(), before, "graph after reopen")
            },
            c("many-reopens", "Several save/reopen rounds accumulate correctly.") { ctx in
                for round in 0..<4 {
                    try ctx.insert(ctx.new("Sample", ["label": .string("round\(round)")]))
                    try ctx.reopen()
                    try ctx.checkEqual(try ctx.count("Sample"), round + 1, "records after round \(round)")
                }
            },
        ]
    }()
}
