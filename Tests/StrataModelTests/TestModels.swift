import Foundation
import StrataModel

@Model final class Trip {
    @Attribute(.unique) var name: String
    var destination: String
    var startDate: Date
    var endDate: Date
    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip) var bucketList: [BucketListItem] = []
    @Relationship(deleteRule: .cascade) var livingAccommodation: LivingAccommodation?
    @Transient var viewCount = 0

    init(name: String, destination: String, startDate: Date = Date(timeIntervalSince1970: 0), endDate: Date = Date(timeIntervalSince1970: 86_400)) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }
}

@Model final class BucketListItem {
    var title: String
    var details: String = ""
    var hasReservation: Bool = false
    var isInPlan: Bool = false
    var trip: Trip?

    init(title: String, trip: Trip? = nil) {
        self.title = title
        self.trip = trip
    }
}

@Model final class LivingAccommodation {
    var address: String
    var placeName: String
    var trip: Trip?

    init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}

enum Priority: Int, Codable, CaseIterable {
    case low = 0, normal = 1, high = 2
}

enum Mood: String {
    case calm, busy
}

struct Location: Codable, Hashable {
    var latitude: Double
    var longitude: Double
    var label: String?
}

/// Every kind of property type the model layer stores.
@Model final class Sample {
    var label: String
    var count: Int = 7
    var small: Int16 = 0
    var ratio: Double = 0.5
    var flag: Bool = true
    var when: Date = Date(timeIntervalSince1970: 1_000)
    var blob: Data = Data()
    var uuid: UUID = UUID()
    var link: URL? = nil
    var note: String? = nil
    var priority: Priority = .normal
    var mood: Mood? = nil
    var location: Location? = nil
    var tags: [String] = []
    var history: [Priority] = []

    init(label: String) { self.label = label }
}

/// A one-way relationship: the user does not list its logs.
@Model final class AuditLog {
    var message: String
    var user: User?
    init(message: String, user: User?) {
        self.message = message
        self.user = user
    }
}

@Model final class User {
    @Attribute(.unique) var email: String
    var name: String
    @Relationship(deleteRule: .deny, inverse: \Shelf.owner) var shelves: [Shelf] = []
    init(email: String, name: String) {
        self.email = email
        self.name = name
    }
}

@Model final class Shelf {
    var label: String
    var owner: User?
    #Unique<Shelf>([\.label, \.owner])
    init(label: String, owner: User? = nil) {
        self.label = label
        self.owner = owner
    }
}

@Model final class Person {
    var first: String
    var last: String
    var city: String? = nil
    @Relationship(inverse: \Person.friendOf) var friends: [Person] = []
    var friendOf: [Person] = []
    #Unique<Person>([\.first, \.last])
    #Index<Person>([\.last])
    init(first: String, last: String) {
        self.first = first
        self.last = last
    }
}
