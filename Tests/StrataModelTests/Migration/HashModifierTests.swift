import Foundation
import StrataModel
import Testing

/// A hash modifier changed, and nothing else, between two opens of one store, on every built-in
/// backend: the models differ from the recorded schema as for any other change, so an app without
/// a plan migrates on open (a lightweight change: values kept), a plan's stage between the two
/// versions runs, and an unchanged modifier reopens with no migration.
@Suite struct HashModifierTests {
    /// A store written by the v1 app: "Long" (3 words; lines "abc", "de") and "Short" (1 word; "ab").
    private static func writeV1(_ fixture: MigrationFixture, plan: (any SchemaMigrationPlan.Type)?) throws -> [PersistentIdentifier] {
        let context = ModelContext(try fixture.open(MarkedNotesV1.self, plan: plan))
        let long = MarkedNotesV1.Note(title: "Long", words: 3), short = MarkedNotesV1.Note(title: "Short", words: 1)
        context.insert(long)
        context.insert(short)
        long.lines = [MarkedNotesV1.Line(text: "abc"), MarkedNotesV1.Line(text: "de")]
        short.lines = [MarkedNotesV1.Line(text: "ab")]
        try context.save()
        return [long.persistentModelID, short.persistentModelID]
    }

    /// Opens read-only without a plan, which never migrates: refused when the models differ from
    /// the recorded schema.
    private static func openReadOnly(_ fixture: MigrationFixture, _ version: any VersionedSchema.Type) throws -> ModelContainer {
        try fixture.backend.openReadOnly(fixture.directory, version.models, nil)
    }

    /// The `schemaMismatch` `body` throws, its message holding every piece.
    private static func expectMismatch(_ pieces: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error; expected schemaMismatch", sourceLocation: sourceLocation)
        } catch let error as StrataError {
            #expect(error.code == .schemaMismatch, "\(error)", sourceLocation: sourceLocation)
            for piece in pieces { #expect(error.message.contains(piece), "'\(piece)' not in: \(error.message)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("\(error); expected schemaMismatch", sourceLocation: sourceLocation)
        }
    }

    @Test func eachMarkMakesAnotherSchema() {
        let fingerprints = [MarkedNotesV1.self, MarkedNotesV2.self, MarkedNotesV3.self].map { (version: any VersionedSchema.Type) in
            Schema(versionedSchema: version).fingerprint
        }
        #expect(Set(fingerprints).count == 3)
        let v2 = Schema(versionedSchema: MarkedNotesV2.self)
        #expect(v2.entity(named: "Note")?.declaration.attributes.map(\.hashModifier) == [nil, "characters"])
        let lines = Schema(versionedSchema: MarkedNotesV3.self).entity(named: "Note")?.declaration.relationships.first
        let mark: Schema.Relationship? = lines
        #expect(mark?.hashModifier == "lines-2")
    }

    @Test(arguments: MigrationBackend.all) func aChangedModifierMigratesOnOpenWithoutAPlan(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        let ids = try Self.writeV1(fixture, plan: nil)
        // The mark alone makes v2's models differ from what the store recorded.
        Self.expectMismatch(["Note.words", #"hash="characters""#, "read-only"]) { _ = try Self.openReadOnly(fixture, MarkedNotesV2.self) }
        do {
            let context = ModelContext(try fixture.open(MarkedNotesV2.models))
            let notes = try context.fetch(FetchDescriptor<MarkedNotesV2.Note>(sortBy: [SortDescriptor(\.title)]))
            #expect(notes.map(\.words) == [3, 1], "\(backend): a lightweight change keeps the values")
            #expect(notes.map(\.persistentModelID) == ids, "\(backend): identifiers kept")
            #expect(notes.map { $0.lines.map(\.text).sorted() } == [["abc", "de"], ["ab"]], "\(backend): links kept")
        }
        // Recorded: v2 now reopens with no migration, v1 would need one.
        do {
            let context = ModelContext(try Self.openReadOnly(fixture, MarkedNotesV2.self))
            #expect(try context.fetchCount(FetchDescriptor<MarkedNotesV2.Note>()) == 2)
        }
        Self.expectMismatch(["Note.words", "read-only"]) { _ = try Self.openReadOnly(fixture, MarkedNotesV1.self) }
        // A relationship's mark the same way.
        Self.expectMismatch(["Note.lines", #"hash="lines-2""#, "read-only"]) { _ = try Self.openReadOnly(fixture, MarkedNotesV3.self) }
        let context = ModelContext(try fixture.open(MarkedNotesV3.models))
        let notes = try context.fetch(FetchDescriptor<MarkedNotesV3.Note>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map { $0.lines.map(\.text).sorted() } == [["abc", "de"], ["ab"]], "\(backend): links kept")
        #expect(notes.map(\.persistentModelID) == ids, "\(backend): identifiers kept")
    }

    @Test(arguments: MigrationBackend.all) func anUnchangedModifierReopensWithNoMigration(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        var ids: [PersistentIdentifier] = []
        do {
            let context = ModelContext(try fixture.open(MarkedNotesV3.models))
            let note = MarkedNotesV3.Note(title: "Marked", words: 6)
            context.insert(note)
            note.lines = [MarkedNotesV3.Line(text: "marked")]
            try context.save()
            ids = [note.persistentModelID]
        }
        for words in [6, 7] {
            do {
                // Read-only first: it is refused when the store needs migrating.
                let reader = ModelContext(try Self.openReadOnly(fixture, MarkedNotesV3.self))
                let read = try reader.fetch(FetchDescriptor<MarkedNotesV3.Note>())
                #expect(read.map(\.persistentModelID) == ids && read.map(\.words) == [words], "\(backend)")
                #expect(read.first?.lines.map(\.text) == ["marked"], "\(backend)")
            }
            let writer = ModelContext(try fixture.open(MarkedNotesV3.models))
            let note = try #require(try writer.fetch(FetchDescriptor<MarkedNotesV3.Note>()).first)
            note.words += 1
            try writer.save()
        }
        Self.expectMismatch(["Note.lines", "read-only"]) { _ = try Self.openReadOnly(fixture, MarkedNotesV2.self) }
    }

    @Test(arguments: MigrationBackend.all) func aStageBetweenVersionsDifferingByAModifierRuns(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        let ids = try Self.writeV1(fixture, plan: MarkedNotesPlan.self)
        do {
            let context = ModelContext(try fixture.open(MarkedNotesV3.self, plan: MarkedNotesPlan.self))
            let notes = try context.fetch(FetchDescriptor<MarkedNotesV3.Note>(sortBy: [SortDescriptor(\.title)]))
            #expect(notes.map(\.words) == [5, 2], "\(backend): didMigrate counted characters")
            #expect(notes.map(\.persistentModelID) == ids, "\(backend): identifiers kept")
            notes[0].words = 99
            try context.save()
        }
        // At v3 now: the next open runs no stage (it would count 5 again).
        let context = ModelContext(try fixture.open(MarkedNotesV3.self, plan: MarkedNotesPlan.self))
        #expect(try context.fetch(FetchDescriptor<MarkedNotesV3.Note>(sortBy: [SortDescriptor(\.title)])).map(\.words) == [99, 2])
    }
}
