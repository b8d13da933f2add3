import Foundation
import Strata
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
/// @Suite(.serialized) struct Conformance {  // serialized: everyCaseRan, declared last, runs last
///     @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
///         if let skip = try ConformanceSuite.expect(c, passesOn: factory) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
///     }
///     @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: factory) }
/// }
/// ```
///
/// A skipped case is recorded as a warning naming the missing capability, so it never reads as a
/// silent pass; a required case cannot be skipped and fails instead.
public enum ConformanceSuite {
    /// Every registered case, in report order. The single registry: nothing runs that is not here.
    public static let cases: [ConformanceCase] = {
        let all = identifierCases + roundTripCases + persistenceCases + relationshipCases + deleteRuleCases
            + uniqueCases + atomicityCases + fetchCases + badInputCases + concurrencyCases + partialUpdateCases
            + saveInteractionCases + faultOrderCases + textCases + orderingCases
            + toManyCases + comparatorCases + requestShapeCases + predicateSemanticsCases + pointLookupCases + selfInverseCases
        // Grouped by category in report order; within a category, in registration order.
        return ConformanceCategory.allCases.flatMap { category in all.filter { $0.category == category } }
    }()

    /// Runs one case on a fresh location and returns its structured result.
    public static func run<Store: DataStore>(_ testCase: ConformanceCase, on factory: StoreFactory<Store>) -> ConformanceResult {
        let start = ContinuousClock.now
        let outcome = outcome(of: testCase, on: factory)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        Ledger.record(testCase.id, for: "\(Store.self)")
        return ConformanceResult(caseID: testCase.id, category: testCase.category, isRequired: testCase.isRequired, outcome: outcome, duration: seconds)
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
    public static func expect<Store: DataStore>(_ testCase: ConformanceCase, passesOn factory: StoreFactory<Store>) throws -> String? {
        let result = run(testCase, on: factory)
        switch result.outcome {
        case .passed: return nil
        case .skipped(let reason): return reason
        case .failed(let message): throw ConformanceError(caseID: testCase.id, message: message)
        }
    }

    /// Checks that every registered case has run against `Store` in this process and throws, naming
    /// them, if some have not. It only checks: it never runs a case itself, so a failure is reported
    /// once, under the case's own name. (A test runner that runs the cases in parallel with this
    /// check should make it depend on them, e.g. with a serialized suite or by calling it last.)
    public static func expectEveryCaseRan<Store: DataStore>(on factory: StoreFactory<Store>) throws {
        _ = factory
        let missing = cases.filter { !Ledger.hasRun($0.id, for: "\(Store.self)") }
        if !missing.isEmpty {
            throw ConformanceError(caseID: "suite", message: "Registered cases that never ran: \(missing.map(\.id).joined(separator: ", "))")
        }
    }

    private static func outcome<Store: DataStore>(of testCase: ConformanceCase, on factory: StoreFactory<Store>) -> ConformanceOutcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-conformance-\(UUID().uuidString)")
        var context: CaseContext?
        defer {
            context?.close()
            for dir in [directory] + (context?.otherDirectories ?? []) { factory.destroy(dir) }
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let ctx = try CaseContext(directory: directory) { dir, schema in
                StoreBox(try Store(factory.configuration(dir, schema)))
            }
            context = ctx
            let missing = testCase.requires.subtracting(ctx.store.capabilities)
            if !missing.isEmpty {
                let reason = "the backend does not declare \(missing.names.joined(separator: ", "))"
                return testCase.isRequired ? .failed("Required case, cannot be skipped: \(reason).") : .skipped(reason)
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

/// Which cases have run against which store type in this process.
enum Ledger {
    private static let ran = Mutex<[String: Set<String>]>([:])
    static func record(_ id: String, for store: String) { ran.withLock { _ = $0[store, default: []].insert(id) } }
    static func hasRun(_ id: String, for store: String) -> Bool { ran.withLock { $0[store]?.contains(id) ?? false } }
}
