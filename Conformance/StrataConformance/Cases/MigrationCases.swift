import Foundation
@_spi(StrataEngine) import Strata

extension ConformanceSuite {
    /// The fixture schema edited by `edit`, at version 2.0.0.
    static func fixture(_ edit: (inout [Entity]) -> Void) throws -> Schema {
        var entities = FixtureDomain.schema.entities.map(\.declaration)
        edit(&entities)
        return try Schema(entities: entities, version: Schema.Version(2, 0, 0))
    }

    /// The position of entity `name` in a declaration list.
    static func index(_ entities: [Entity], _ name: String) -> Int { entities.firstIndex { $0.name == name }! }

    /// One attribute of each record.
    static func names(_ records: [SuiteRecord], _ property: String = "name") -> [Value] { records.map { $0[property] } }

    /// Migration (issue 26): a backend applies a `SchemaMigration` atomically through
    /// `migrateStore` — in place for the built-in backends, by copy and swap for a
    /// `CopyAndSwapMigratable` one — and records the new schema. Cases compare records by content
    /// (names), not by key: the copy-and-swap path renumbers keys.
    static let migrationCases: [ConformanceCase] = {
        let c = ConformanceCategory.migration.cases(requiring: [.persistence])
        return [
            c("records-schema", "A store records its schema and version; a migration records the new ones.") { ctx in
                let before = try ctx.recordedSchema()
                try ctx.checkEqual(before?.fingerprint, FixtureDomain.schema.fingerprint, "recorded fingerprint before")
                try ctx.check(before?.schema?.entities.map(\.name) == FixtureDomain.schema.entities.map(\.name), "the recorded declaration lists the fixture's entities: \(String(describing: before))")
                let v2 = try fixture { $0[index($0, "Library")].attributes.append(Attribute("motto", .string, optional: true)) }
                try ctx.migrate(to: v2)
                let after = try ctx.recordedSchema()
                try ctx.checkEqual(after?.fingerprint, v2.fingerprint, "recorded fingerprint after")
                try ctx.checkEqual(after?.version, Schema.Version(2, 0, 0), "recorded version after")
            },
            c("add-attributes", "An added attribute takes its default in every record, or nil when optional without one.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "A", "city": "Oslo"]), ctx.new("Library", ["name": "B"]))
                try ctx.migrate(to: fixture {
                    $0[index($0, "Library")].attributes += [Attribute("founded", .int, default: 1900), Attribute("motto", .string, optional: true)]
                })
                let libraries = try ctx.fetch("Library", sort: [SortKey("name")])
                try ctx.checkEqual(names(libraries), [.string("A"), .string("B")], "names")
                try ctx.checkEqual(names(libraries, "city"), [.string("Oslo"), .null], "cities")
                try ctx.checkEqual(names(libraries, "founded"), [.int(1900), .int(1900)], "the new attribute's default")
                try ctx.checkEqual(names(libraries, "motto"), [.null, .null], "the new optional attribute")
            },
            c("remove-attribute", "A removed attribute's values are dropped; the rest of each record stays.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "A", "city": "Oslo"]))
                try ctx.migrate(to: fixture { $0[index($0, "Library")].attributes.removeAll { $0.name == "city" } })
                let library = try ctx.fetch("Library")
                try ctx.checkEqual(names(library), [.string("A")], "names")
                try ctx.checkEqual(library.first?.entity.attributes.map(\.name) ?? [], ["name"], "attributes")
            },
            c("rename-attribute", "An attribute renamed with originalName keeps its values, in its constraints too.") { ctx in
                let library = ctx.new("Library", ["name": "L"])
                try ctx.insert(library, ctx.new("Book", ["title": "T1"], ["library": .toOne(library.id)]), ctx.new("Book", ["title": "T2"], ["library": .toOne(library.id)]))
                try ctx.migrate(to: fixture { entities in
                    let b = index(entities, "Book")
                    entities[b].attributes[0] = Attribute("name", .string, originalName: "title")
                    entities[b].uniqueConstraints = [UniqueConstraint("library", "name")]
                })
                let books = try ctx.fetch("Book", sort: [SortKey("name")])
                try ctx.checkEqual(names(books), [.string("T1"), .string("T2")], "renamed values")
                var duplicate = books[0]
                duplicate.id = .temporary(entity: "Book")
                duplicate.set("chapters", to: [])
                try ctx.expectError(.uniqueConstraintViolation, "a second (library, name) after the rename") { _ = try ctx.store.save(inserted: [duplicate], updated: [], deleted: []) }
            },
            c("rename-entity", "An entity renamed with originalName keeps its records and the links to them.") { ctx in
                let tag = ctx.new("Tag", ["name": "red"])
                try ctx.insert(tag, ctx.new("Note", ["text": "n"], ["tag": .toOne(tag.id)]))
                try ctx.migrate(to: fixture { entities in
                    let t = index(entities, "Tag")
                    entities[t].name = "Label"
                    entities[t].originalName = "Tag"
                    let n = index(entities, "Note")
                    entities[n].relationships[0].destination = "Label"
                })
                let labels = try ctx.fetch("Label")
                try ctx.checkEqual(names(labels), [.string("red")], "labels")
                let note = try ctx.fetch("Note")
                try ctx.check(note.first?.target("tag") == labels.first?.id, "the note's tag names the renamed record: \(note)")
                try ctx.expectError(.unknownEntity, "the old entity name") { _ = try ctx.fetch("Tag") }
            },
            c("rename-relationship", "Relationships renamed with originalName keep their links: a to-one and its to-many inverse, and both sides of a many-to-many.") { ctx in
                let tag = ctx.new("Tag", ["name": "red"])
                let author = ctx.new("Author", ["name": "Ann"])
                let library = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(library.id), "authors": .toMany([author.id])])
                try ctx.insert(tag, ctx.new("Note", ["text": "n"], ["tag": .toOne(tag.id)]), author, library, book)
                func rename(_ entities: inout [Entity], _ entity: String, _ old: String, to new: String, inverse: String) {
                    let e = index(entities, entity)
                    let r = entities[e].relationships.firstIndex { $0.name == old }!
                    entities[e].relationships[r].name = new
                    entities[e].relationships[r].originalName = old
                    entities[e].relationships[r].inverse = inverse
                }
                try ctx.migrate(to: fixture { entities in
                    rename(&entities, "Note", "tag", to: "label", inverse: "entries")
                    rename(&entities, "Tag", "notes", to: "entries", inverse: "label")
                    rename(&entities, "Author", "books", to: "works", inverse: "writers")
                    rename(&entities, "Book", "authors", to: "writers", inverse: "works")
                })
                let tags = try ctx.fetch("Tag"), notes = try ctx.fetch("Note")
                try ctx.checkEqual(notes.first?.target("label"), tags.first?.id, "the note's renamed to-one")
                try ctx.checkEqual(tags.first?.targets("entries") ?? [], notes.map(\.id), "the tag's renamed to-many")
                let books = try ctx.fetch("Book"), authors = try ctx.fetch("Author")
                try ctx.checkEqual(books.first?.targets("writers") ?? [], authors.map(\.id), "the book's renamed many-to-many")
                try ctx.checkEqual(authors.first?.targets("works") ?? [], books.map(\.id), "the author's renamed many-to-many")
            },
            c("add-and-remove-entity", "An added entity starts empty; a removed one is gone with its records.") { ctx in
                try ctx.insert(ctx.new("Reading", ["value": 1.5]), ctx.new("Library", ["name": "L"]))
                try ctx.migrate(to: fixture { entities in
                    entities.removeAll { $0.name == "Reading" }
                    entities.append(Entity("Archive") { Attribute("title", .string) })
                })
                try ctx.checkEqual(try ctx.count("Archive"), 0, "archives")
                try ctx.checkEqual(try ctx.count("Library"), 1, "libraries")
                try ctx.expectError(.unknownEntity, "the removed entity") { _ = try ctx.fetch("Reading") }
            },
            c("optional-to-required-with-default", "An optional attribute made required gives its default to records holding nil.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "A", "city": "Oslo"]), ctx.new("Library", ["name": "B"]))
                try ctx.migrate(to: fixture { $0[index($0, "Library")].attributes[1] = Attribute("city", .string, default: "nowhere") })
                try ctx.checkEqual(names(try ctx.fetch("Library", sort: [SortKey("name")]), "city"), [.string("Oslo"), .string("nowhere")], "cities")
            },
            c("required-to-optional", "A required attribute made optional keeps its values.") { ctx in
                let library = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(library.id)])
                try ctx.insert(library, book, ctx.new("Chapter", ["title": "One"], ["book": .toOne(book.id)]))
                try ctx.migrate(to: fixture { $0[index($0, "Chapter")].attributes[0] = Attribute("title", .string, optional: true) })
                try ctx.checkEqual(names(try ctx.fetch("Chapter"), "title"), [.string("One")], "titles")
            },
            c("add-and-remove-relationship", "An added relationship starts empty on both sides; a removed one drops its links.") { ctx in
                let a = ctx.new("Part", ["name": "a"]), b = ctx.new("Part", ["name": "b"], ["previous": .toOne(a.id)])
                let library = ctx.new("Library", ["name": "L"])
                try ctx.insert(a, b, library, ctx.new("Book", ["title": "B"], ["library": .toOne(library.id)]))
                try ctx.migrate(to: fixture { entities in
                    entities[index(entities, "Part")].relationships = []
                    entities[index(entities, "Library")].relationships.append(.toOne("featured", "Book", inverse: "featuredIn"))
                    entities[index(entities, "Book")].relationships.append(.toMany("featuredIn", "Library", inverse: "featured"))
                })
                let parts = try ctx.fetch("Part", sort: [SortKey("name")])
                try ctx.checkEqual(names(parts), [.string("a"), .string("b")], "parts")
                try ctx.check(parts.allSatisfy { $0.relationships.isEmpty }, "parts keep no links: \(parts)")
                try ctx.checkEqual(try ctx.fetch("Library").first?.target("featured"), nil, "the new to-one")
                try ctx.checkEqual(try ctx.fetch("Book").first?.targets("featuredIn") ?? [], [], "the new to-many")
                try ctx.checkEqual(try ctx.fetch("Book").first?.target("library"), try ctx.fetch("Library").first?.id, "the kept to-one")
            },
            c("change-delete-rule", "A changed delete rule applies to deletes after the migration.") { ctx in
                let library = ctx.new("Library", ["name": "L"])
                try ctx.insert(library, ctx.new("Book", ["title": "B"], ["library": .toOne(library.id)]))
                try ctx.migrate(to: fixture { $0[index($0, "Library")].relationships[0].deleteRule = .deny })
                let stored = try ctx.fetch("Library")
                try ctx.expectError(.deleteDenied, "deleting a library with a book under deny") { _ = try ctx.store.save(inserted: [], updated: [], deleted: stored) }
                try ctx.checkEqual(try ctx.count("Book"), 1, "books")
            },
            c("keeps-relationships", "Links survive a migration: to-one, ordered to-many in order, many-to-many.") { ctx in
                let library = ctx.new("Library", ["name": "L"])
                let s1 = ctx.new("Shelf", ["label": "s1"]), s2 = ctx.new("Shelf", ["label": "s2"]), s3 = ctx.new("Shelf", ["label": "s3"])
                let author = ctx.new("Author", ["name": "Ann"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(library.id), "authors": .toMany([author.id])])
                var ordered = library
                ordered.set("shelves", to: [s3.id, s1.id, s2.id])
                try ctx.insert(ordered, s1, s2, s3, author, book)
                try ctx.migrate(to: fixture { $0[index($0, "Library")].attributes.append(Attribute("motto", .string, optional: true)) })
                let shelves = try ctx.fetch("Shelf")
                let label = Dictionary(uniqueKeysWithValues: shelves.map { ($0.id, $0["label"]) })
                let stored = try ctx.fetch("Library")
                try ctx.checkEqual(stored.first?.targets("shelves").map { label[$0] ?? .null } ?? [], [.string("s3"), .string("s1"), .string("s2")], "ordered shelves")
                let books = try ctx.fetch("Book"), authors = try ctx.fetch("Author")
                try ctx.checkEqual(books.first?.targets("authors") ?? [], authors.map(\.id), "the book's authors")
                try ctx.checkEqual(authors.first?.targets("books") ?? [], books.map(\.id), "the author's books")
                try ctx.checkEqual(books.first?.target("library"), stored.first?.id, "the book's library")
            },
            c("staged-path", "A backend that takes a whole staged path in one atomic step (StateMigratable, what a plan's custom stages run through) applies the path's data changes with its schema change, keeps every key, link, list order and key counter, and is left untouched at the old version when the path throws; a backend without it gets each stage's schema change, which keeps the links in order.") { ctx in
                let library = ctx.new("Library", ["name": "L"])
                let s1 = ctx.new("Shelf", ["label": "s1"]), s2 = ctx.new("Shelf", ["label": "s2"]), s3 = ctx.new("Shelf", ["label": "s3"])
                let author = ctx.new("Author", ["name": "Ann"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(library.id), "authors": .toMany([author.id])])
                var a = ctx.new("Member", ["name": "a"])
                let b = ctx.new("Member", ["name": "b"])
                a.set("friends", to: [b.id])
                var ordered = library
                ordered.set("shelves", to: [s3.id, s1.id, s2.id])
                let ids = try ctx.insert(ordered, s1, s2, s3, author, book, a, b)
                // A deleted last shelf: the key counter stands above the largest key.
                let spare = try ctx.insert(ctx.new("Shelf", ["label": "spare"]))[0]
                _ = try ctx.delete(spare)
                let v2 = try fixture { $0[index($0, "Library")].attributes.append(Attribute("motto", .string, optional: true)) }
                func checkLinks(_ stage: String) throws {
                    let label = Dictionary(uniqueKeysWithValues: try ctx.fetch("Shelf").map { ($0.id, $0["label"]) })
                    let stored = try ctx.fetch("Library")
                    try ctx.checkEqual(stored.first?.targets("shelves").map { label[$0] ?? .null } ?? [], [.string("s3"), .string("s1"), .string("s2")], "ordered shelves \(stage)")
                    try ctx.checkEqual(try ctx.fetch("Author").first?.targets("books").count, 1, "the author's books \(stage)")
                    let members = try ctx.fetch("Member", sort: [SortKey("name")])
                    try ctx.checkEqual(members.map { $0.targets("friends").count }, [1, 1], "friends of a and b \(stage)")
                }
                guard ctx.stagedMigrateAt != nil else {
                    try ctx.migrate(to: v2)
                    try checkLinks("after the schema change")
                    return
                }
                let before = try ctx.everything()
                _ = try ctx.expectError(.invalidRequest, "a staged path that throws") {
                    try ctx.migrateStaged(to: v2) { _ in throw StrataError(.invalidRequest, "the stage's code failed") }
                }
                try ctx.checkEqual(try ctx.recordedSchema()?.fingerprint, FixtureDomain.schema.fingerprint, "the recorded schema after the thrown path")
                try ctx.expectUnchanged(before, "after the thrown path")
                let migration = try SchemaMigration.lightweight(from: ctx.schema, to: v2)
                try ctx.migrateStaged(to: v2) { state in
                    // willMigrate's part at v1: every library renamed; then the schema change.
                    let engine = RecordEngine(state: state)
                    let libraries = try engine.fetch(FetchDescriptor(entity: "Library"), as: DefaultSnapshot.self)
                    _ = try engine.save(SaveRequest(updated: try libraries.map { try $0.updating(["name": "L2"]) }))
                    return try engine.state.migrated(by: migration)
                }
                try ctx.checkEqual(try ctx.recordedSchema()?.fingerprint, v2.fingerprint, "the recorded schema after the path")
                let migrated = try ctx.get(ids[0])
                try ctx.checkEqual([migrated["name"], migrated["motto"]], [.string("L2"), .null], "the library (same identifier) after the path")
                try checkLinks("after the staged path")
                try ctx.checkEqual(try ctx.get(ids[5]).targets("authors"), [ids[4]], "the book's authors by identifier")
                let next = try ctx.insert(ctx.new("Shelf", ["label": "after"]))[0]
                try ctx.check(next.primaryKey > spare.primaryKey, "a shelf inserted after the path took key \(next.primaryKey); \(spare.primaryKey) was used before it")
            },
            c("add-unique-constraint", "An added unique constraint holds for saves after the migration.") { ctx in
                let library = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(library.id)])
                try ctx.insert(library, book, ctx.new("Chapter", ["title": "One"], ["book": .toOne(book.id)]), ctx.new("Chapter", ["title": "Two"], ["book": .toOne(book.id)]))
                try ctx.migrate(to: fixture { $0[index($0, "Chapter")].uniqueConstraints.append(UniqueConstraint("title")) })
                var duplicate = try ctx.fetch("Chapter", sort: [SortKey("title")])[0]
                duplicate.id = .temporary(entity: "Chapter")
                try ctx.expectError(.uniqueConstraintViolation, "a second chapter 'One'") { _ = try ctx.store.save(inserted: [duplicate], updated: [], deleted: []) }
                try ctx.checkEqual(try ctx.count("Chapter"), 2, "chapters")
            },
            c("remove-unique-constraint", "A removed unique constraint no longer refuses duplicates; the records stay.") { ctx in
                try ctx.insert(ctx.new("Tag", ["name": "red"]))
                try ctx.migrate(to: fixture { entities in
                    let t = index(entities, "Tag")
                    entities[t].attributes[0] = Attribute("name", .string)
                })
                // A second "red", built from the stored one (the store's schema is v2 now).
                var duplicate = try ctx.fetch("Tag")[0]
                duplicate.id = .temporary(entity: "Tag")
                duplicate.set("notes", to: [])
                _ = try ctx.store.save(inserted: [duplicate], updated: [], deleted: [])
                try ctx.checkEqual(names(try ctx.fetch("Tag")), [.string("red"), .string("red")], "two tags named red")
            },
            c("unique-over-duplicates-refused", "A unique constraint added over duplicates fails with uniqueConstraintViolation naming both records; the store keeps its old schema and data.") { ctx in
                let library = ctx.new("Library", ["name": "L"])
                let book = ctx.new("Book", ["title": "B"], ["library": .toOne(library.id)])
                try ctx.insert(library, book, ctx.new("Chapter", ["title": "Same"], ["book": .toOne(book.id)]), ctx.new("Chapter", ["title": "Same"], ["book": .toOne(book.id)]))
                let before = try ctx.everything()
                let error = try ctx.expectError(.uniqueConstraintViolation, "migrating over duplicate titles") {
                    try ctx.migrate(to: fixture { $0[index($0, "Chapter")].uniqueConstraints.append(UniqueConstraint("title")) })
                }
                try ctx.checkEqual(error.entity, "Chapter", "error entity")
                try ctx.checkEqual(error.properties, ["title"], "error properties")
                try ctx.checkEqual(error.identifiers.count, 2, "records named")
                try ctx.checkEqual(try ctx.recordedSchema()?.fingerprint, FixtureDomain.schema.fingerprint, "the recorded schema")
                try ctx.reopen()
                try ctx.expectUnchanged(before, "after the refused migration")
            },
            c("add-and-remove-index", "Indexes added and removed; the data and its order stay.") { ctx in
                try ctx.insert(ctx.new("Author", ["name": "b"]), ctx.new("Author", ["name": "a"]))
                try ctx.migrate(to: fixture { entities in
                    entities[index(entities, "Book")].attributes[2].isIndexed = false
                    entities[index(entities, "Author")].indexes.append(Index("name"))
                })
                try ctx.checkEqual(names(try ctx.fetch("Author", sort: [SortKey("name")])), [.string("a"), .string("b")], "authors by name")
            },
            c("needs-code-refused", "A change that needs code (a type change) is refused before anything is written, naming entity and property.") { ctx in
                try ctx.insert(ctx.new("Library", ["name": "L", "city": "Oslo"]))
                let before = try ctx.everything()
                let error = try ctx.expectError(.migrationRequired, "city from string to int") {
                    try ctx.migrate(to: fixture { $0[index($0, "Library")].attributes[1] = Attribute("city", .int, optional: true) })
                }
                try ctx.checkEqual(error.entity, "Library", "error entity")
                try ctx.checkEqual(error.properties, ["city"], "error properties")
                try ctx.expectUnchanged(before, "after the refusal")
            },
        ]
    }()
}
