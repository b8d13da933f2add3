import ExampleSupport
import Foundation
import StrataModel

/// The Pixar catalog example: load a bundled JSON list into the store, then sorted and limited
/// fetches, a count and a filtered fetch.
public enum PixarExample {
    /// The model types.
    public static var models: [any PersistentModel.Type] { [PixarMovie.self] }

    /// One film as the bundled JSON lists it.
    struct Entry: Decodable {
        let title: String, releaseYear: Int, director: String, boxOfficeMillions: Double
    }

    /// The bundled catalog (`movies.json`).
    static func catalog() throws -> [Entry] {
        let url = try ExampleError.require(Bundle.module.url(forResource: "movies", withExtension: "json"), "movies.json is not in the bundle")
        return try JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
    }

    /// Runs the example on a fresh store in `folder`, printing to `out`.
    public static func run(_ backend: ExampleBackend, folder: URL, out: ExampleOutput) throws {
        backend.destroy(folder)
        do {
            let context = ModelContext(try backend.container(for: models, in: folder))
            for entry in try catalog() {
                context.insert(PixarMovie(title: entry.title, releaseYear: entry.releaseYear, director: entry.director, boxOfficeMillions: entry.boxOfficeMillions))
            }
            try context.save()
        }
        let context = ModelContext(try backend.container(for: models, in: folder))
        out("Loaded \(try context.fetchCount(FetchDescriptor<PixarMovie>())) films from movies.json.")

        out()
        out("Top 5 at the box office:")
        var top = FetchDescriptor<PixarMovie>(sortBy: [SortDescriptor(\.boxOfficeMillions, order: .reverse)])
        top.fetchLimit = 5
        for movie in try context.fetch(top) { out("  " + line(movie)) }

        out()
        out("The first three, by release year:")
        var firstThree = FetchDescriptor<PixarMovie>(sortBy: [SortDescriptor(\.releaseYear)])
        firstThree.fetchLimit = 3
        for movie in try context.fetch(firstThree) { out("  " + line(movie)) }

        out()
        out("Directed by Brad Bird, newest first:")
        let birds = FetchDescriptor<PixarMovie>(predicate: #Predicate { $0.director == "Brad Bird" }, sortBy: [SortDescriptor(\.releaseYear, order: .reverse)])
        for movie in try context.fetch(birds) {
            out("  " + line(movie))
        }

        let billion = try context.fetchCount(FetchDescriptor<PixarMovie>(predicate: #Predicate { $0.boxOfficeMillions >= 1000 }))
        out()
        out("Films past a billion: \(billion).")
        out("Films of the 2000s, by title, skipping the first two:")
        var decade = FetchDescriptor<PixarMovie>(predicate: #Predicate { $0.releaseYear >= 2000 && $0.releaseYear < 2010 }, sortBy: [SortDescriptor(\.title)])
        decade.fetchOffset = 2
        for movie in try context.fetch(decade) { out("  " + line(movie)) }
    }

    static func line(_ movie: PixarMovie) -> String {
        "\(movie.title) (\(movie.releaseYear), \(movie.director)) " + String(format: "$%.1fM", movie.boxOfficeMillions)
    }
}
