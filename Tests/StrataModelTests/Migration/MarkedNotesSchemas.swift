import Foundation
import StrataModel

// Three versions of one app whose models differ only by hash modifiers (SwiftData's
// `@Attribute(hashModifier:)`, `@Relationship(hashModifier:)`): no type changes, yet each mark
// says the stored values mean something else, so each version is another schema.

/// Before any mark: `words` counts the words of a note.
enum MarkedNotesV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self, Line.self] }

    @Model final class Note {
        var title: String
        var words: Int
        @Relationship(deleteRule: .cascade, inverse: \Line.note) var lines: [Line] = []
        init(title: String, words: Int) { self.title = title; self.words = words }
    }

    @Model final class Line {
        var text: String
        var note: Note?
        init(text: String) { self.text = text }
    }
}

/// `words` now counts characters: still an `Int`, marked.
enum MarkedNotesV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self, Line.self] }

    @Model final class Note {
        var title: String
        @Attribute(hashModifier: "characters") var words: Int
        @Relationship(deleteRule: .cascade, inverse: \Line.note) var lines: [Line] = []
        init(title: String, words: Int) { self.title = title; self.words = words }
    }

    @Model final class Line {
        var text: String
        var note: Note?
        init(text: String) { self.text = text }
    }
}

/// The relationship marked too.
enum MarkedNotesV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self, Line.self] }

    @Model final class Note {
        var title: String
        @Attribute(hashModifier: "characters") var words: Int
        @Relationship(deleteRule: .cascade, inverse: \Line.note, hashModifier: "lines-2") var lines: [Line] = []
        init(title: String, words: Int) { self.title = title; self.words = words }
    }

    @Model final class Line {
        var text: String
        var note: Note?
        init(text: String) { self.text = text }
    }
}

/// v1 → v2 recounts `words` in `didMigrate`; v2 → v3 is lightweight.
enum MarkedNotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MarkedNotesV1.self, MarkedNotesV2.self, MarkedNotesV3.self] }
    static var stages: [MigrationStage] {
        [
            .custom(fromVersion: MarkedNotesV1.self, toVersion: MarkedNotesV2.self, willMigrate: nil, didMigrate: { context in
                for note in try context.fetch(FetchDescriptor<MarkedNotesV2.Note>()) {
                    note.words = note.lines.map(\.text.count).reduce(0, +)
                }
                try context.save()
            }),
            .lightweight(fromVersion: MarkedNotesV2.self, toVersion: MarkedNotesV3.self),
        ]
    }
}
