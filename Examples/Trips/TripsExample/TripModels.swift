import Foundation
import StrataModel

/// A trip, as in WWDC24's "Create a custom data store" sample: a bucket list that goes with it,
/// and where to stay.
@Model public final class Trip {
    @Attribute(.unique) public var name: String
    public var destination: String
    public var startDate: Date
    public var endDate: Date
    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip) public var bucketList: [BucketListItem] = []
    @Relationship(deleteRule: .cascade, inverse: \LivingAccommodation.trip) public var livingAccommodation: LivingAccommodation?

    /// A trip without items or accommodation yet.
    public init(name: String, destination: String, startDate: Date, endDate: Date) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// Something to do on a trip.
@Model public final class BucketListItem {
    public var title: String
    public var details: String
    public var hasReservation: Bool
    public var isInPlan: Bool
    public var trip: Trip?

    /// An item; it joins a trip when appended to its `bucketList`.
    public init(title: String, details: String, hasReservation: Bool = false, isInPlan: Bool = false) {
        self.title = title
        self.details = details
        self.hasReservation = hasReservation
        self.isInPlan = isInPlan
    }
}

/// Where to stay on a trip.
@Model public final class LivingAccommodation {
    public var address: String
    public var placeName: String
    public var trip: Trip?

    /// An accommodation; it joins a trip when set as its `livingAccommodation`.
    public init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}
