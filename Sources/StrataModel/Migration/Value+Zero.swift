import Foundation

extension Value {
    /// The zero value of an attribute type (0, false, "", the reference date, empty data, the nil
    /// UUID, `about:blank`): what a custom stage's schema change puts in a new required attribute
    /// that has no default, before `didMigrate` sets the real values.
    static func zero(of type: AttributeType) -> Value {
        switch type {
        case .bool: .bool(false)
        case .int: .int(0)
        case .double: .double(0)
        case .string: .string("")
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .data: .data(Data())
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .url: .url(URL(string: "about:blank") ?? URL(fileURLWithPath: "/"))
        }
    }
}
