import Foundation
@_spi(StrataEngine) import Strata
import Synchronization

/// The conformance verifier: every case of the store contract, runnable against any backend.
///
/// It imports no test framework, so a test runner, the `strata` tool and a report can all call it.
///
/// A third party validates a backend with one test file:
///
/// ```swift
/// import Testing
/// import StrataConformance
/// import MyBackend
///
/// let factory = StoreFactory<MyStore> { dir, schema in MyConfiguration(url: dir, schema: schema) }
/// @Suite struct Conformance {
///     @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
///         if let skip = try ConformanceSuite.expect(c, passesOn: factory) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
///     }
///     @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: factory) }
/// }
/// ```
///
/// The two tests work in any order and with any parallelism: each case runs once per factory in a
/// process, by whichever of them reaches it first, and the other waits for that run's result
/// (`expect` reports it under the case's name; `expectEveryCaseRan` runs the cases no test has
/// started and fails if one of those fails). A `.serialized` suite is not needed.
///
/// A skipped case is recorded as a warning naming the missing capability, so it never reads as a
/// silent pass; a required case cannot be skipped and fails instead.
public enum ConformanceSuite {
    /// Every registered case, in report order. The single registry: nothing runs that is not here.
    public static let cases: [ConformanceCase] = {
        let all = identifierCases + roundTripCases + persistenceCases + relationshipCases + deleteRuleCases
            + uniqueCases + atomicityCases + fetchCases + badInputCases + concurrencyCases + partialUpdateCases
            + saveInteractionCases + faultOrderCases + textCases + orderingCases
            + toManyCases + comparatorCases + requestShapeCases + predicateSemanticsCases + pointLookupCases + selfInverseCases + migrationCases
            + historyCases
            + chosenKeyCases
            + indexRangeCases
        // Grouped by category in report order; within a category, in registration order.
        return ConformanceCategory.allCases.flatMap { category in all.filter { $0.category == category } }
    }()

    /// Runs one case on a fresh location and returns its structured result (every call runs it).
    public static func run<Store: DataStore>(_ testCase: ConformanceCase, on factory: StoreFactory<Store>) -> ConformanceResult {
        let start = ContinuousClock.now
        let outcome = outcome(of: testCase, on: factory)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ConformanceResult(caseID: testCase.id, category: testCase.category, isRequired: testCase.isRequired, outcome: outcome, duration: seconds)
    }

    /// The result of `testCase` on `factory` in this process: run now if no one has run it yet,
    /// else the earlier run's (waited for while it is still running). The second value says
    /// whether this call ran it.
    static func runOnce<Store: DataStore>(_ testCase: ConformanceCase, on factory: StoreFactory<Store>) -> (ConformanceResult, ranHere: Bool) {
        let (slot, claimed) = Ledger.claim(testCase.id, for: factory.ledgerKey)
        guard claimed else { return (slot.result(), false) }
        let result = run(testCase, on: factory)
        slot.finish(result)
        return (result, true)
    }

    /// Runs every case (or the given ones) and returns their results in registry order.
    public static func run<Store: DataStore>(on factory: StoreFactory<Store>, cases: [ConformanceCase] = cases) -> [ConformanceResult] {
        cases.map { run($0, on: factory) }
    }

    /// Runs one case and throws `ConformanceError` if it failed, so a test runner reports it; a skip
    /// is returned to the caller (which should report it as skipped, never as passed).
    ///
    /// - Returns: the skip reason, or `nil` if the case passed.
    @discardableResult
    ///
    /// A case runs once per factory in a process: if `expectEveryCaseRan` ran it already (or is
    /// running it), this returns or throws that run's result instead of running it again.
    public static func expect<Store: DataStore>(_ testCase: ConformanceCase, passesOn factory: StoreFactory<Store>) throws -> String? {
        let result = runOnce(testCase, on: factory).0
        switch result.outcome {
        case .passed: return nil
        case .skipped(let reason): return reason
        case .failed(let message): throw ConformanceError(caseID: testCase.id, message: message)
        }
    }

