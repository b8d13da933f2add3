import Foundation
import StrataModel

/// The Notes example's queries, each one store fetch (or count) with the filter and sort run by
/// the store.
enum NotesQueries {
    /// Newest first, ties by serial (highest first): the order both kinds of paging walk.
    static var newestFirst: [SortDescriptor<Note>] { [SortDescriptor(\Note.createdAt, order: .reverse), SortDescriptor(\Note.serial, order: .reverse)] }

    /// Pinned notes first, then the newest.
    static func pinnedThenNewest(limit: Int) -> FetchDescriptor<Note> {
        // `Bool` is not `Comparable`, so Foundation's `SortDescriptor` cannot sort by `isPinned` (in
        // SwiftData neither); the core's sort key can, and the store sorts by all three keys at once.
        FetchDescriptor<Note>(
            filter: nil, sortBy: [SortKey(\Note.isPinned, order: .descending), SortKey(\Note.createdAt, order: .descending), SortKey(\Note.serial, order: .descending)],
            fetchLimit: limit)
    }

    /// Notes whose title or body contains `text`, ignoring case.
    static func search(_ text: String) -> FetchDescriptor<Note> {
        FetchDescriptor<Note>(predicate: #Predicate { $0.title.localizedStandardContains(text) || $0.body.localizedStandardContains(text) }, sortBy: [SortDescriptor(\.serial)])
    }

    /// Notes in the folder called `name`, oldest first.
    static func inFolder(_ name: String) -> FetchDescriptor<Note> {
        FetchDescriptor<Note>(predicate: #Predicate { $0.folder?.name == name }, sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.serial)])
    }

    /// Notes carrying the tag called `name`: an any-over-the-to-many the store runs (`EXISTS` in SQL).
    static func tagged(_ name: String) -> FetchDescriptor<Note> {
        FetchDescriptor<Note>(predicate: #Predicate { $0.tags.contains { $0.name == name } }, sortBy: [SortDescriptor(\.serial)])
    }

    /// One page of `newestFirst` by position.
    static func page(offset: Int, size: Int) -> FetchDescriptor<Note> {
        var descriptor = FetchDescriptor<Note>(sortBy: newestFirst)
        descriptor.fetchLimit = size
        descriptor.fetchOffset = offset
        return descriptor
    }

    /// The page after `last` in `newestFirst` order, by cursor (keyset paging): no work spent
    /// skipping earlier rows, and stable when notes are inserted before the cursor.
    static func page(after last: Note?, size: Int) -> FetchDescriptor<Note> {
        var descriptor = FetchDescriptor<Note>(sortBy: newestFirst)
        descriptor.fetchLimit = size
        if let last {
            let date = last.createdAt, serial = last.serial
            descriptor.predicate = #Predicate { $0.createdAt < date || ($0.createdAt == date && $0.serial < serial) }
        }
        return descriptor
    }

    /// Folders holding more than `count` notes, by name: the to-many's count compared in the store
    /// (a subquery count in SQL), no note loaded.
    static func folders(withMoreThan count: Int) -> FetchDescriptor<Folder> {
        FetchDescriptor<Folder>(predicate: #Predicate { $0.notes.count > count }, sortBy: [SortDescriptor(\.name)])
    }
}
