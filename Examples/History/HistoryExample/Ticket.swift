import StrataModel

/// A help-desk ticket: what the desk saves and the worker follows.
@Model public final class Ticket {
    @Attribute(.unique) public var number: Int
    public var title: String
    public var status: String

    /// An open ticket.
    public init(number: Int, title: String, status: String = "open") {
        self.number = number
        self.title = title
        self.status = status
    }
}