    /// Makes sure every registered case has run on `factory` in this process, whatever order or
    /// parallelism the test runner chose: a case that no test has started runs here, one that is
    /// running is waited for. Throws, naming them, if any case this call had to run failed (their
    /// own tests, if they run later, report the same result under the case's name); the cases that
    /// other tests ran are reported by those tests.
    public static func expectEveryCaseRan<Store: DataStore>(on factory: StoreFactory<Store>) throws {
        var failures: [String] = []
        var ranHere = 0
        for testCase in cases {
            let (result, here) = runOnce(testCase, on: factory)
            guard here else { continue }
            ranHere += 1
            if case .failed(let message) = result.outcome { failures.append("\(testCase.id): \(message)") }
        }
        if !failures.isEmpty {
            throw ConformanceError(
                caseID: "suite",
                message: "\(failures.count) of the \(ranHere) cases no test had run (run here, by expectEveryCaseRan) failed:\n" + failures.joined(separator: "\n"))
        }
    }

    private static func outcome<Store: DataStore>(of testCase: ConformanceCase, on factory: StoreFactory<Store>) -> ConformanceOutcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-conformance-\(UUID().uuidString)")
        var context: CaseContext?
        defer {
            context?.close()
            // The suite made these directories, so it removes them too, whatever `destroy` left
            // (a server or in-memory store keeps nothing in them; a factory's own `destroy` need
            // not delete the folder).
            for dir in [directory] + (context?.otherDirectories ?? []) {
                factory.destroy(dir)
                try? FileManager.default.removeItem(at: dir)
            }
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let ctx = try CaseContext(directory: directory) { dir, schema in
                var configuration = factory.configuration(dir, schema)
                if testCase.category == .history { configuration.recordsHistory = true }
                return StoreBox(try Store(configuration))
            }
            ctx.migrateAt = { dir, migration in try Store.migrateStore(factory.configuration(dir, migration.destination), migration) }
            ctx.recordedAt = { dir in try Store.recordedSchema(factory.configuration(dir, FixtureDomain.schema)) }
            if let atomic = Store.self as? any StateMigratable.Type {
                ctx.stagedMigrateAt = { dir, source, destination, rewrite in
                    try atomic.migrateStore(anyConfiguration: factory.configuration(dir, destination), from: source, to: destination, rewrite: rewrite)
                }
            }
            context = ctx
            let missing = testCase.requires.subtracting(ctx.store.capabilities)
            if !missing.isEmpty {
                let reason = "the backend does not declare \(missing.names.joined(separator: ", "))"
                let declared = testCase.declarable.isSuperset(of: missing)
                return testCase.isRequired && !declared ? .failed("Required case, cannot be skipped: \(reason).") : .skipped(reason)
            }
            try testCase.body(ctx)
            return .passed
        } catch let failure as CaseFailure {
            return .failed("Rule: \(testCase.rule)\n\(failure.message)")
        } catch {
            return .failed("Rule: \(testCase.rule)\nUnexpected error: \(error)")
        }
    }
}

/// A failed conformance case, as thrown to a test runner.
public struct ConformanceError: Error, CustomStringConvertible {
    /// The case id.
    public let caseID: String
    /// What the backend did wrong.
    public let message: String
    /// `case: message`.
    public var description: String { "\(caseID): \(message)" }
}

/// Which cases have run on which factory in this process, with their results: the first caller to
/// claim a case runs it, later callers wait for its result.
enum Ledger {
    private static let slots = Mutex<[String: CaseSlot]>([:])

    /// The slot of case `id` on factory `key`, and whether this call claimed it (and so must run the
    /// case and `finish` the slot).
    static func claim(_ id: String, for key: String) -> (CaseSlot, claimed: Bool) {
        slots.withLock { slots in
            if let slot = slots[key + "\u{0}" + id] { return (slot, false) }
            let slot = CaseSlot()
            slots[key + "\u{0}" + id] = slot
            return (slot, true)
        }
    }
}

/// One case's run on one factory: empty while the case runs, then its result. Waiting blocks the
/// thread until `finish` (a condition variable, woken by the run's end, never by time).
final class CaseSlot: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: ConformanceResult?

    /// Records the result and wakes every waiter.
    func finish(_ result: ConformanceResult) {
        condition.lock()
        stored = result
        condition.broadcast()
        condition.unlock()
    }

    /// The result, waiting for the run to finish if it has not.
    func result() -> ConformanceResult {
        condition.lock()
        defer { condition.unlock() }
        while stored == nil { condition.wait() }
        return stored!
    }
}
