import Strata

extension ConformanceSuite {
    /// Cases for malformed request shapes that the mutation run found unchecked: one record named
    /// twice in the inserts or twice in the updates of a single save.
    static let requestShapeCases: [ConformanceCase] = {
        let c = ConformanceCategory.identifiers.cases(requiring: [])
        return [
            c("same-record-twice-in-one-save-rejected", "Inserting one snapshot twice, or updating one record twice, in a save is invalidRequest and changes nothing.") { ctx in
                let lonely = ctx.new("Library", ["name": "Lonely"])
                let inserted = try ctx.expectError(.invalidRequest, "Library \"Lonely\" listed twice in the inserts") { try ctx.save(inserted: [lonely, lonely]) }
                try ctx.check(inserted.identifiers.contains(lonely.id), "The error names \(inserted.identifiers), not Library \"Lonely\" (\(lonely.id)).")
                try ctx.checkEqual(try ctx.count("Library"), 0, "libraries after the rejected insert of Library \"Lonely\" twice")
                let id = try ctx.insert(ctx.new("Library", ["name": "Central", "city": "Paris"]))[0]
                let before = try ctx.everything()
                var first = try ctx.get(id), second = first
                first["city"] = "Lyon"
                second["city"] = "Nice"
                let updated = try ctx.expectError(.invalidRequest, "Library \"Central\" listed twice in the updates (city Lyon, then Nice)") { try ctx.save(updated: [first, second]) }
                try ctx.check(updated.identifiers.contains(id), "The error names \(updated.identifiers), not Library \"Central\" (\(id)).")
                try ctx.expectUnchanged(before, "updating Library \"Central\" twice in one save")
            },
        ]
    }()
}
