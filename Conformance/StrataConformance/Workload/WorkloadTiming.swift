/// How the workloads time their steps, shared by the store-level workload (`StandardWorkload`) and
/// the model-level one (`strata-model-bench`), so both levels of a comparison are timed and
/// summarized by the same code.
public enum WorkloadTiming {
    /// Runs `body` — inside `bracket` for `step` when one is given, so an instruction counter sees
    /// exactly that work — and returns its value with the wall seconds it took.
    public static func time<T>(_ step: String, _ bracket: StandardWorkload.StepBracket?, _ body: () throws -> T) throws -> (T, Double) {
        var value: T?
        let start = ContinuousClock.now
        if let bracket { try bracket(step) { value = try body() } } else { value = try body() }
        return (value!, seconds(since: start))
    }

    /// Seconds elapsed since `start`.
    public static func seconds(since start: ContinuousClock.Instant) -> Double {
        seconds(ContinuousClock.now - start)
    }

    /// A duration in seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The median of `values` (the mean of the middle two for an even count); `values` must not be empty.
    public static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "no values to take the median of")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
