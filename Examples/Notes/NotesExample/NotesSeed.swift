import ExampleSupport
import Foundation

/// The Notes example's starting data: 24 notes in four folders (two in none), three tags,
/// generated from fixed rules so the output is the same everywhere.
enum NotesSeed {
    static let start = ExampleDates.day(2025, 1, 6, hour: 9)
    static let topics = [
        "Quarterly planning meeting", "Grocery list", "Book ideas", "Team meeting notes", "Bike repair",
        "Conference talk draft", "Recipe: lentil soup", "Old tax papers", "Garden plan", "1:1 meeting agenda",
        "Reading list", "Holiday photos",
    ]
    static let folderNames = ["Work", "Home", "Archive", "Ideas"]

    /// Note `serial` (1…24): two notes per hour, so creation times tie in pairs.
    static func note(_ serial: Int) -> Note {
        let topic = topics[(serial - 1) % topics.count]
        return Note(
            serial: serial, title: "\(topic) #\(serial)", body: serial % 4 == 0 ? "Follow up after the Meeting." : "Draft \(serial) about \(topic.lowercased()).",
            createdAt: start.addingTimeInterval(Double(serial / 2) * 3_600), isPinned: serial % 7 == 0,
            priority: NotePriority(rawValue: serial % 3)!)
    }

    /// The folder of note `serial`: Work gets 9, Home 6, Archive 4, Ideas 3, two get none.
    static func folderIndex(_ serial: Int) -> Int? {
        switch serial {
        case 1...9: 0
        case 10...15: 1
        case 16...19: 2
        case 20...22: 3
        default: nil
        }
    }

    /// The tags of note `serial`, by name.
    static func tagNames(_ serial: Int) -> [String] {
        var names: [String] = []
        if serial % 5 == 0 || serial == 2 { names.append("urgent") }
        if serial % 4 == 0 { names.append("later") }
        if serial % 6 == 1 { names.append("reading") }
        return names
    }
}
