import Foundation
import StrataModel

// A notes app that never adopted a migration plan, written as SwiftData code is: each later
// version makes one change SwiftData migrates by itself on open (Apple's "lightweight"
// changes). Only the import differs from SwiftData.

/// A raw-value enum stored by a note.
enum PortedPriority: String, Codable, CaseIterable {
    case low, normal, high
}

enum PortedNotesV1 {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var legacy: String
        init(title: String, body: String, words: Int, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Adds an optional property (no default).
enum PortedNotesAddOptional {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var legacy: String
        var subtitle: String?
        init(title: String, body: String, words: Int, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Adds required properties whose defaults are not literals: an enum case, an empty array, a
/// constant of a type.
enum PortedNotesAddComputedDefaults {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var legacy: String
        var priority: PortedPriority = PortedPriority.normal
        var labels: [String] = []
        var score: Double = Double.zero
        init(title: String, body: String, words: Int, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Adds a required date whose default is the moment of creation (`Date.now`).
enum PortedNotesAddCreationDate {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var legacy: String
        var created: Date = Date.now
        init(title: String, body: String, words: Int, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Removes `legacy`.
enum PortedNotesRemoveProperty {
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
}

/// Makes `words` optional.
enum PortedNotesMadeOptional {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int?
        var legacy: String
        init(title: String, body: String, words: Int?, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Adds an entity and a relationship to it.
enum PortedNotesAddEntity {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var legacy: String
        var folder: Folder?
        init(title: String, body: String, words: Int, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }

    @Model final class Folder {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Note.folder) var notes: [Note] = []
        init(name: String) { self.name = name }
    }
}

// The same changes through a plan: v1, v2 adds the properties with computed defaults
// (lightweight), v3 drops them and adds `created = Date.now` (custom, no code of its own).

enum PortedNotesSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [PortedNotesV1.Note.self] }
}

enum PortedNotesSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [PortedNotesAddComputedDefaults.Note.self] }
}

enum PortedNotesSchemaV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [PortedNotesAddCreationDate.Note.self] }
}

enum PortedNotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PortedNotesSchemaV1.self, PortedNotesSchemaV2.self, PortedNotesSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: PortedNotesSchemaV1.self, toVersion: PortedNotesSchemaV2.self),
            .custom(fromVersion: PortedNotesSchemaV2.self, toVersion: PortedNotesSchemaV3.self, willMigrate: nil, didMigrate: nil),
        ]
    }
}

/// Adds `created = Date.now` and changes `words` to a `String`: the second needs code. `created`
/// comes first, so a refusal that names the first difference names it.
enum PortedNotesCreationDateAndWordsAsText {
    @Model final class Note {
        var created: Date = Date.now
        var title: String
        var body: String
        var words: String
        var legacy: String
        init(title: String, body: String, words: String, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Adds `score` with the literal default 0, recorded in the schema: the state the open without a
/// plan leaves between its two steps when it fills `PortedNotesScoreComputed`.
enum PortedNotesScoreLiteral {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var legacy: String
        var score: Double = 0
        init(title: String, body: String, words: Int, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Adds `score` with a default that is not a literal (not recorded in the schema).
enum PortedNotesScoreComputed {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int
        var legacy: String
        var score: Double = Double.zero
        init(title: String, body: String, words: Int, legacy: String) {
            self.title = title
            self.body = body
            self.words = words
            self.legacy = legacy
        }
    }
}

/// Makes `words` required again, with a default that is not a literal.
enum PortedNotesWordsRequiredComputed {
    @Model final class Note {
        var title: String
        var body: String
        var words: Int = Int.zero
        var legacy: String
        init(title: String, body: String, legacy: String) {
            self.title = title
            self.body = body
            self.legacy = legacy
        }
    }
}
