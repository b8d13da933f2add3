import Foundation
import Strata
import Synchronization

extension ConformanceSuite {
    static let concurrencyCases: [ConformanceCase] = {
        let c = ConformanceCategory.concurrency.cases(requiring: .concurrentAccess)
        return [
            c("unique-race-one-winner", "Threads inserting the same unique value at once: exactly one save wins, the rest fail with uniqueConstraintViolation.") { ctx in
                for round in 0..<20 {
                    let store = ctx.store
                    let name = Value.string("race-\(round)")
                    let outcomes = Mutex<[String]>([])
                    DispatchQueue.concurrentPerform(iterations: 4) { _ in
                        let record = ctx.new("Tag", ["name": name])
                        let outcome: String
                        do {
                            _ = try store.save(inserted: [record], updated: [], deleted: [])
                            outcome = "won"
                        } catch let error as StrataError where error.code == .uniqueConstraintViolation {
                            outcome = "lost"
                        } catch {
                            outcome = "error: \(error)"
                        }
                        outcomes.withLock { $0.append(outcome) }
                    }
                    let all = outcomes.withLock { $0 }
                    try ctx.checkEqual(all.filter { $0 == "won" }.count, 1, "winners in round \(round) (\(all))")
                    try ctx.checkEqual(all.filter { $0 == "lost" }.count, 3, "unique failures in round \(round) (\(all))")
                    try ctx.checkEqual(try ctx.count("Tag", .compare("name", .equal, name)), 1, "tags named \(name)")
                }
            },
            c("readers-see-whole-saves", "Readers during large saves see the old or the new state, never a mix.") { ctx in
                let store = ctx.store
                let batch = 2_000
                let writerDone = Atomic<Bool>(false)
                let problems = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 3) { worker in
                    if worker == 0 {
                        for round in 0..<5 {
                            let records = (0..<batch).map { ctx.new("Sample", ["label": .string("r\(round)-\($0)"), "int": .int(Int64(round))]) }
                            do { _ = try store.save(inserted: records, updated: [], deleted: []) } catch {
                                problems.withLock { $0.append("writer failed: \(error)") }
                            }
                        }
                        writerDone.store(true, ordering: .releasing)
                    } else {
                        while !writerDone.load(ordering: .acquiring) {
                            do {
                                let n = try store.fetchCount(FetchDescriptor(entity: "Sample"))
                                if n % batch != 0 { problems.withLock { $0.append("a reader counted \(n) samples, not a multiple of \(batch)") } }
                                let rows = try store.fetch(FetchDescriptor(entity: "Sample", predicate: .compare("int", .equal, .int(Int64(n / batch - 1)))))
                                if n > 0 && rows.count != batch { problems.withLock { $0.append("a reader saw \(rows.count) rows of the last round, not \(batch)") } }
                            } catch {
                                problems.withLock { $0.append("reader failed: \(error)") }
                            }
                        }
                    }
                }
                let found = problems.withLock { $0 }
                try ctx.check(found.isEmpty, "Torn reads: \(found.prefix(3))")
                try ctx.checkEqual(try ctx.count("Sample"), 5 * batch, "samples at the end")
            },
            c("parallel-distinct-inserts", "Parallel saves of distinct records all succeed with distinct identifiers.") { ctx in
                let store = ctx.store
                let ids = Mutex<[PersistentIdentifier]>([])
                let failures = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { worker in
                    for i in 0..<25 {
                        let record = ctx.new("Sample", ["label": .string("w\(worker)-\(i)")])
                        do {
                            let result = try store.save(inserted: [record], updated: [], deleted: [])
                            ids.withLock { $0.append(contentsOf: result.remapped.permanentIdentifiers) }
                        } catch { failures.withLock { $0.append("\(error)") } }
                    }
                }
                try ctx.check(failures.withLock { $0.isEmpty }, "Saves failed: \(failures.withLock { $0.prefix(3) })")
                let all = ids.withLock { $0 }
                try ctx.checkEqual(Set(all).count, 200, "distinct identifiers")
                try ctx.checkEqual(try ctx.count("Sample"), 200, "samples")
            },
        ]
    }()
}
