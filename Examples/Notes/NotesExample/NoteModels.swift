import Foundation
import StrataModel

/// How urgent a note is; stored as its raw value, so queries compare it.
public enum NotePriority: Int, Codable, CaseIterable, Sendable {
    case low = 0, normal = 1, high = 2
}

/// A note: text, a creation time, a pin, a priority, at most one folder and any number of tags.
///
/// `serial` is the note's stable number: with `createdAt` it makes the cursor of keyset paging
/// (two notes can share a creation time; no two share a serial).
@Model public final class Note {
    @Attribute(.unique) public var serial: Int
    public var title: String
    public var body: String
    public var createdAt: Date
    public var isPinned: Bool
    public var priority: NotePriority
    @Relationship(deleteRule: .nullify) public var folder: Folder?
    @Relationship(inverse: \Tag.notes) public var tags: [Tag] = []

    /// A note outside any folder, without tags.
    public init(serial: Int, title: String, body: String, createdAt: Date, isPinned: Bool = false, priority: NotePriority = .normal) {
        self.serial = serial
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.isPinned = isPinned
        self.priority = priority
    }
}

/// A folder of notes; deleting it deletes its notes.
@Model public final class Folder {
    @Attribute(.unique) public var name: String
    @Relationship(deleteRule: .cascade, inverse: \Note.folder) public var notes: [Note] = []

    /// An empty folder.
    public init(name: String) { self.name = name }
}

/// A tag; a note has many, a tag is on many notes.
@Model public final class Tag {
    @Attribute(.unique) public var name: String
    public var notes: [Note] = []

    /// A tag on no note yet.
    public init(name: String) { self.name = name }
}
