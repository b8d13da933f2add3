import Foundation
import StrataModel
import Testing

@Suite struct QuerySortTests {
    /// Rows in the order of `keys` (each a comparison returning <0, 0, >0), ties by insertion order.
    static func ordered(_ keys: [(NoteRow, NoteRow) -> Int]) -> [String] {
        NoteRow.all.enumerated().sorted { a, b in
            for key in keys {
                let c = key(a.element, b.element)
                if c != 0 { return c < 0 }
            }
            return a.offset < b.offset
        }.map(\.element.title)
    }

    static func order<V: Comparable>(_ a: V, _ b: V) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
    /// `nil` first, as the core sorts ascending.
    static func order<V: Comparable>(_ a: V?, _ b: V?) -> Int {
        switch (a, b) {
        case (nil, nil): 0
        case (nil, _): -1
        case (_, nil): 1
        case (let a?, let b?): order(a, b)
        }
    }

    @Test(arguments: ModelBackend.all) func sortDescriptors(_ backend: ModelBackend) throws {
        let store = try QueryStore(backend)
        let context = store.context()
        func titles(_ sort: [SortDescriptor<QueryNote>], predicate: Predicate<QueryNote>? = nil, limit: Int? = nil, offset: Int? = nil) throws -> [String] {
            var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
            descriptor.fetchLimit = limit
            descriptor.fetchOffset = offset
            return try context.fetch(descriptor).map(\.title)
        }
        #expect(try titles([SortDescriptor(\.views)]) == Self.ordered([{ Self.order($0.views, $1.views) }]))
        #expect(try titles([SortDescriptor(\.title, order: .reverse)]) == Self.ordered([{ Self.order($1.title, $0.title) }]))
        #expect(try titles([SortDescriptor(\.title, comparator: .lexical)]) == Self.ordered([{ Self.order($0.title, $1.title) }]), ".lexical is byte order")
        // Several keys: rating descending, then title.
        let byRatingThenTitle = Self.ordered([{ Self.order($1.rating, $0.rating) }, { Self.order($0.title, $1.title) }])
        #expect(try titles([SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.title)]) == byRatingThenTitle)
        // Optional attribute: nil first ascending, last descending.
        #expect(try titles([SortDescriptor(\.summary)]) == Self.ordered([{ Self.order($0.summary, $1.summary) }]))
        #expect(try titles([SortDescriptor(\.summary, order: .reverse)]) == Self.ordered([{ Self.order($1.summary, $0.summary) }]))
        // Through a to-one relationship, then by a second key.
        let byFolder = Self.ordered([{ Self.order($0.folder, $1.folder) }, { Self.order($1.createdAt, $0.createdAt) }])
        #expect(try titles([SortDescriptor(\.folder?.name), SortDescriptor(\.createdAt, order: .reverse)]) == byFolder)
        // String comparators through core sort keys (Foundation's SortDescriptor has only .lexical on Linux).
        func folded(_ a: String, _ b: String) -> Int {
            let x = a.lowercased().unicodeScalars.map(\.value), y = b.lowercased().unicodeScalars.map(\.value)
            if x != y { return x.lexicographicallyPrecedes(y) ? -1 : 1 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a == b ? 0 : 1)
        }
        var caseless = FetchDescriptor<QueryNote>()
        caseless.sortKeys = [SortKey(\QueryNote.body, comparator: .caseInsensitive)]
        #expect(try context.fetch(caseless).map(\.title) == Self.ordered([{ folded($0.body, $1.body) }]))
        caseless.sortKeys = [SortKey(\QueryNote.body, order: .descending, comparator: .localizedStandard)]
        #expect(try context.fetch(caseless).map(\.title) == Self.ordered([{ folded($1.body, $0.body) }]), "ASCII text without digits: the same order")
        // Sorted, filtered and windowed.
        let pinnedByViews = NoteRow.all.filter(\.pinned).sorted { $0.views > $1.views }.map(\.title)
        #expect(try titles([SortDescriptor(\.views, order: .reverse)], predicate: #Predicate { $0.isPinned }, limit: 2, offset: 1) == Array(pinnedByViews[1..<3]))
    }

    @Test func sortKeysByKeyPathNameChains() {
        #expect(SortKey(\QueryNote.folder?.name).path == "folder.name")
        #expect(SortKey(\QueryNote.folder?.isArchived).path == "folder.isArchived")
        #expect(SortKey(\QueryNote.title).path == "title")
        #expect(SortKey(\QueryNote.scratch).path.description.contains("not persisted"), "a transient property names nothing")
    }

    @Test func unnamedSortKeyPathIsAnError() throws {
        let store = try QueryStore(ModelBackend.all[0])
        #expect(throws: StrataError.self) { try store.context().fetch(FetchDescriptor(sortBy: [SortDescriptor(\QueryNote.scratch)])) }
        do {
            _ = try store.context().fetch(FetchDescriptor(sortBy: [SortDescriptor(\QueryNote.scratch)]))
        } catch let error as StrataError {
            #expect(error.code == .unknownProperty)
        }
    }
}
