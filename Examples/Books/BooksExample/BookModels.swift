import StrataModel

/// A book: its name is unique, and its reviews go with it.
@Model public final class Book {
    @Attribute(.unique) public var name: String
    public var author: String
    @Relationship(deleteRule: .cascade, inverse: \Review.book) public var reviews: [Review] = []

    /// A book without reviews yet.
    public init(name: String, author: String) {
        self.name = name
        self.author = author
    }
}

/// A review of one book, rated 1 to 5.
@Model public final class Review {
    public var subject: String
    public var body: String
    public var rating: Int
    public var book: Book?

    /// A review; it joins a book when appended to its `reviews`.
    public init(subject: String, body: String, rating: Int) {
        self.subject = subject
        self.body = body
        self.rating = rating
    }
}
