import Foundation
import StrataModel
import Testing

// Versions of one app that never adopted a migration plan: `ModelContainer(for:configurations:)`
// on its old store migrates lightweight differences on open, as SwiftData's container does, and
// refuses the rest naming entity and property.

enum PlainNotesV1 {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        init(title: String, body: String, words: Int) {
            self.title = title
            self.body = body
            self.words = words
        }
    }

    @Model final class Tag {
        var label: String
        init(label: String) { self.label = label }
    }
}

/// Lightweight: an attribute added with a default, one renamed with `originalName`, an index.
enum PlainNotesV2 {
    @Model final class Note {
        var title: String
        @Attribute(originalName: "body") var text: String
        var words: Int
        var isPinned: Bool = false
        init(title: String, text: String, words: Int) {
            self.title = title
            self.text = text
            self.words = words
        }
    }

    @Model final class Tag {
        var label: String
        init(label: String) { self.label = label }
    }
}

/// Needs code: `words` becomes a `String`.
enum PlainNotesWordsAsText {
    @Model final class Note {
        var title: String
        var body: String
        var words: String
        init(title: String, body: String, words: String) {
            self.title = title
            self.body = body
            self.words = words
        }
    }

    @Model final class Tag {
        var label: String
        init(label: String) { self.label = label }
    }
}

/// Needs code: a new required attribute without a default.
enum PlainNotesWithAuthor {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var author: String
        init(title: String, body: String, words: Int, author: String) {
            self.title = title
            self.body = body
            self.words = words
            self.author = author
        }
    }

    @Model final class Tag {
        var label: String
        init(label: String) { self.label = label }
    }
}

/// Lightweight, but over duplicates: `title` becomes unique.
enum PlainNotesUniqueTitle {
    @Model final class Note {
        @Attribute(.unique) var title: String
        var body: String
        var words: Int
        init(title: String, body: String, words: Int) {
            self.title = title
            self.body = body
            self.words = words
        }
    }

    @Model final class Tag {
        var label: String
        init(label: String) { self.label = label }
    }
}

/// Opening without a plan (`ModelContainer(for:configurations:)`) on every built-in backend.
@Suite struct OpenWithoutPlanTests {
    private static var v1: [any PersistentModel.Type] { [PlainNotesV1.Note.self, PlainNotesV1.Tag.self] }

    /// A v1 store with two notes of one title and a tag; their identifiers.
    private static func writeV1(_ fixture: MigrationFixture) throws -> [PersistentIdentifier] {
        let context = ModelContext(try fixture.open(v1))
        let notes = [PlainNotesV1.Note(title: "Same", body: "first", words: 1), PlainNotesV1.Note(title: "Same", body: "second", words: 2)]
        for note in notes { context.insert(note) }
        context.insert(PlainNotesV1.Tag(label: "home"))
        try context.save()
        return notes.map(\.persistentModelID)
    }

    /// The v1 app still reads what it wrote.
    private static func expectV1Intact(_ fixture: MigrationFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = ModelContext(try fixture.open(v1))
        let notes = try context.fetch(FetchDescriptor<PlainNotesV1.Note>(sortBy: [SortDescriptor(\.words)]))
        #expect(notes.map(\.body) == ["first", "second"], sourceLocation: sourceLocation)
        #expect(try context.fetch(FetchDescriptor<PlainNotesV1.Tag>()).map(\.label) == ["home"], sourceLocation: sourceLocation)
    }

