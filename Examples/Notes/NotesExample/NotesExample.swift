import ExampleSupport
import Foundation
import StrataModel

/// The Notes example: folders (cascade), tags (many-to-many), an enum property, text search,
/// offset and cursor paging, counts, and an import of 10,000 notes in batches.
public enum NotesExample {
    /// The model types.
    public static var models: [any PersistentModel.Type] { [Note.self, Folder.self, Tag.self] }

    /// Runs the example on a fresh store in `folder`, printing to `out`. `importCount` notes are
    /// imported in batches of `batchSize`.
    public static func run(_ backend: ExampleBackend, folder: URL, out: ExampleOutput, importCount: Int = 10_000, batchSize: Int = 500) throws {
        backend.destroy(folder)
        let container = try backend.container(for: models, in: folder)
        try seed(ModelContext(container))
        let context = ModelContext(container)
        out("Seeded \(try context.fetchCount(FetchDescriptor<Note>())) notes in \(try context.fetchCount(FetchDescriptor<Folder>())) folders with \(try context.fetchCount(FetchDescriptor<Tag>())) tags.")

        section(out, "Pinned first, then newest (6):")
        for note in try context.fetch(NotesQueries.pinnedThenNewest(limit: 6)) { out("  " + line(note)) }

        section(out, "Search \"meeting\" (title or body, any case):")
        for note in try context.fetch(NotesQueries.search("meeting")) { out("  " + line(note)) }

        section(out, "In folder \"Work\":")
        for note in try context.fetch(NotesQueries.inFolder("Work")) { out("  " + line(note)) }

        let urgent = try ExampleError.require(try context.fetch(FetchDescriptor<Tag>(predicate: #Predicate { $0.name == "urgent" })).first, "no tag urgent")
        section(out, "Tagged \"urgent\":")
        for note in try context.fetch(NotesQueries.tagged("urgent")) { out("  " + line(note)) }

        section(out, "Folders with more than 5 notes:")
        for folder in try context.fetch(NotesQueries.folders(withMoreThan: 5)) { out("  \(folder.name): \(folder.notes.count) notes") }

        section(out, "Newest first, by offset, 5 a page:")
        var offsetPages: [[Int]] = []
        while true {
            let page = try context.fetch(NotesQueries.page(offset: offsetPages.count * 5, size: 5)).map(\.serial)
            if page.isEmpty { break }
            offsetPages.append(page)
            out("  page \(offsetPages.count): \(page.map(String.init).joined(separator: ", "))")
        }
        var cursorPages: [[Int]] = [], last: Note?
        while true {
            let page = try context.fetch(NotesQueries.page(after: last, size: 5))
            if page.isEmpty { break }
            cursorPages.append(page.map(\.serial))
            last = page.last
        }
        out("By (createdAt, serial) cursor: \(cursorPages.count) pages, \(cursorPages == offsetPages ? "the same as by offset" : "DIFFERENT from by offset").")

        section(out, "Counts:")
        let high = NotePriority.high
        out("  notes \(try context.fetchCount(FetchDescriptor<Note>())), pinned \(try context.fetchCount(FetchDescriptor<Note>(predicate: #Predicate { $0.isPinned }))), high priority \(try context.fetchCount(FetchDescriptor<Note>(predicate: #Predicate { $0.priority == high })))")

        section(out, "Import of \(importCount) notes in batches of \(batchSize):")
        try importNotes(container, count: importCount, batchSize: batchSize) { done in out("  \(done) / \(importCount)") }
        out("  notes \(try context.fetchCount(FetchDescriptor<Note>())), in \"Imported\" \(try context.fetchCount(NotesQueries.inFolder("Imported")))")

        let archive = try ExampleError.require(try context.fetch(FetchDescriptor<Folder>(predicate: #Predicate { $0.name == "Archive" })).first, "no folder Archive")
        context.delete(archive)
        try context.save()
        section(out, "Deleted folder \"Archive\" (its notes go with it):")
        out("  notes \(try context.fetchCount(FetchDescriptor<Note>())), folders \(try context.fetchCount(FetchDescriptor<Folder>())), \"urgent\" on \(urgent.notes.count) notes")
    }

    /// Inserts the seed data in one save.
    static func seed(_ context: ModelContext) throws {
        let folders = NotesSeed.folderNames.map(Folder.init)
        var tags: [String: Tag] = [:]
        for name in ["urgent", "later", "reading"] { tags[name] = Tag(name: name) }
        for serial in 1...24 {
            let note = NotesSeed.note(serial)
            context.insert(note)
            if let f = NotesSeed.folderIndex(serial) { note.folder = folders[f] }
            note.tags = NotesSeed.tagNames(serial).map { tags[$0]! }
        }
        try context.save()
    }

    /// Imports `count` generated notes into a new folder "Imported", `batchSize` per save, each
    /// batch in a fresh context so memory stays bounded by the batch; `progress` after each save.
    static func importNotes(_ container: ModelContainer, count: Int, batchSize: Int, progress: (Int) -> Void) throws {
        let setup = ModelContext(container)
        let imported = Folder(name: "Imported")
        setup.insert(imported)
        try setup.save()
        var done = 0
        while done < count {
            let context = ModelContext(container)
            let folder = try context.model(for: imported.persistentModelID, as: Folder.self)
            for i in done..<min(done + batchSize, count) {
                let note = Note(serial: 1_000 + i, title: "Imported note \(i)", body: "Line \(i) of the import.", createdAt: NotesSeed.start.addingTimeInterval(-Double(i + 1) * 60), priority: .low)
                note.folder = folder
            }
            try context.save()
            done = min(done + batchSize, count)
            progress(done)
        }
    }

    static func section(_ out: ExampleOutput, _ title: String) {
        out()
        out(title)
    }

    static func line(_ note: Note) -> String {
        var text = "#\(note.serial) \(note.title) — \(ExampleDates.textWithTime(note.createdAt)), \(note.priority)"
        if note.isPinned { text += ", pinned" }
        if let folder = note.folder { text += ", in \(folder.name)" }
        let tags = note.tags.map(\.name).sorted()
        if !tags.isEmpty { text += ", tags: \(tags.joined(separator: " "))" }
        return text
    }
}
