import ExampleSupport
import Foundation
import StrataModel

/// The Books example: a unique name that fails loudly on a duplicate (no silent upsert), an
/// explicit upsert when that is what you want, and reviews deleted with their book.
public enum BooksExample {
    /// The model types.
    public static var models: [any PersistentModel.Type] { [Book.self] }

    /// Runs the example on a fresh store in `folder`, printing to `out`.
    public static func run(_ backend: ExampleBackend, folder: URL, out: ExampleOutput) throws {
        backend.destroy(folder)
        let context = ModelContext(try backend.container(for: models, in: folder))
        for book in seed() { context.insert(book) }
        try context.save()
        out("Books by name:")
        try list(context, out)

        // A second "Dune": the save fails, names the constraint, and changes nothing.
        context.insert(Book(name: "Dune", author: "Someone Else"))
        do {
            try context.save()
            out("A duplicate name was saved: this should not happen.")
        } catch let error as StrataError where error.code == .uniqueConstraintViolation {
            out()
            out("Inserting a second \"Dune\" failed: \(error.code.rawValue).")
            context.rollback()
        }
        out("Books after the failed save: \(try context.fetchCount(FetchDescriptor<Book>()))")

        // Upsert is explicit: the stored "Dune" gets the new author, no second record.
        let dune = try context.upsert(Book(name: "Dune", author: "Frank Herbert (1965)"))
        try context.save()
        out("Upserted \"Dune\": author now \(dune.author), \(dune.reviews.count) reviews kept, \(try context.fetchCount(FetchDescriptor<Book>())) books.")

        out()
        out("Reviews rated 4 or more, best first:")
        let best = FetchDescriptor<Review>(predicate: #Predicate { $0.rating >= 4 }, sortBy: [SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.subject)])
        for review in try context.fetch(best) {
            out("  \(review.rating)★ \(review.subject) — \(review.book?.name ?? "?")")
        }

        let neuromancer = try ExampleError.require(try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.name == "Neuromancer" })).first, "no Neuromancer")
        context.delete(neuromancer)
        try context.save()
        out()
        out("Deleted Neuromancer: \(try context.fetchCount(FetchDescriptor<Book>())) books, \(try context.fetchCount(FetchDescriptor<Review>())) reviews left.")
        try list(ModelContext(context.container), out)
    }

    /// Every book by name, with its reviews' count and average rating.
    static func list(_ context: ModelContext, _ out: ExampleOutput) throws {
        for book in try context.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.name)])) {
            let ratings = book.reviews.map(\.rating)
            let average = ratings.isEmpty ? "no reviews" : String(format: "%.1f average of %d reviews", Double(ratings.reduce(0, +)) / Double(ratings.count), ratings.count)
            out("  \(book.name) by \(book.author): \(average)")
        }
    }

    static func seed() -> [Book] {
        let dune = Book(name: "Dune", author: "Frank Herbert")
        dune.reviews = [
            Review(subject: "A desert epic", body: "Politics, ecology and sandworms.", rating: 5),
            Review(subject: "Slow start", body: "The first hundred pages drag.", rating: 3),
        ]
        let neuromancer = Book(name: "Neuromancer", author: "William Gibson")
        neuromancer.reviews = [
            Review(subject: "Cyberspace, named", body: "Dense and electric.", rating: 4),
            Review(subject: "Hard to follow", body: "Style over plot.", rating: 2),
            Review(subject: "Still sharp", body: "Aged better than expected.", rating: 4),
        ]
        let hobbit = Book(name: "The Hobbit", author: "J. R. R. Tolkien")
        hobbit.reviews = [Review(subject: "There and back again", body: "A perfect bedtime read.", rating: 5)]
        return [dune, neuromancer, hobbit]
    }
}