    /// The `StrataError` `body` throws: of `code`, naming `entity` and `property`, its message
    /// holding every piece.
    private static func expectRefusal(_ code: StrataError.Code, entity: String?, property: String?, _ pieces: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error; expected \(code.rawValue)", sourceLocation: sourceLocation)
        } catch let error as StrataError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let entity { #expect(error.entity == entity, "\(error)", sourceLocation: sourceLocation) }
            if let property { #expect(error.properties.contains(property), "\(error)", sourceLocation: sourceLocation) }
            for piece in pieces { #expect(error.message.contains(piece), "'\(piece)' not in: \(error.message)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("\(error); expected \(code.rawValue)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: MigrationBackend.all) func aLightweightDifferenceMigratesOnOpen(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        let ids = try Self.writeV1(fixture)
        do {
            let context = ModelContext(try fixture.open([PlainNotesV2.Note.self, PlainNotesV2.Tag.self]))
            let notes = try context.fetch(FetchDescriptor<PlainNotesV2.Note>(sortBy: [SortDescriptor(\.words)]))
            #expect(notes.map(\.text) == ["first", "second"], "\(backend): renamed by originalName, values kept")
            #expect(notes.map(\.isPinned) == [false, false], "\(backend): the default")
            #expect(notes.map(\.persistentModelID) == ids, "\(backend): identifiers kept")
            notes[0].isPinned = true
            try context.save()
        }
        // Migrated once: the next open is no work, and the old app is refused with both schemas named.
        let context = ModelContext(try fixture.open([PlainNotesV2.Note.self, PlainNotesV2.Tag.self]))
        #expect(try context.fetch(FetchDescriptor<PlainNotesV2.Note>()).filter(\.isPinned).map(\.text) == ["first"])
        Self.expectRefusal(.schemaMismatch, entity: "Note", property: "body", ["'Note.body'", "left untouched"]) { _ = try fixture.open(Self.v1) }
    }

    @Test(arguments: MigrationBackend.all) func aTypeChangeIsRefused(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        _ = try Self.writeV1(fixture)
        Self.expectRefusal(.schemaMismatch, entity: "Note", property: "words", ["'Note.words'", "custom stage", "left untouched"]) {
            _ = try fixture.open([PlainNotesWordsAsText.Note.self, PlainNotesWordsAsText.Tag.self])
        }
        try Self.expectV1Intact(fixture)
    }

    @Test(arguments: MigrationBackend.all) func aRequiredValueWithoutDefaultIsRefused(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        _ = try Self.writeV1(fixture)
        Self.expectRefusal(.schemaMismatch, entity: "Note", property: "author", ["'Note.author'", "custom stage", "left untouched"]) {
            _ = try fixture.open([PlainNotesWithAuthor.Note.self, PlainNotesWithAuthor.Tag.self])
        }
        try Self.expectV1Intact(fixture)
    }

    /// A container opened with only some of the store's models (or another app's) never drops the
    /// others' entities and records.
    @Test(arguments: MigrationBackend.all) func droppingAnEntityIsRefused(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        _ = try Self.writeV1(fixture)
        let shared = ModelContext(try fixture.open(Self.v1))
        Self.expectRefusal(.schemaMismatch, entity: "Tag", property: nil, ["drop the entity Tag", "migration plan", "left untouched"]) {
            _ = try fixture.open([PlainNotesV1.Note.self])
        }
        #expect(try shared.fetchCount(FetchDescriptor<PlainNotesV1.Tag>()) == 1, "\(backend): the open container still reads its tags")
        try Self.expectV1Intact(fixture)
    }

    @Test(arguments: MigrationBackend.all) func aNewUniqueConstraintOverDuplicatesIsRefused(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        let ids = try Self.writeV1(fixture)
        do {
            _ = try fixture.open([PlainNotesUniqueTitle.Note.self, PlainNotesUniqueTitle.Tag.self])
            Issue.record("\(backend): no error; expected uniqueConstraintViolation")
        } catch let error as StrataError {
            #expect(error.code == .uniqueConstraintViolation && error.entity == "Note", "\(backend): \(error)")
            #expect(Set(error.identifiers.map(\.primaryKey)) == Set(ids.map(\.primaryKey)), "\(backend): names both notes: \(error)")
        }
        try Self.expectV1Intact(fixture)
    }

    /// A store written by a newer version of the app (through a plan) is refused by an older app
    /// without a plan, naming both versions.
    @Test(arguments: MigrationBackend.all) func aNewerStoreIsRefused(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        do {
            let context = ModelContext(try fixture.open(PeopleSchemaV1.self, plan: PeopleMigrationPlan.self))
            context.insert(PeopleSchemaV1.Person(name: "Ada", city: "London"))
            try context.save()
        }
        _ = try fixture.open(PeopleSchemaV3.self, plan: PeopleMigrationPlan.self)
        Self.expectRefusal(.schemaMismatch, entity: nil, property: nil, ["version 3.0.0", "version 1.0.0", "newer version of the application"]) {
            _ = try fixture.open([PeopleSchemaV1.Person.self])
        }
    }
}
