import Dispatch
import Foundation
import Strata
import StrataConformance
import Synchronization
import Testing

/// The suite's entry point for an outside test target works whatever order and parallelism the test
/// runner uses: every case runs exactly once per factory, and a flaw is reported whoever ran the case.
struct EveryCaseRanTests {
    /// A count shared with a factory's clean-up closure.
    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A factory for the broken backend `Flaw` that counts the case directories it cleans up (one or
    /// more per case run, the same number every time a case runs).
    static func counting<Flaw: StoreFlaw>(_: Flaw.Type, _ cleaned: Counter) -> StoreFactory<BrokenStore<Flaw>> {
        StoreFactory<BrokenStore<Flaw>>(configuration: { dir, schema in BrokenConfiguration(name: dir.path, schema: schema) }, destroy: { dir in
            try? FileManager.default.removeItem(at: dir)
            cleaned.add()
        })
    }

    @Test func runsTheCasesNoTestRanAndReportsTheirFailures() {
        let cleaned = Counter()
        let factory = Self.counting(NoCascade.self, cleaned)
        // A test runner that ran only some cases, then the check.
        for c in ConformanceSuite.cases.prefix(5) { _ = try? ConformanceSuite.expect(c, passesOn: factory) }
        #expect {
            try ConformanceSuite.expectEveryCaseRan(on: factory)
        } throws: { error in
            "\(error)".contains("deleteRules.cascade-deletes-targets") && "\(error)".contains("cases no test had run")
        }
        let once = cleaned.value
        // Asked again, nothing runs again (every case has its result) and nothing is reported twice.
        #expect(throws: Never.self) { try ConformanceSuite.expectEveryCaseRan(on: factory) }
        for c in ConformanceSuite.cases { _ = try? ConformanceSuite.expect(c, passesOn: factory) }
        #expect(cleaned.value == once)
    }

    @Test func parallelCasesAndCheckRunEachCaseOnceAndReportTheFlaw() {
        // How many directories one serial run of every case cleans up.
        let serialCount = Counter()
        let serial = Self.counting(NoCascade.self, serialCount)
        _ = ConformanceSuite.run(on: serial)
        // The same cases with the check and three workers running cases at once, as a parallel runner does.
        let cleaned = Counter()
        let factory = Self.counting(NoCascade.self, cleaned)
        let caught = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                // Fails only if it ran the flawed case itself; its worker reports it either way.
                _ = try? ConformanceSuite.expectEveryCaseRan(on: factory)
                return
            }
            for (i, c) in ConformanceSuite.cases.enumerated() where i % 3 == worker - 1 {
                do { try ConformanceSuite.expect(c, passesOn: factory) } catch let error as ConformanceError { caught.withLock { _ = $0.insert(error.caseID) } } catch {}
            }
        }
        #expect(cleaned.value == serialCount.value, "a case ran twice or not at all")
        // The flaw is reported under the case's own name whichever side ran it.
        #expect(caught.withLock { $0.contains("deleteRules.cascade-deletes-targets") })
    }
}
