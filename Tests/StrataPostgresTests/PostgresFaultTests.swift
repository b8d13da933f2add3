import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataPostgres
import Synchronization
import Testing

/// The server going away in the middle of saves: stopped and restarted, or a connection dropped
/// (docs/formats/postgres.md, "Faults"). Each waits on what it observes (a worker's lines, pg_ctl
/// returning once the server is down or up, the server's lock table), never on time.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresFaultTests {
    static let tag = try! FixtureDomain.schema.requireEntity("Tag")

    static func tagRequest(_ name: String) throws -> SaveRequest<DefaultSnapshot> {
        SaveRequest(inserted: [try DefaultSnapshot.inserting(tag, values: ["name": .string(name)])])
    }

    @Test("the server stopped and restarted under a stream of saves: acknowledged saves kept, storeUnavailable while down, reconnects by itself",
          arguments: ["fast", "immediate"])
    func serverStoppedAndRestarted(mode: String) async throws {
        try await onOwnThread {
            let cluster = try PostgresPrivateCluster()
            defer { cluster.remove() }
            let directory = PostgresWorker.storeDirectory()
            // This process over TCP with the password, the worker over the socket.
            let configuration = PostgresStoreConfiguration(url: cluster.tcpURL, schema: FixtureDomain.schema, namespace: PostgresWorker.namespace(directory))
            try PostgresWorker.prepare(directory: directory, url: cluster.url)
            let store = try PostgresStore(configuration)
            let worker = try PostgresWorker(directory: directory, url: cluster.url, worker: 0, saves: 300, seed: 5, toleratesUnavailable: true)
            try #require(worker.read { $0 == "ready" })
            worker.send("go")
            var seen = 0
            try #require(worker.read { _ in seen += 1; return seen == 100 }, "the worker stopped before 100 saves")

            try cluster.pause(mode)
            // The worker's save in flight (or its next one) fails; it says so and waits.
            try #require(worker.read { $0.hasPrefix("unavailable ") }, "the worker never saw the server go")
            // Here too: a clear error with PostgreSQL's own code, and no password in any of its text.
            for failure in [
                #expect(throws: StrataError.self) { try store.save(try Self.tagRequest("while-down")) },
                #expect(throws: StrataError.self) { try store.fetch(FetchDescriptor(entity: "Tag")) },
            ] {
                let error = try #require(failure)
                #expect(error.code == .storeUnavailable)
                #expect(error.native?.domain == .postgres)
                let text = "\(error) \(error.message) \(error.native?.message ?? "")"
                let leaked = text.contains(cluster.password)
                #expect(leaked == false, "the password shows: \(text)")
            }

            try cluster.resume()
            // Back: the next save and fetch succeed without reopening anything.
            _ = try store.save(try Self.tagRequest("after-restart"))
            #expect(try store.fetchCount(FetchDescriptor(entity: "Tag", predicate: .compare("name", .equal, .string("after-restart")))) == 1)
            let resumedAt = worker.lines.count
            worker.send("go")
            #expect(worker.finish() == 0)
            #expect(worker.lines.last == "done 300")
            #expect(worker.lines.filter { $0.hasPrefix("unavailable ") }.count == 1, "a save failed after the server was back: \(worker.lines[resumedAt...].filter { $0.hasPrefix("unavailable") })")
            #expect(try store.fetchCount(FetchDescriptor(entity: "Tag", predicate: .compare("name", .equal, .string("while-down")))) == 0)
            let problems = try ConcurrentWorkload.check(store, lines: [worker.lines])
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }

    @Test("connections terminated by the server under two writing processes: acknowledged saves kept, the rest all or nothing")
    func connectionsTerminated() async throws {
        try await onOwnThread {
            let cluster = try PostgresPrivateCluster()
            defer { cluster.remove() }
            let directory = PostgresWorker.storeDirectory()
            let configuration = PostgresStoreConfiguration(url: cluster.url, schema: FixtureDomain.schema, namespace: PostgresWorker.namespace(directory))
            try PostgresWorker.prepare(directory: directory, url: cluster.url)
            let workers = try (0..<2).map { try PostgresWorker(directory: directory, url: cluster.url, worker: $0, saves: 200, seed: 9, toleratesUnavailable: true) }
            for worker in workers { try #require(worker.read { $0 == "ready" }) }
            for worker in workers { worker.send("go") }
            // Each worker goes on after a dropped save. Five times, every 30 of worker 0's lines, every
            // client connection but psql's own is terminated (pg_terminate_backend waits until it is gone).
            let terminate = "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            let statuses = Mutex<[Int32]>([-1, -1]), terminated = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 2) { n in
                let worker = workers[n]
                var count = 0
                while let line = worker.next() {
                    if line.hasPrefix("unavailable ") { worker.send("go") }
                    count += 1
                    if n == 0, count % 30 == 0, count <= 150 { terminated.add(Int((try? cluster.psql(terminate)) ?? "") ?? 0, ordering: .relaxed) }
                }
                worker.process.waitUntilExit()
                statuses.withLock { $0[n] = worker.process.terminationStatus }
            }
            #expect(statuses.withLock { $0 } == [0, 0])
            #expect(terminated.load(ordering: .relaxed) >= 5, "connections terminated: \(terminated.load(ordering: .relaxed))")
            for worker in workers { #expect(worker.lines.last == "done 200") }
            let problems = try ConcurrentWorkload.check(try PostgresStore(configuration), lines: workers.map(\.lines))
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }

    @Test("a connection terminated inside a save: storeUnavailable, nothing of the save kept, the next save reconnects")
    func connectionTerminatedMidSave() throws {
        let namespace = "terminated-\(UUID().uuidString)"
        let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: FixtureDomain.schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        _ = try store.save(try Self.tagRequest("first"))
        let killer = Box(try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!)))
        try PostgresCatalog.use(namespace, on: killer.value)
        let key = killer.value.writeLockKey
        let once = Atomic<Int>(0)
        // Inside the save's transaction, with the write lock held: the backend holding that lock
        // (the save's own) is terminated, and gone before the save goes on.
        store.afterWriteLock.withLock {
            $0 = {
                guard once.add(1, ordering: .relaxed).newValue == 1 else { return }
                _ = try? killer.value.query(
                    "SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::int8 = $1 AND objid::int8 = $2 AND objsubid = 1",
                    [.integer(key >> 32 & 0xFFFF_FFFF), .integer(key & 0xFFFF_FFFF)])
            }
        }
        let error = try #require(throws: StrataError.self) { try store.save(try Self.tagRequest("lost")) }
        #expect(error.code == .storeUnavailable, "\(error)")
        #expect(error.native?.domain == .postgres)
        #expect(try store.fetchCount(FetchDescriptor(entity: "Tag", predicate: .compare("name", .equal, .string("lost")))) == 0)
        _ = try store.save(try Self.tagRequest("second"))
        #expect(try store.fetch(FetchDescriptor(entity: "Tag", sortBy: [SortKey("name")])).map { $0["name"] } == [.string("first"), .string("second")])
    }
}
