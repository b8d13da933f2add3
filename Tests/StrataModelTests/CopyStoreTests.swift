import Foundation
import StrataModel
import Testing

/// `ModelContainer.copyStore(from:to:)`: an app switches backends at launch with its data.
struct CopyStoreTests {
    /// Every destination kind a `ModelConfiguration` URL picks: SQLite, JSON, XML, LMDB, CSV.
    @Test(arguments: ["copy.store", "copy.json", "copy.xml", "copy.lmdb", "copy.csv"])
    func copiesEveryRecordToAnotherBackend(_ file: String) throws {
        let directory = try SampleDirectory()
        let source = ModelConfiguration(url: directory.url.appendingPathComponent("trips.store"))
        var ids: [String: PersistentIdentifier] = [:]
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: source))
            for n in 0..<3 {
                let trip = Trip(name: "trip \(n)", destination: "place \(n)")
                context.insert(trip)
                trip.bucketList = (0..<n).map { BucketListItem(title: "item \(n).\($0)") }
            }
            try context.save()
            for trip in try context.fetch(FetchDescriptor<Trip>()) { ids[trip.name] = trip.persistentModelID }
        }
        let destination = ModelConfiguration(url: directory.url.appendingPathComponent(file))
        let report = try ModelContainer.copyStore(from: source, to: destination)
        #expect(report.verified && report.keyMap.keepsKeys && report.records == 6)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy { !$0.contains("strata-copy") }, "no staging folder left")
        let context = ModelContext(try ModelContainer(for: Trip.self, configurations: destination))
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["trip 0", "trip 1", "trip 2"])
        #expect(trips.map { $0.bucketList.map(\.title).sorted() } == [[], ["item 1.0"], ["item 2.0", "item 2.1"]])
        // The same primary keys: an identifier kept by the app names the same record, by key.
        #expect(trips.allSatisfy { $0.persistentModelID.primaryKey == ids[$0.name]?.primaryKey })
    }

    @Test func refusesAnExistingDestinationAndMemory() throws {
        let directory = try SampleDirectory()
        let source = ModelConfiguration(url: directory.url.appendingPathComponent("trips.store"))
        do {
            let context = ModelContext(try ModelContainer(for: Trip.self, configurations: source))
            context.insert(Trip(name: "kept", destination: "here"))
            try context.save()
        }
        let taken = directory.url.appendingPathComponent("taken.json")
        try Data("not a store".utf8).write(to: taken)
        #expect(throws: StrataError.self) { try ModelContainer.copyStore(from: source, to: ModelConfiguration(url: taken)) }
        #expect(try String(contentsOf: taken, encoding: .utf8) == "not a store", "the existing file is untouched")
        #expect(throws: StrataError.self) { try ModelContainer.copyStore(from: source, to: ModelConfiguration(isStoredInMemoryOnly: true)) }
        #expect(throws: StrataError.self) { try ModelContainer.copyStore(from: ModelConfiguration(url: directory.url.appendingPathComponent("none.store")), to: ModelConfiguration(url: directory.url.appendingPathComponent("new.json"))) }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("new.json").path))
    }
}
