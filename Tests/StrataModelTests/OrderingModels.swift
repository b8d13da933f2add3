import Foundation
import StrataModel

/// An order that is not its raw values' order: "high" < "low" < "medium" as strings.
enum TaskPriority: String, Codable, CaseIterable, Comparable {
    case low, medium, high
    static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }
}

/// An order the store cannot know: not `CaseIterable`, raw strings in another order.
enum TaskSeverity: String, Codable, Comparable {
    case minor, major, critical
    static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    private var rank: Int {
        switch self {
        case .minor: 0
        case .major: 1
        case .critical: 2
        }
    }
}

/// An order that is its raw values' order.
enum TaskLevel: Int, Codable, CaseIterable, Comparable {
    case one = 1, two = 2, three = 3
    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A `Comparable` value stored as a JSON document, whose text has no meaningful order.
struct TaskVersion: Codable, Comparable, Hashable {
    var major: Int
    var minor: Int
    static func < (a: Self, b: Self) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
}

/// The models of the ordering and identity tests.
@Model final class RankedTask {
    var title: String
    var priority: TaskPriority
    var severity: TaskSeverity = TaskSeverity.minor
    var level: TaskLevel = TaskLevel.one
    var due: Date? = nil
    var token: UUID = UUID()
    var version: TaskVersion = TaskVersion(major: 1, minor: 0)
    var list: TaskList?

    init(title: String, priority: TaskPriority) {
        self.title = title
        self.priority = priority
    }
}

@Model final class TaskList {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \RankedTask.list) var tasks: [RankedTask] = []
    init(name: String) { self.name = name }
}
