import Foundation
import Strata

extension ConformanceSuite {
    static let badInputCases: [ConformanceCase] = {
        let c = ConformanceCategory.badInput.cases(requiring: [])
        return [
            c("unknown-entity-fetch", "Fetching an entity the schema lacks fails with unknownEntity.") { ctx in
                try ctx.expectError(.unknownEntity, "fetch of Nope") { _ = try ctx.fetch("Nope") }
                try ctx.expectError(.unknownEntity, "count of Nope") { _ = try ctx.count("Nope") }
            },
            c("unknown-entity-save", "Saving a snapshot whose identifier names an unknown entity fails with unknownEntity.") { ctx in
                var record = ctx.new("Sample", ["label": "x"])
                record.id = .temporary(entity: "Nope")
                try ctx.expectError(.unknownEntity, "insert into Nope") { try ctx.save(inserted: [record]) }
            },
            c("unknown-property-predicate", "A predicate on an unknown property fails with unknownProperty.") { ctx in
                try ctx.expectError(.unknownProperty, "predicate on nope") { _ = try ctx.fetch("Sample", .compare("nope", .equal, 1)) }
                try ctx.expectError(.unknownProperty, "path through library.nope") { _ = try ctx.fetch("Book", .compare("library.nope", .equal, 1)) }
            },
            c("unknown-property-sort", "A sort on an unknown property fails with unknownProperty.") { ctx in
                try ctx.expectError(.unknownProperty, "sort by nope") { _ = try ctx.fetch("Sample", sort: [SortKey("nope")]) }
            },
            c("wrong-type-value", "A value of the wrong type fails with typeMismatch and saves nothing.") { ctx in
                try ctx.expectError(.typeMismatch, "a string in an int attribute") { try ctx.insert(ctx.new("Sample", ["label": "x", "int": "seven"])) }
                try ctx.expectError(.typeMismatch, "an int in a date attribute") { try ctx.insert(ctx.new("Sample", ["label": "x", "date": 5])) }
                try ctx.checkEqual(try ctx.count("Sample"), 0, "samples")
            },
            c("wrong-type-predicate", "A predicate constant of the wrong type fails with typeMismatch.") { ctx in
                try ctx.expectError(.typeMismatch, "int attribute compared with a string") { _ = try ctx.fetch("Sample", .compare("int", .equal, "1")) }
                try ctx.expectError(.typeMismatch, "string search on an int") { _ = try ctx.fetch("Sample", .text("int", .contains, "1", caseInsensitive: false)) }
            },
            c("missing-required-value", "nil in a non-optional attribute fails with missingRequiredValue.") { ctx in
                let error = try ctx.expectError(.missingRequiredValue, "a sample without label") { try ctx.insert(ctx.new("Sample")) }
                try ctx.checkEqual(error.properties, ["label"], "error properties")
            },
            c("wrong-shape-snapshot", "A snapshot with the wrong number of values fails with typeMismatch.") { ctx in
                var record = ctx.new("Sample", ["label": "x"])
                record.attributes.removeLast()
                try ctx.expectError(.typeMismatch, "a snapshot missing one attribute") { try ctx.save(inserted: [record]) }
            },
            c("wrong-relationship-shape", "A to-many value in a to-one relationship fails with typeMismatch.") { ctx in
                let lib = ctx.new("Library", ["name": "L"])
                var book = ctx.new("Book", ["title": "B"])
                book.relationships[ctx.entity("Book").relationshipIndex("library")!] = .toMany([lib.id])
                try ctx.expectError(.typeMismatch, "library given as a list") { try ctx.insert(lib, book) }
            },
            c("wrong-target-entity", "A reference to a record of the wrong entity fails with typeMismatch.") { ctx in
                let sample = try ctx.insert(ctx.new("Sample", ["label": "not a library"]))[0]
                try ctx.expectError(.typeMismatch, "a book whose library is a Sample") { try ctx.insert(ctx.new("Book", ["title": "B"], ["library": .toOne(sample)])) }
            },
            c("dangling-reference", "A reference to a deleted record fails with unknownIdentifier.") { ctx in
                let lib = try ctx.insert(ctx.new("Library", ["name": "Gone"]))[0]
                try ctx.delete(lib)
                try ctx.expectError(.unknownIdentifier, "a book pointing at a deleted library") {
                    try ctx.insert(ctx.new("Book", ["title": "B"], ["library": .toOne(lib)]))
                }
            },
            c("forged-foreign-identifier", "An identifier naming a store that does not exist fails with unknownIdentifier.") { ctx in
                let forged = PersistentIdentifier(storeIdentifier: "not-\(ctx.store.identifier)", entityName: "Library", primaryKey: 1)
                try ctx.insert(ctx.new("Library", ["name": "L"]))
                try ctx.expectError(.unknownIdentifier, "a book pointing at a forged library") {
                    try ctx.insert(ctx.new("Book", ["title": "B"], ["library": .toOne(forged)]))
                }
            },
            c("insert-permanent-rejected", "Inserting a snapshot that already has a permanent identifier is rejected.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "x"]))[0]
                var copy = try ctx.get(id)
                copy["label"] = "copy"
                try ctx.expectError(.invalidRequest, "re-inserting a saved record") { try ctx.save(inserted: [copy]) }
                try ctx.checkEqual(try ctx.count("Sample"), 1, "samples")
            },
            c("schema-mismatch-on-reopen", requires: .persistence, "Opening a store with another schema fails with schemaMismatch and keeps the data.") { ctx in
                let id = try ctx.insert(ctx.new("Sample", ["label": "kept"]))[0]
                try ctx.expectError(.schemaMismatch, "reopen with a changed schema") { _ = try ctx.reopen(with: FixtureDomain.changedSchema) }
                try ctx.reopen()
                try ctx.checkEqual(try ctx.get(id)["label"], "kept", "data after the refused open")
            },
            c("negative-window", "A negative offset or limit fails with a clear error, not a crash.") { ctx in
                do {
                    _ = try ctx.fetch("Sample", limit: -1)
                    throw CaseFailure(message: "A fetch with limit -1 succeeded.")
                } catch is StrataError {}
            },
        ]
    }()
}
