import Foundation
import StrataModel

// The SampleTrips models of WWDC24's custom-store session, in the shape SwiftData code writes them.

@Model final class Trip {
    var name: String
    var destination: String
    var startDate: Date
    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip) var bucketList: [BucketListItem] = []

    init(name: String, destination: String, startDate: Date = Date(timeIntervalSince1970: 0)) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

@Model final class BucketListItem {
    var title: String
    var isInPlan: Bool = false
    var trip: Trip?

    init(title: String) {
        self.title = title
    }
}
