import Foundation
import StrataModel
import Testing

/// Constructs with no store translation fail loudly, by name, before the store is asked anything.
@Suite struct PredicateRefusalTests {
    static let refused: [(predicate: Predicate<QueryNote>, names: String)] = [
        (#Predicate { $0.views + 1 > 5 }, "arithmetic"),
        (#Predicate { $0.views % 2 == 0 }, "remainder"),
        (#Predicate { $0.title.count > 3 }, "'title'"),
        (#Predicate { $0.scratch > 0 }, "not persisted"),
        (#Predicate { $0.title.contains($0.body) }, "must be a value"),
        (#Predicate { $0.tags.first?.name == "urgent" }, "'tags'"),
        (#Predicate { note in note.tags.contains { $0.name == note.title } }, "enclosing object"),
    ]

    @Test func untranslatableConstructsThrowBeforeAnyStoreWork() throws {
        let log = StoreCallLog()
        let store = try QueryStore(.counting(log))
        let context = store.context()
        for (predicate, names) in Self.refused {
            log.reset()
            let descriptor = FetchDescriptor(predicate: predicate)
            for attempt in 0..<4 {
                do {
                    switch attempt {
                    case 0: _ = try context.fetch(descriptor)
                    case 1: _ = try context.fetchCount(descriptor)
                    case 2: _ = try context.fetchIdentifiers(descriptor)
                    default: try context.delete(model: QueryNote.self, where: predicate)
                    }
                    Issue.record("refused construct '\(names)' was accepted (attempt \(attempt))")
                } catch let error as StrataError {
                    #expect(error.code == .unsupportedPredicate, "\(names): \(error)")
                    #expect(error.message.contains(names), "the message names the construct: \(error.message)")
                }
            }
            #expect(log.all.isEmpty, "\(names): no store call before the refusal, got \(log.all)")
        }
        #expect(try context.fetchCount(FetchDescriptor<QueryNote>()) == NoteRow.all.count, "nothing was deleted")
    }
}
