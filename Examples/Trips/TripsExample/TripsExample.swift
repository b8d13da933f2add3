import ExampleSupport
import Foundation
import StrataModel

/// The Trips example: plan trips, list the upcoming ones by start date, add bucket-list items,
/// delete a trip (its items and accommodation go with it), on any backend.
public enum TripsExample {
    /// The model types (the related ones are found through the relationships).
    public static var models: [any PersistentModel.Type] { [Trip.self] }
    /// "Today" for the example: fixed, so every run prints the same.
    static let today = ExampleDates.day(2025, 6, 1)

    /// Runs the example on a fresh store in `folder`, printing to `out`.
    public static func run(_ backend: ExampleBackend, folder: URL, out: ExampleOutput) throws {
        backend.destroy(folder)
        do {
            let context = ModelContext(try backend.container(for: models, in: folder))
            for trip in seed() { context.insert(trip) }
            try context.save()
            out("Planned \(try context.fetchCount(FetchDescriptor<Trip>())) trips with \(try context.fetchCount(FetchDescriptor<BucketListItem>())) bucket-list items.")
        }

        // A new container on the same folder: what follows reads what the store kept.
        let context = ModelContext(try backend.container(for: models, in: folder))
        out()
        out("Upcoming trips (from \(ExampleDates.text(today))):")
        for trip in try upcoming(context) { out("  " + line(trip)) }

        let tokyo = try ExampleError.require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Tokyo" })).first, "no trip named Tokyo")
        tokyo.bucketList.append(BucketListItem(title: "Tsukiji outer market", details: "Breakfast before 8", isInPlan: true))
        tokyo.bucketList.append(BucketListItem(title: "teamLab Planets", details: "Book the 10:00 slot", hasReservation: true, isInPlan: true))
        try context.save()
        out()
        out("Tokyo's bucket list after adding two items:")
        for item in tokyo.bucketList { out("  " + line(item)) }
        let planned = try context.fetchCount(FetchDescriptor<BucketListItem>(predicate: #Predicate { $0.trip?.name == "Tokyo" && $0.isInPlan }))
        out("  \(planned) of \(tokyo.bucketList.count) are in the plan.")

        let lisbon = try ExampleError.require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Lisbon" })).first, "no trip named Lisbon")
        context.delete(lisbon)
        try context.save()
        out()
        out("Deleted Lisbon: \(try context.fetchCount(FetchDescriptor<Trip>())) trips, \(try context.fetchCount(FetchDescriptor<BucketListItem>())) bucket-list items, \(try context.fetchCount(FetchDescriptor<LivingAccommodation>())) accommodations left.")
        out("Upcoming trips:")
        // A fresh context, kept alive while its objects are read: an object loads its relationships
        // through its context, which it does not keep alive itself.
        let fresh = ModelContext(context.container)
        for trip in try upcoming(fresh) { out("  " + line(trip)) }
    }

    /// Trips starting today or later, soonest first.
    static func upcoming(_ context: ModelContext) throws -> [Trip] {
        let today = Self.today
        return try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.startDate >= today }, sortBy: [SortDescriptor(\.startDate)]))
    }

    static func line(_ trip: Trip) -> String {
        var text = "\(trip.name) — \(trip.destination), \(ExampleDates.text(trip.startDate)) to \(ExampleDates.text(trip.endDate)), \(trip.bucketList.count) items"
        if let stay = trip.livingAccommodation { text += ", staying at \(stay.placeName) (\(stay.address))" }
        return text
    }

    static func line(_ item: BucketListItem) -> String {
        "\(item.title): \(item.details)" + (item.hasReservation ? " [reserved]" : "") + (item.isInPlan ? " [in plan]" : "")
    }

    /// Four trips, one of them already over.
    static func seed() -> [Trip] {
        let tokyo = Trip(name: "Tokyo", destination: "Japan", startDate: ExampleDates.day(2025, 10, 3), endDate: ExampleDates.day(2025, 10, 12))
        tokyo.bucketList = [
            BucketListItem(title: "Senso-ji at dawn", details: "Asakusa, before the crowds", isInPlan: true),
            BucketListItem(title: "Sumo practice", details: "Ask the hotel about stables"),
        ]
        tokyo.livingAccommodation = LivingAccommodation(address: "2-1 Nihonbashi", placeName: "Ryokan Sakura")
        let lisbon = Trip(name: "Lisbon", destination: "Portugal", startDate: ExampleDates.day(2025, 7, 14), endDate: ExampleDates.day(2025, 7, 20))
        lisbon.bucketList = [
            BucketListItem(title: "Tram 28", details: "Ride the whole line", isInPlan: true),
            BucketListItem(title: "Pastéis de Belém", details: "Two, warm", hasReservation: false, isInPlan: true),
            BucketListItem(title: "Fado night", details: "Alfama, table for two", hasReservation: true),
        ]
        lisbon.livingAccommodation = LivingAccommodation(address: "Rua das Flores 12", placeName: "Casa Azul")
        let reykjavik = Trip(name: "Reykjavík", destination: "Iceland", startDate: ExampleDates.day(2026, 2, 9), endDate: ExampleDates.day(2026, 2, 15))
        reykjavik.bucketList = [BucketListItem(title: "Northern lights tour", details: "Pick a clear night", hasReservation: true, isInPlan: true)]
        let rome = Trip(name: "Rome", destination: "Italy", startDate: ExampleDates.day(2025, 3, 1), endDate: ExampleDates.day(2025, 3, 7))
        rome.bucketList = [BucketListItem(title: "Colosseum", details: "Underground tour", hasReservation: true, isInPlan: true)]
        return [tokyo, lisbon, reykjavik, rome]
    }
}
