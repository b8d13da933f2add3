import Foundation
import StrataModel
import Testing

/// `relationshipKeyPathsForPrefetching`: one store round trip per relationship for a whole result.
@Suite struct PrefetchTests {
    @Test func oneRoundTripPerRelationship() throws {
        let log = StoreCallLog()
        let store = try QueryStore(.counting(log))

        var descriptor = FetchDescriptor<QueryNote>()
        descriptor.relationshipKeyPathsForPrefetching = [\.folder, \.tags]
        let context = store.context()
        log.reset()
        let notes = try context.fetch(descriptor)
        #expect(log.all == ["fetch QueryNote", "fetch QueryFolder", "fetch QueryTag"])
        let folders = notes.map { $0.folder?.name }, tags = notes.map { $0.tags.map(\.name).sorted() }
        #expect(log.all.count == 3, "reading every folder and tag made no further store call: \(log.all)")
        #expect(folders == NoteRow.all.map(\.folder))
        #expect(tags == NoteRow.all.map { $0.tags.sorted() })

        // Without prefetching, the same reads go to the store object by object.
        let lazy = store.context()
        log.reset()
        let again = try lazy.fetch(FetchDescriptor<QueryNote>())
        _ = again.map { ($0.folder?.name, $0.tags.count) }
        #expect(log.all.count > 3, "lazy loading costs more round trips (\(log.all.count))")
    }

    @Test func prefetchNamesMustBeRelationships() throws {
        let store = try QueryStore(ModelBackend.all[0])
        var descriptor = FetchDescriptor<QueryNote>()
        descriptor.relationshipKeyPathsForPrefetching = [\.title]
        #expect(throws: StrataError.self) { try store.context().fetch(descriptor) }
    }
}
