import Foundation
import StrataModel
import Testing

/// `includePendingChanges`: a context's fetches see its unsaved inserts, changes and deletes.
@Suite struct PendingChangesTests {
    /// The rows as the context sees them after the edits below, in insertion order.
    static func editedRows() -> [NoteRow] {
        var rows = NoteRow.all.filter { $0.title != "Travel" }
        rows = rows.map { row in
            switch row.title {
            case "Groceries": NoteRow(title: row.title, body: row.body, day: row.day, updated: row.updated, pinned: false, priority: row.priority, rating: row.rating, views: row.views, summary: row.summary, folder: row.folder, tags: row.tags)
            case "Garden": NoteRow(title: row.title, body: row.body, day: row.day, updated: row.updated, pinned: true, priority: row.priority, rating: row.rating, views: 45, summary: row.summary, folder: row.folder, tags: row.tags)
            case "Quarterly plan": NoteRow(title: row.title, body: row.body, day: row.day, updated: row.updated, pinned: row.pinned, priority: row.priority, rating: row.rating, views: 2, summary: row.summary, folder: row.folder, tags: row.tags)
            default: row
            }
        }
        rows.append(NoteRow(title: "New pinned", body: "fresh", day: 13, updated: 13, pinned: true, priority: 1, rating: 2, views: 3, summary: nil, folder: "Work", tags: []))
        rows.append(NoteRow(title: "New plain", body: "fresh", day: 14, updated: 14, pinned: false, priority: 1, rating: 2, views: 4, summary: nil, folder: "Work", tags: []))
        return rows
    }

    @Test(arguments: ModelBackend.all) func fetchesSeeUnsavedWork(_ backend: ModelBackend) throws {
        let store = try QueryStore(backend)
        let context = store.context()
        let all = try context.fetch(FetchDescriptor<QueryNote>())
        func note(_ title: String) -> QueryNote { all.first { $0.title == title }! }
        note("Groceries").isPinned = false
        note("Garden").isPinned = true
        note("Garden").views = 45
        note("Quarterly plan").views = 2  // leaves the top of the store's order: the window must widen
        context.delete(note("Travel"))
        let work = note("Budget").folder
        for row in Self.editedRows().suffix(2) {
            let fresh = QueryNote(row)
            context.insert(fresh)
            fresh.folder = work
        }
        let rows = Self.editedRows()

        let pinned = #Predicate<QueryNote> { $0.isPinned }
        let expectedPinned = rows.filter(\.pinned).map(\.title)
        #expect(try context.fetch(FetchDescriptor(predicate: pinned)).map(\.title) == expectedPinned, "insertion order: stored by key, new ones last")
        #expect(try context.fetchCount(FetchDescriptor(predicate: pinned)) == expectedPinned.count)
        #expect(try context.fetchIdentifiers(FetchDescriptor(predicate: pinned)).count == expectedPinned.count)

        // A to-one path on new objects, evaluated over the objects.
        let inWork = #Predicate<QueryNote> { $0.folder?.name == "Work" }
        #expect(Set(try context.fetch(FetchDescriptor(predicate: inWork)).map(\.title)) == Set(rows.filter { $0.folder == "Work" }.map(\.title)))

        // Sorted and windowed over the merged result: views descending, ties by key then insertion.
        let byViews = rows.enumerated().sorted { a, b in
            a.element.views != b.element.views ? a.element.views > b.element.views : a.offset < b.offset
        }.map(\.element.title)
        for (offset, limit) in [(0, 3), (0, 4), (1, 3), (2, 5), (10, 5), (0, 100)] {
            var descriptor = FetchDescriptor<QueryNote>(sortBy: [SortDescriptor(\.views, order: .reverse)])
            descriptor.fetchOffset = offset
            descriptor.fetchLimit = limit
            let window = Array(byViews.dropFirst(offset).prefix(limit))
            #expect(try context.fetch(descriptor).map(\.title) == window, "offset \(offset) limit \(limit)")
            #expect(try context.fetchCount(descriptor) == window.count, "count, offset \(offset) limit \(limit)")
        }

        // Opting out reads the store alone.
        var storeOnly = FetchDescriptor(predicate: pinned)
        storeOnly.includePendingChanges = false
        #expect(try context.fetch(storeOnly).map(\.title) == NoteRow.all.filter(\.pinned).map(\.title))
        #expect(try context.fetchCount(storeOnly) == NoteRow.all.filter(\.pinned).count)

        // After the save the store agrees with what the context showed.
        try context.save()
        #expect(try ModelContext(store.container).fetch(FetchDescriptor(predicate: pinned)).map(\.title) == expectedPinned)
    }

    @Test func pendingEvaluationTouchesOnlyPendingObjects() throws {
        let log = StoreCallLog()
        let store = try QueryStore(.counting(log))
        let context = store.context()
        let garden = try #require(try context.fetch(FetchDescriptor(predicate: #Predicate<QueryNote> { $0.title == "Garden" })).first)
        garden.isPinned = true
        log.reset()
        let found = try context.fetch(FetchDescriptor(predicate: #Predicate<QueryNote> { $0.isPinned }))
        #expect(found.contains { $0 === garden })
        #expect(log.all == ["fetch QueryNote"], "one store fetch; the pending object is judged in memory: \(log.all)")
    }

    /// Deleting pending inserts drops them from the pending list, in insert order, also when one of
    /// them is inserted again before anything reads the list; the save stores exactly the rest.
    @Test func deletedPendingInsertsLeaveTheList() throws {
        let fixture = try ModelFixture(ModelBackend.all[0])
        let context = ModelContext(try fixture.open())
        let trips = (0..<6).map { Trip(name: "t\($0)", destination: "d") }
        for trip in trips { context.insert(trip) }
        context.delete(trips[1])
        context.delete(trips[4])
        context.delete(trips[2])
        context.insert(trips[2])
        #expect(context.insertedModelsArray.map { ($0 as! Trip).name } == ["t0", "t3", "t5", "t2"])
        #expect(context.hasChanges)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["t0", "t2", "t3", "t5"])
        let alone = Trip(name: "alone", destination: "d")
        context.insert(alone)
        context.delete(alone)
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)
    }
}
