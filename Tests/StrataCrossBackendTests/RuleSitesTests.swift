import Foundation
import StrataTestSupport
import Testing

/// Issue 24: no error message is written at two places in Sources/ or Backends/ unless
/// Conformance/RuleSites/allowed-repeats.txt says why (`make rule-sites`; docs/architecture.md,
/// "The check as a command").
struct RuleSitesTests {
    @Test func noErrorMessageIsWrittenTwice() throws {
        let script = BuiltProducts.root.appendingPathComponent("Conformance/RuleSites/rule-sites.py")
        let run = try ChildProcess.run(ChildProcess.onPath("python3"), [script.path])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.output.contains("| `uniqueConstraintViolation` |"), "the table lacks the codes: \(run.output)")
    }
}
