import StrataModel

/// A Pixar feature film. Box office: approximate worldwide gross in millions of US dollars, for
/// sorting and filtering, not for citing.
@Model public final class PixarMovie {
    @Attribute(.unique) public var title: String
    public var releaseYear: Int
    public var director: String
    public var boxOfficeMillions: Double

    /// A film.
    public init(title: String, releaseYear: Int, director: String, boxOfficeMillions: Double) {
        self.title = title
        self.releaseYear = releaseYear
        self.director = director
        self.boxOfficeMillions = boxOfficeMillions
    }
}
