import Foundation

/// Fixed calendar dates in UTC, so every example prints the same on every machine and day: the
/// examples never read the wall clock.
public enum ExampleDates {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Midnight UTC of a calendar day, plus `hour` hours and `minute` minutes.
    public static func day(_ year: Int, _ month: Int, _ day: Int, hour: Int = 0, minute: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    /// `2025-06-01`.
    public static func text(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// `2025-06-01 09:30`.
    public static func textWithTime(_ date: Date) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return text(date) + String(format: " %02d:%02d", c.hour!, c.minute!)
    }
}
