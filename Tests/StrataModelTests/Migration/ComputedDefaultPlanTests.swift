import Foundation
import StrataModel
import Testing

/// Properties whose defaults are not literals (`= .normal`, `= []`, `= Date.now`) added through a
/// migration plan, on every built-in backend: a lightweight stage and a custom one without code
/// fill the value the initializer gives, as SwiftData does.
@Suite struct ComputedDefaultPlanTests {
    @Test(arguments: MigrationBackend.all) func stagesFillComputedDefaults(_ backend: MigrationBackend) throws {
        let fixture = try MigrationFixture(backend)
        do {
            let context = ModelContext(try fixture.open(PortedNotesSchemaV1.self, plan: PortedNotesPlan.self))
            for (n, title) in ["Rome", "Oslo"].enumerated() { context.insert(PortedNotesV1.Note(title: title, body: "b", words: n, legacy: "-")) }
            try context.save()
        }
        // v2, one lightweight stage.
        do {
            typealias Note = PortedNotesAddComputedDefaults.Note
            let notes = try ModelContext(fixture.open(PortedNotesSchemaV2.self, plan: PortedNotesPlan.self)).fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.words)]))
            #expect(notes.map(\.title) == ["Rome", "Oslo"], "\(backend)")
            #expect(notes.map(\.priority) == [.normal, .normal], "\(backend)")
            #expect(notes.map(\.labels) == [[], []], "\(backend)")
        }
        // v3, a custom stage with no code: `created` is the migration's `now`, not the zero date.
        typealias Note = PortedNotesAddCreationDate.Note
        let before = Date.now
        let notes = try ModelContext(fixture.open(PortedNotesSchemaV3.self, plan: PortedNotesPlan.self)).fetch(FetchDescriptor<Note>())
        #expect(notes.count == 2, "\(backend)")
        for note in notes { #expect(note.created >= before.addingTimeInterval(-1), "\(backend): \(note.created)") }
    }
}
