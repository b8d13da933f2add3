import Foundation
import StrataModel

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

/// The stages of a plan whose custom stage changes records and then throws at `point`.
///
/// Each failure point is its own plan type, not a shared flag: the test runs once per backend in
/// parallel, and a flag one backend's test set while another's stage ran made that stage not throw.
enum FailingPlan {
    enum Where: Sendable { case willMigrate, didMigrate }
    struct Failure: Error {}

    static var schemas: [any VersionedSchema.Type] { [SampleTripsSchemaV1.self, FailingSchemaV2.self] }
    static func stages(failing point: Where) -> [MigrationStage] {
        [
            .custom(
                fromVersion: SampleTripsSchemaV1.self, toVersion: FailingSchemaV2.self,
                willMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<SampleTripsSchemaV1.Trip>()) where trip.name == "Oslo" { context.delete(trip) }
                    try context.save()
                    if point == .willMigrate { throw Failure() }
                },
                didMigrate: { context in
                    for trip in try context.fetch(FetchDescriptor<FailingSchemaV2.Trip>()) { trip.rating = 5 }
                    try context.save()
                    if point == .didMigrate { throw Failure() }
                })
        ]
    }
}

/// `FailingPlan` failing in `willMigrate`, after its own save.
enum FailingInWillMigratePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { FailingPlan.schemas }
    static var stages: [MigrationStage] { FailingPlan.stages(failing: .willMigrate) }
}

/// `FailingPlan` failing in `didMigrate`, after the schema change and its own save.
enum FailingInDidMigratePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { FailingPlan.schemas }
    static var stages: [MigrationStage] { FailingPlan.stages(failing: .didMigrate) }
}
