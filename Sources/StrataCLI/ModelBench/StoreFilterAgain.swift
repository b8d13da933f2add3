import Foundation
import Strata
import StrataConformance

/// The store level's counterpart of the model level's `filter-again` step: the workload's filter
/// (`category == 42` by price, descending) run once, then again with another value (`43`), and
/// only the second run timed.
///
/// The model level's first `#Predicate` fetch pays one-time costs of the process (the Swift
/// runtime's first conformance lookups while translating Foundation's expression tree), its
/// second fetch of another captured value is what an application pays from then on. Timing the
/// store's second filter too keeps that comparison fair: the store's first filter also prepares
/// what it reuses later (SQLite compiles and caches its statement). It runs on its own store,
/// reopened and scanned first as the standard workload's store is when its filter step runs.
enum StoreFilterAgain {
    /// The `filter-again` figure of the store level, in milliseconds.
    static func run<Store: DataStore>(factory: StoreFactory<Store>, records: Int, bracket: StandardWorkload.StepBracket?) throws -> WorkloadReport.Figure {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-filter-again-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { factory.destroy(directory) }
        do {
            let (owners, items) = StandardWorkload.insertedRecords(Store.Snapshot.self, records: records)
            _ = try Store(factory.configuration(directory, WorkloadSchema.schema)).save(SaveRequest(inserted: owners + items))
        }
        let store = try Store(factory.configuration(directory, WorkloadSchema.schema))
        guard try store.fetch(FetchDescriptor(entity: "Item")).count == records else { throw WorkloadError("the filter-again store lost items") }
        func filter(_ category: Int) throws -> [Store.Snapshot] {
            try store.fetch(FetchDescriptor(entity: "Item", predicate: .compare("category", .equal, .int(Int64(category))), sortBy: [SortKey("price", order: .descending)]))
        }
        guard try filter(42).count == records / 100 else { throw WorkloadError("the store's first filter found the wrong items") }
        let (hits, seconds) = try WorkloadTiming.time(ModelWorkload.filterAgainStep, bracket) { try filter(43) }
        guard hits.count == records / 100 else { throw WorkloadError("filter-again returned \(hits.count) items, expected \(records / 100)") }
        return .init(value: seconds * 1000, unit: "ms")
    }
}
