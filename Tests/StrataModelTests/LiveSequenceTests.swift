import Foundation
import StrataMemory
import StrataModel
import Testing

/// Live sequences follow saves they did not make: another container's on the same store (so only
/// the store's files, watched with inotify, or PostgreSQL's notifications can wake them; the memory
/// backend, which has neither, follows its own container's saves). Every wait is for an observed
/// commit, never a sleep.
@Suite struct LiveSequenceTests {
    typealias Recording = HistoryTests.Recording

    /// The follower's container and the writer's: two on one store where another container's
    /// commits can wake the follower (`WatchableStore`: every persistent backend), else one (the
    /// memory backend: nothing wakes another container).
    static func containers(_ backend: Recording, _ dir: URL) throws -> (follower: ModelContainer, writer: ModelContainer) {
        let follower = try backend.open(dir)
        return (follower, backend.name == "memory" ? follower : try backend.open(dir))
    }

    @Test(arguments: Recording.all) func historyTransactionsFollowAnotherContainersSaves(_ backend: Recording) async throws {
        let dir = try HistoryTests.directory(backend.name)
        defer { try? FileManager.default.removeItem(at: dir); MemoryStore.destroy(name: dir.path) }
        let (follower, writer) = try Self.containers(backend, dir)
        let desk = ModelContext(writer)
        desk.author = "desk"
        desk.insert(HistoryTests.trip("before"))
        try desk.save()
        let token = try #require(try desk.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)
        var transactions = follower.historyTransactions(after: token, authors: ["desk"]).makeAsyncIterator()
        let other = ModelContext(writer)
        other.author = "other"
        var previous = token
        for n in 0..<4 {
            // Saved after the sequence started: each must arrive by a wake-up, in order, and the
            // other author's transaction in between is skipped.
            other.insert(HistoryTests.trip("other \(n)"))
            try other.save()
            desk.insert(HistoryTests.trip("desk \(n)"))
            try desk.save()
            let transaction = try #require(try await transactions.next())
            #expect(transaction.author == "desk" && transaction.token > previous, "\(backend): \(transaction)")
            #expect(transaction.storeTransaction.changes.map(\.kind) == [.insert])
            previous = transaction.token
        }
        #expect(previous.id - token.id == 8, "four of ours and four of the other author's, nothing lost")
    }

    @Test(arguments: Recording.all) func liveResultsFollowInsertsUpdatesAndDeletes(_ backend: Recording) async throws {
        let dir = try HistoryTests.directory(backend.name)
        defer { try? FileManager.default.removeItem(at: dir); MemoryStore.destroy(name: dir.path) }
        let (follower, writer) = try Self.containers(backend, dir)
        let reader = ModelContext(follower)
        let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.destination == "Italy" }, sortBy: [SortDescriptor(\.name)])
        var results = reader.liveResults(descriptor).makeAsyncIterator()
        #expect(try await results.next()?.map(\.name) == [], "the current results first")

        let desk = ModelContext(writer)
        let rome = Trip(name: "Rome", destination: "Italy", startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 1))
        desk.insert(rome)
        desk.insert(Trip(name: "Oslo", destination: "Norway", startDate: Date(timeIntervalSince1970: 0), endDate: Date(timeIntervalSince1970: 1)))
        try desk.save()
        #expect(try await results.next()?.map(\.name) == ["Rome"], "\(backend)")

        // A save that does not change the results yields nothing; the next one that does is next.
        let oslo = try #require(try desk.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Oslo" })).first)
        oslo.endDate = Date(timeIntervalSince1970: 2)
        try desk.save()
        rome.endDate = Date(timeIntervalSince1970: 5)
        try desk.save()
        let updated = try #require(try await results.next())
        #expect(updated.map(\.name) == ["Rome"] && updated.first?.endDate == Date(timeIntervalSince1970: 5), "a stored value of a result changed")

        oslo.destination = "Italy"
        try desk.save()
        #expect(try await results.next()?.map(\.name) == ["Oslo", "Rome"], "sorted")
        desk.delete(rome)
        try desk.save()
        #expect(try await results.next()?.map(\.name) == ["Oslo"])
    }

    /// A read-only container beside the writer (it shares no lock with it, so only the store's
    /// files tell it about the writer's commits; a file store's fetch looks at them at most every
    /// 5 ms): each commit right after the sequence's read must still arrive. Without
    /// `lookForCommits` on each wake-up, a commit whose wake-up came within 5 ms of that read was
    /// fetched as the old results and the sequence waited for a commit that never came (the time
    /// limit, a guard against a hang and not a measure: generous for a loaded machine, then ends
    /// the test as a failure).
    @Test(.timeLimit(.minutes(10)), arguments: Recording.all.filter { $0.name != "memory" })
    func liveResultsSeeACommitRightAfterTheirRead(_ backend: Recording) async throws {
        let dir = try HistoryTests.directory(backend.name)
        defer { try? FileManager.default.removeItem(at: dir) }
        let writer = try backend.open(dir)
        let desk = ModelContext(writer)
        desk.insert(HistoryTests.trip("t0"))
        try desk.save()
        let reader = ModelContext(try backend.openReadOnly(dir))
        var results = reader.liveResults(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])).makeAsyncIterator()
        #expect(try await results.next()?.count == 1, "the current results first")
        for n in 1...20 {
            desk.insert(HistoryTests.trip("t\(n)"))
            try desk.save()
            let current = try #require(try await results.next(), "\(backend): commit \(n) never arrived")
            #expect(current.count == n + 1, "\(backend): commit \(n)")
        }
    }
}
