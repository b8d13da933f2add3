import Foundation
import StrataMemory
@testable import StrataModel
import Testing

/// `fetchLimit = 0` means what SwiftData documents ("use `nil` to return all models, not `0`"):
/// at most zero results, on every read of the model layer and of the store, on every backend.
/// Core Data's `NSFetchRequest.fetchLimit` reads 0 as "no limit"; SwiftData's optional does not.
@Suite struct FetchLimitZeroTests {
    @Test(arguments: ModelBackend.all) func zeroLimitReturnsNothingEverywhere(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try fixture.open()
        let context = ModelContext(container)
        for n in 0..<5 { context.insert(HistoryTests.trip("trip-\(n)")) }
        try context.save()
        context.insert(HistoryTests.trip("pending"))  // an unsaved object the fetch includes by default

        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        descriptor.fetchLimit = 0
        #expect(try context.fetch(descriptor).map(\.name) == [], "\(backend): fetch")
        #expect(try context.fetchCount(descriptor) == 0, "\(backend): fetchCount")
        #expect(try context.fetchIdentifiers(descriptor) == [], "\(backend): fetchIdentifiers")
        #expect(try context.fetch(descriptor, batchSize: 2).count == 0, "\(backend): fetch(batchSize:)")
        var enumerated = 0
        try context.enumerate(descriptor, batchSize: 2) { _ in enumerated += 1 }
        #expect(enumerated == 0, "\(backend): enumerate")
        descriptor.fetchOffset = 2
        #expect(try context.fetch(descriptor).map(\.name) == [], "\(backend): fetch with an offset")
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).map(\.name) == [], "\(backend): fetch without pending changes")
        #expect(try context.fetchCount(descriptor) == 0, "\(backend): fetchCount without pending changes")

        // nil is "all"; a limit of 1 is one: the test can tell the three apart.
        descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
        #expect(try context.fetch(descriptor).count == 6, "\(backend): nil limit")
        descriptor.fetchLimit = 1
        #expect(try context.fetch(descriptor).map(\.name) == ["pending"], "\(backend): limit 1")

        // The store underneath agrees.
        let store = container.store
        #expect(try store.fetch(Strata.FetchDescriptor(entity: "Trip", fetchLimit: 0)).isEmpty, "\(backend): store fetch")
        #expect(try store.fetchCount(Strata.FetchDescriptor(entity: "Trip", fetchLimit: 0)) == 0, "\(backend): store count")
        #expect(try store.fetchIdentifiers(Strata.FetchDescriptor(entity: "Trip", fetchLimit: 0)).isEmpty, "\(backend): store identifiers")
    }

    /// A history fetch with `fetchLimit = 0` returns no transaction, as the store's `HistoryQuery`
    /// with `limit: 0` does; `nil` returns all of them.
    @Test(arguments: HistoryTests.Recording.all) func zeroHistoryLimitReturnsNothing(_ backend: HistoryTests.Recording) throws {
        let dir = try HistoryTests.directory(backend.name)
        defer { try? FileManager.default.removeItem(at: dir); MemoryStore.destroy(name: dir.path) }
        let container = try backend.open(dir)
        guard HistoryTests.keepsHistory(container) else { return }
        let context = ModelContext(container)
        try HistoryTests.saveTrips(context, 3, prefix: "trip-")
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        #expect(try context.fetchHistory(descriptor).count == 3, "\(backend): nil limit")
        descriptor.fetchLimit = 0
        #expect(try context.fetchHistory(descriptor).isEmpty, "\(backend): history limit 0")
        descriptor.fetchLimit = 2
        #expect(try context.fetchHistory(descriptor).count == 2, "\(backend): history limit 2")
        #expect(try container.store.fetchHistory(HistoryQuery(limit: 0)).isEmpty, "\(backend): store history limit 0")
        descriptor.fetchLimit = -1
        #expect(throws: StrataError.self, "\(backend): a negative history limit, as a negative fetch limit") { try context.fetchHistory(descriptor) }
        var negative = FetchDescriptor<Trip>()
        negative.fetchLimit = -1
        #expect(throws: StrataError.self, "\(backend): a negative fetch limit") { try context.fetch(negative) }
    }
}
