import CStrataBaselines
import Foundation
import StrataConformance

/// The standard workload's timed steps, and the bracket that runs one of them inside the C function
/// `strata_measure`, so `valgrind --tool=callgrind --toggle-collect=strata_measure` counts exactly that
/// step (docs/benchmarks.md). Shared by `strata bench` and `strata-model-bench`.
public enum MeasuredStep {
    /// The steps in workload order (`size` and `peak-memory` are measured, not timed).
    public static let names = ["insert", "reopen", "fetch-by-id", "scan", "filter", "update-one", "update-batch", "unique-violation", "cascade-delete"]

    /// The `--step` value that runs every step inside `strata_measure`, each call announced on
    /// standard error as `strata-measure: <step>` first, so one callgrind run with
    /// `--dump-after=strata_measure` counts every step (`make perfcheck`).
    public static let all = "all"

    /// A bracket that runs the chosen step (every step for `all`) inside `strata_measure` and every
    /// other step plainly.
    public static func bracket(only chosen: String) -> StandardWorkload.StepBracket {
        { step, body in
            guard step == chosen || chosen == all else { return try body() }
            if chosen == all { FileHandle.standardError.write(Data("strata-measure: \(step)\n".utf8)) }
            try withoutActuallyEscaping(body) { body in
                let box = MeasuredBody(body)
                strata_measure({ context in
                    let box = Unmanaged<MeasuredBody>.fromOpaque(context!).takeUnretainedValue()
                    do { try box.body() } catch { box.error = error }
                }, Unmanaged.passUnretained(box).toOpaque())
                if let error = box.error { throw error }
            }
        }
    }
}

/// A step's work handed through C's `strata_measure`, with the error it threw, if any.
private final class MeasuredBody {
    let body: () throws -> Void
    var error: Error?
    init(_ body: @escaping () throws -> Void) { self.body = body }
}
