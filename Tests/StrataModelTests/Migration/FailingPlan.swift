import Foundation
import StrataModel
import Synchronization

/// Version 2 of the trips app with a new required value, and a plan whose custom stage changes
/// records and then throws, in `willMigrate` or in `didMigrate`.
enum FailingSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self, BucketListItem.self] }

    @Model final class Trip {
        var name: String
        var destination: String
        var start_date: Date
        var end_date: Date
        var rating: Int
        @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip)
        var bucketList: [BucketListItem] = []

        init(name: String, destination: String, start_date: Date, end_date: Date, rating: Int) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
            self.rating = rating
        }
    }

    @Model final class BucketListItem {
        var title: String
        var trip: Trip?
        init(title: String) { self.title = title }
    }
}

enum FailingPlan: SchemaMigrationPlan {
    enum Where: Sendable { case willMigrate, didMigrate }
    struct Failure: Error {}
    static let failing = Mutex(Where.willMigrate)

    static var schemas: [any VersionedSchema.Type] { [SampleTripsSchemaV1.self, FailingSchemaV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: SampleTripsSchemaV1.self, toVersion: FailingSchemaV2.self,
                willMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>()) where trip.name == "Oslo" { context.delete(trip) }
                    try context.save()
                    if failing.withLock({ $0 }) == .willMigrate { throw Failure() }
                },
                didMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<FailingSchemaV2.Trip>()) { trip.rating = 5 }
                    try context.save()
                    if failing.withLock({ $0 }) == .didMigrate { throw Failure() }
                })
        ]
    }
}
