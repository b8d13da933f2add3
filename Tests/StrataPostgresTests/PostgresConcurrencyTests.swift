import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataPostgres
import Synchronization
import Testing

/// Several processes saving into one store on one server, and the retry of a save the server
/// aborted (docs/formats/postgres.md, "Many processes" and "Isolation, retries").
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresConcurrencyTests {
    /// Runs one process of `saves` random saves per URL (worker w connecting to `urls[w]`, started
    /// through `launchers[w]` if given) on the store of a new folder, all let go at once when every
    /// one is ready; then checks the store (over `checkURL`) against every line they printed.
    static func runWorkers(urls: [String], checkURL: String, saves: Int, seed: UInt64, launchers: [[String]] = []) throws -> [PostgresWorker] {
        let workers = urls.count
        let directory = PostgresWorker.storeDirectory()
        let configuration = PostgresStoreConfiguration(url: checkURL, schema: FixtureDomain.schema, namespace: PostgresWorker.namespace(directory))
        defer { try? PostgresStore.dropStore(configuration) }
        try PostgresWorker.prepare(directory: directory, url: checkURL)
        let started = try (0..<workers).map { w in
            try PostgresWorker(directory: directory, url: urls[w], worker: w, saves: saves, seed: seed, launcher: launchers.indices.contains(w) ? launchers[w] : [])
        }
        // Every process has opened the store before any saves: they start together.
        for worker in started { try #require(worker.read { $0 == "ready" }, "a worker never got ready") }
        for worker in started { worker.send("go") }
        let statuses = Mutex<[Int32]>(Array(repeating: -1, count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let status = started[w].finish()
            statuses.withLock { $0[w] = status }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 0, count: workers))
        for worker in started { #expect(worker.lines.last == "done \(saves)") }
        let store = try PostgresStore(configuration)
        let problems = try ConcurrentWorkload.check(store, lines: started.map(\.lines))
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        return started
    }

    /// Saves per process: 150 in `make test`, where the run still collides on unique names and on
    /// the contested counter and closes libraries (the test checks it did); 4 × 500 took minutes of
    /// a loaded 2-core machine. The issue's 4 × 2,000 is `make soak` (`STRATA_PG_WORKER_SAVES=2000`,
    /// docs/formats/postgres.md).
    static let savesPerWorker = ProcessInfo.processInfo.environment["STRATA_PG_WORKER_SAVES"].flatMap(Int.init) ?? 150

    @Test("4 processes × 150 (or STRATA_PG_WORKER_SAVES) random saves on one store: every acknowledged save is there, every invariant holds")
    func fourProcesses() async throws {
        try await onOwnThread {
            let workers = try Self.runWorkers(urls: Array(repeating: PostgresTestServer.url!, count: 4), checkURL: PostgresTestServer.url!, saves: Self.savesPerWorker, seed: 28)
            let lines = workers.flatMap(\.lines)
            func count(_ prefix: String) -> Int { lines.filter { $0.hasPrefix(prefix) }.count }
            // The run did what it is for: processes collided on unique names and on the contested
            // counter, deleted libraries others were adding books to, and still lost nothing.
            #expect(count("refused ") > 0, "no unique collision between processes")
            #expect(count("increment ") > 0 && count("property ") > 0 && count("close ") > 0 && count("library ") > 0)
            print("4 × \(Self.savesPerWorker) saves: \(count("tag ")) tags, \(count("library ")) libraries, \(count("book ")) adopted books, \(count("close ")) closed, \(count("refused ")) unique refusals, \(count("gone ")) adoptions refused (library deleted), \(count("increment ")) increments, \(count("conflict")) write conflicts")
        }
    }

    @Test("a save the server picks as a deadlock victim (40P01) is rolled back and run again, once")
    func deadlockVictimIsRetried() throws {
        let namespace = "deadlock-\(UUID().uuidString)"
        // The save's connections check for a deadlock 20 ms into a lock wait; the other
        // transaction's never does first, so the save is the victim whatever the timing.
        let url = PostgresTestServer.url! + "&options=-c%20deadlock_timeout%3D20ms"
        let configuration = PostgresStoreConfiguration(url: url, schema: FixtureDomain.schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let tag = try FixtureDomain.schema.requireEntity("Tag")
        let inserted = try store.save(SaveRequest(inserted: [try DefaultSnapshot.inserting(tag, values: ["name": "before"])]))
        let id = try #require(inserted.remappedIdentifiers.permanentIdentifiers.first)

        // Another application's transaction holds the tag's row…
        let other = Box(try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!)))
        try PostgresCatalog.use(namespace, on: other.value)
        try other.value.execute("BEGIN; SET LOCAL deadlock_timeout = '10min'")
        try other.value.query("SELECT 1 FROM \"Tag\" WHERE \"_pk\" = $1 FOR UPDATE", [.integer(id.primaryKey)])
        let otherPID = try other.value.query("SELECT pg_backend_pid()::int8").integer(0, 0) ?? 0
        let watcher = Box(try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!)))
        let otherDone = DispatchSemaphore(value: 0)
        let calls = Atomic<Int>(0), otherFinished = Atomic<Bool>(false)
        // …and, once the save holds the store's write lock (first attempt only), asks for that lock
        // too: it waits for the save, and the save will wait for its row.
        store.afterWriteLock.withLock {
            $0 = {
                guard calls.add(1, ordering: .relaxed).newValue == 1 else { return }
                DispatchQueue.global().async {
                    _ = try? other.value.query("SELECT pg_advisory_xact_lock($1)", [.integer(other.value.writeLockKey)])
                    try? other.value.execute("COMMIT")
                    otherFinished.store(true, ordering: .sequentiallyConsistent)
                    otherDone.signal()
                }
                // Observed: the other transaction is waiting for the advisory lock (or, should its
                // statement fail, it finished, and the test fails below instead of waiting).
                while !otherFinished.load(ordering: .sequentiallyConsistent),
                      (try? watcher.value.query("SELECT count(*) FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND NOT granted", [.integer(otherPID)]).integer(0, 0)) != 1 {}
            }
        }
        let renamed = try store.snapshot(for: id)!.updating(["name": "after"])
        _ = try store.save(SaveRequest(updated: [renamed]))
        otherDone.wait()
        #expect(calls.load(ordering: .relaxed) == 2, "the save ran twice: the deadlock victim, then the retry")
        #expect(store.retriedSaves.load(ordering: .relaxed) == 1)
        #expect(try store.snapshot(for: id)?["name"] == .string("after"))
    }
}

/// Hands a non-Sendable value to another thread that uses it alone.
final class Box<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
