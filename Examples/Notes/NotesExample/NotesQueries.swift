import Foundation
import StrataModel

/// The Notes example's queries, each one store fetch (or count) with the filter and sort run by
/// the store.
enum NotesQueries {
    /// Newest first, ties by serial (highest first): the order both kinds of paging walk.
    static let newestFirst = [SortKey(\Note.createdAt, order: .descending), SortKey(\Note.serial, order: .descending)]

    /// Pinned notes first, then the newest.
    static func pinnedThenNewest(limit: Int) -> FetchDescriptor<Note> {
        FetchDescriptor<Note>(filter: nil, sortBy: [SortKey(\Note.isPinned, order: .descending)] + newestFirst, fetchLimit: limit)
    }

    /// Notes whose title or body contains `text`, ignoring case.
    static func search(_ text: String) -> FetchDescriptor<Note> {
        // TODO(#11): #Predicate { $0.title.localizedStandardContains(text) || $0.body.localizedStandardContains(text) }
        FetchDescriptor<Note>(filter: .text("title", .contains, text, caseInsensitive: true) || .text("body", .contains, text, caseInsensitive: true), sortBy: [SortKey(\Note.serial)])
    }

    /// Notes in the folder called `name`, oldest first.
    static func inFolder(_ name: String) -> FetchDescriptor<Note> {
        // TODO(#11): #Predicate { $0.folder?.name == name }
        FetchDescriptor<Note>(filter: .compare("folder.name", .equal, .string(name)), sortBy: [SortKey(\Note.createdAt), SortKey(\Note.serial)])
    }

    /// Notes carrying `tag`.
    static func tagged(_ tag: Tag) -> FetchDescriptor<Note> {
        // TODO(#11, qcore): #Predicate { $0.tags.contains { $0.name == "urgent" } } — the core's any-over-a-to-many
        // has not landed; `contains` tests membership of one known tag instead.
        FetchDescriptor<Note>(filter: .contains("tags", tag.persistentModelID), sortBy: [SortKey(\Note.serial)])
    }

    /// One page of `newestFirst` by position.
    static func page(offset: Int, size: Int) -> FetchDescriptor<Note> {
        FetchDescriptor<Note>(filter: nil, sortBy: newestFirst, fetchLimit: size, fetchOffset: offset)
    }

    /// The page after `last` in `newestFirst` order, by cursor (keyset paging): no work spent
    /// skipping earlier rows, and stable when notes are inserted before the cursor.
    static func page(after last: Note?, size: Int) -> FetchDescriptor<Note> {
        guard let last else { return FetchDescriptor<Note>(filter: nil, sortBy: newestFirst, fetchLimit: size) }
        // TODO(#11): #Predicate { $0.createdAt < date || ($0.createdAt == date && $0.serial < serial) }
        let date = Value.date(last.createdAt), serial = Value.int(Int64(last.serial))
        let after: FetchPredicate = .compare("createdAt", .less, date) || (.compare("createdAt", .equal, date) && .compare("serial", .less, serial))
        return FetchDescriptor<Note>(filter: after, sortBy: newestFirst, fetchLimit: size)
    }

    /// Folders holding more than `count` notes, by name.
    static func folders(withMoreThan count: Int, in context: ModelContext) throws -> [Folder] {
        // TODO(#11, qcore): FetchDescriptor<Folder>(predicate: #Predicate { $0.notes.count > count }) — the core's
        // to-many count has not landed; one store count per folder instead (no note is loaded).
        try context.fetch(FetchDescriptor<Folder>(filter: nil, sortBy: [SortKey(\Folder.name)])).filter { folder in
            try context.fetchCount(FetchDescriptor<Note>(filter: .targetIs("folder", folder.persistentModelID))) > count
        }
    }
}
