/// The speed goals set against each backend's raw engine (docs/benchmarks.md, "Where the goals
/// stand"): backend → step → the least relative speed (`WorkloadReport.relativeSpeed`) asked for.
/// `strata bench --baseline` prints each one beside its ratio, met or not.
public enum WorkloadGoals {
    /// The goals: SQLite's and the memory backend's insert from the performance issue, LMDB's and
    /// the memory backend's fetch-by-id from the peers issue (31).
    public static let relativeSpeed: [String: [String: Double]] = [
        "sqlite": ["insert": 0.75, "fetch-by-id": 0.6, "scan": 0.6, "update-one": 0.5],
        "lmdb": ["insert": 0.6, "fetch-by-id": 0.6, "scan": 0.5],
        "memory": ["insert": 0.4, "fetch-by-id": 0.8],
    ]

    /// The peers issue's (31) goal for Strata's model layer against GRDB's hand-written records, in the
    /// same run (`make peers`): at least as fast (model speed ÷ GRDB speed, each against raw C).
    public static let modelOverGRDB = 1.0
    /// The steps `modelOverGRDB` is set for.
    public static let modelOverGRDBSteps = ["insert", "fetch-by-id", "scan", "filter", "update-one", "update-batch", "cascade-delete"]
    /// The peers issue's goal for the model layer's full fetch against raw C on SQLite, same run.
    public static let modelScanOfC = 0.6

    /// The goal of `step` on `backend`, if one is set.
    public static func goal(_ backend: String, _ step: String) -> Double? { relativeSpeed[backend]?[step] }
}
