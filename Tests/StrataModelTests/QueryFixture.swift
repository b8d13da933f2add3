import Foundation
import StrataModel

/// The models the query tests run on: notes in folders, with tags.
@Model final class QueryFolder {
    var name: String
    var isArchived: Bool = false
    @Relationship(deleteRule: .nullify, inverse: \QueryNote.folder) var notes: [QueryNote] = []
    init(name: String, isArchived: Bool) {
        self.name = name
        self.isArchived = isArchived
    }
}

@Model final class QueryTag {
    var name: String
    var notes: [QueryNote] = []
    init(name: String) { self.name = name }
}

enum QueryPriority: Int, Codable {
    case low = 0, normal = 1, high = 2
}

@Model final class QueryNote {
    var title: String
    var body: String
    var createdAt: Date
    var updatedAt: Date
    var isPinned: Bool
    var priority: QueryPriority
    var rating: Double
    var views: Int
    var summary: String?
    var folder: QueryFolder?
    @Relationship(inverse: \QueryTag.notes) var tags: [QueryTag] = []
    @Transient var scratch = 0

    init(_ row: NoteRow) {
        title = row.title
        body = row.body
        createdAt = NoteRow.day(row.day)
        updatedAt = NoteRow.day(row.updated)
        isPinned = row.pinned
        priority = QueryPriority(rawValue: row.priority) ?? .low
        rating = row.rating
        views = row.views
        summary = row.summary
    }
}

/// One note as plain data: what the expected results are computed from, without Strata.
struct NoteRow {
    let title: String, body: String, day: Int, updated: Int, pinned: Bool, priority: Int, rating: Double, views: Int
    let summary: String?, folder: String?, tags: [String]

    static func day(_ n: Int) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 86_400) }
    var createdAt: Date { Self.day(day) }
    var updatedAt: Date { Self.day(updated) }
    /// The note's folder row.
    var folderRow: FolderRow? { FolderRow.all.first { $0.name == folder } }
}

struct FolderRow {
    let name: String, isArchived: Bool
    static let all = [FolderRow(name: "Work", isArchived: false), FolderRow(name: "Home", isArchived: false), FolderRow(name: "Old", isArchived: true)]
}

extension NoteRow {
    static let tagNames = ["urgent", "later", "idea"]
    // Titles are unique: they identify the notes in expectations.
    static let all: [NoteRow] = [
        NoteRow(title: "Groceries", body: "milk, eggs", day: 1, updated: 2, pinned: true, priority: 1, rating: 3.0, views: 5, summary: "short", folder: "Home", tags: ["later"]),
        NoteRow(title: "Quarterly plan", body: "budget and hiring", day: 2, updated: 2, pinned: true, priority: 2, rating: 4.5, views: 40, summary: nil, folder: "Work", tags: ["urgent", "idea"]),
        NoteRow(title: "Standup notes", body: "Milk the cow", day: 3, updated: 5, pinned: false, priority: 1, rating: 2.0, views: 12, summary: "shared", folder: "Work", tags: []),
        NoteRow(title: "Garden", body: "plant beans", day: 4, updated: 4, pinned: false, priority: 0, rating: 1.5, views: 0, summary: nil, folder: "Home", tags: ["idea"]),
        NoteRow(title: "Banana bread", body: "MILK and flour", day: 5, updated: 9, pinned: false, priority: 0, rating: 4.0, views: 25, summary: "sweet", folder: nil, tags: ["later", "idea"]),
        NoteRow(title: "Travel", body: "", day: 6, updated: 6, pinned: true, priority: 2, rating: 5.0, views: 50, summary: "", folder: "Old", tags: ["urgent"]),
        NoteRow(title: "Grants", body: "apply by friday", day: 7, updated: 8, pinned: false, priority: 2, rating: 3.5, views: 10, summary: "shortlist", folder: "Work", tags: ["urgent", "later"]),
        NoteRow(title: "Ideas", body: "anything", day: 8, updated: 8, pinned: false, priority: 1, rating: 2.5, views: 1, summary: nil, folder: nil, tags: []),
        NoteRow(title: "Reading list", body: "books", day: 9, updated: 10, pinned: true, priority: 0, rating: 1.0, views: 2, summary: "long", folder: "Old", tags: ["later"]),
        NoteRow(title: "Budget", body: "Spending", day: 10, updated: 10, pinned: false, priority: 1, rating: 4.2, views: 33, summary: nil, folder: "Work", tags: ["urgent", "idea", "later"]),
        NoteRow(title: "Recipes", body: "milkshake", day: 11, updated: 12, pinned: false, priority: 2, rating: 0.5, views: 60, summary: "shake", folder: "Home", tags: []),
        NoteRow(title: "Zen", body: "breathe", day: 12, updated: 12, pinned: false, priority: 0, rating: 3.0, views: 20, summary: nil, folder: nil, tags: ["idea"]),
    ]
}

/// A store on one backend holding `NoteRow.all`, saved in row order (so primary keys follow it).
struct QueryStore {
    static var types: [any PersistentModel.Type] { [QueryNote.self, QueryFolder.self, QueryTag.self] }
    let fixture: ModelFixture
    let container: ModelContainer
    /// Identifier of each note, by title.
    let ids: [String: PersistentIdentifier]
    /// Identifier of each folder and tag, by name.
    let folderIDs: [String: PersistentIdentifier]
    let tagIDs: [String: PersistentIdentifier]

    init(_ backend: ModelBackend) throws {
        fixture = try ModelFixture(backend)
        container = try backend.open(fixture.directory, Self.types)
        let context = ModelContext(container)
        var folders: [String: QueryFolder] = [:]
        for row in FolderRow.all {
            folders[row.name] = QueryFolder(name: row.name, isArchived: row.isArchived)
            context.insert(folders[row.name]!)
        }
        var tags: [String: QueryTag] = [:]
        for name in NoteRow.tagNames {
            tags[name] = QueryTag(name: name)
            context.insert(tags[name]!)
        }
        var notes: [QueryNote] = []
        for row in NoteRow.all {
            let note = QueryNote(row)
            context.insert(note)
            note.folder = row.folder.flatMap { folders[$0] }
            note.tags = row.tags.compactMap { tags[$0] }
            notes.append(note)
        }
        try context.save()
        ids = Dictionary(uniqueKeysWithValues: notes.map { ($0.title, $0.persistentModelID) })
        folderIDs = folders.mapValues(\.persistentModelID)
        tagIDs = tags.mapValues(\.persistentModelID)
    }

    /// A fresh context on the store.
    func context() -> ModelContext { ModelContext(container) }
}
