import Foundation
import Strata

/// The figures of one workload run, in the order of `docs/workload.md`.
public struct WorkloadReport: Sendable, Codable {
    /// One measured figure.
    public struct Figure: Sendable, Codable {
        /// The number.
        public var value: Double
        /// Its unit (`records/s`, `ms`, `bytes`…).
        public var unit: String
        /// A figure.
        public init(value: Double, unit: String) {
            self.value = value
            self.unit = unit
        }
    }

    /// The backend's name.
    public var backend: String
    /// N, the number of items.
    public var records: Int
    /// Step name → figure.
    public var steps: [String: Figure]
    /// The step names in workload order, for tables.
    public var order: [String]
    /// The Strata version that ran it.
    public var version: String
    /// Cores and memory of the machine.
    public var machine: Machine
    /// The same steps on the raw engine, when a baseline ran.
    public var baseline: [String: Figure]?
    /// How many runs each figure is the median of (absent in reports of one run).
    public var runs: Int?
    /// What an acknowledged save survived in this run (the backend's and the baseline's level);
    /// absent for a store that keeps nothing past its process (the memory backend).
    public var durability: SaveDurability?

    /// A report; `runs` is set by `median(of:)`.
    public init(backend: String, records: Int, steps: [String: Figure], order: [String], version: String, machine: Machine, baseline: [String: Figure]?) {
        self.backend = backend
        self.records = records
        self.steps = steps
        self.order = order
        self.version = version
        self.machine = machine
        self.baseline = baseline
    }

    /// Each figure as the median of several runs of the same workload (the first run's metadata).
    /// Wall times on a shared machine move with its load; the median of runs measured in one
    /// session, with backend and baseline interleaved, is what ratios should be taken from.
    public static func median(of reports: [WorkloadReport]) -> WorkloadReport {
        precondition(!reports.isEmpty, "no runs to take the median of")
        var result = reports[0]
        result.steps = medianFigures(reports.map(\.steps))
        let baselines = reports.compactMap(\.baseline)
        result.baseline = baselines.isEmpty ? nil : medianFigures(baselines)
        result.runs = reports.count
        return result
    }

    /// Step by step, the median of the figures present in every run.
    public static func medianFigures(_ runs: [[String: Figure]]) -> [String: Figure] {
        guard let first = runs.first else { return [:] }
        var result: [String: Figure] = [:]
        for (step, figure) in first {
            let values = runs.compactMap { $0[step]?.value }
            guard values.count == runs.count else { continue }
            result[step] = Figure(value: WorkloadTiming.median(values), unit: figure.unit)
        }
        return result
    }

    /// How fast the backend is relative to the raw engine for `step` (1 = as fast; 0.5 = half the
    /// speed), whatever the unit: rates divide backend by raw, times raw by backend. Sizes: raw
    /// bytes / backend bytes. `nil` without a baseline figure.
    public func relativeSpeed(_ step: String) -> Double? {
        guard let f = steps[step], let b = baseline?[step], b.value > 0, f.value > 0 else { return nil }
        return f.unit.hasSuffix("/s") ? f.value / b.value : b.value / f.value
    }

    /// The machine a run happened on.
    public struct Machine: Sendable, Codable {
        /// Active processor cores.
        public var cores: Int
        /// Physical memory in bytes.
        public var memoryBytes: UInt64
        /// The machine this process runs on.
        public static var current: Machine {
            Machine(cores: ProcessInfo.processInfo.activeProcessorCount, memoryBytes: ProcessInfo.processInfo.physicalMemory)
        }
    }

    /// A plain-text table: step, value, unit, and with a baseline, its value and the backend's speed
    /// relative to it (`relativeSpeed`: above 1 is faster than the raw engine, below 1 slower; for
    /// `size`, raw bytes / backend bytes), and the step's goal (`WorkloadGoals`), met or not.
    public var table: String {
        var title = "\(backend) — standard workload, N = \(records)"
        if let runs, runs > 1 { title += ", medians of \(runs) runs" }
        title += ", durability: " + (durability.map(\.rawValue) ?? "none (in memory)")
        if baseline != nil { title += " (raw: the same steps on the engine or floor beneath it, same data, same run)" }
        var lines = [title, ""]
        let width = (order.map(\.count).max() ?? 4) + 2
        for name in order {
            guard let f = steps[name] else { continue }
            var line = name.padding(toLength: width, withPad: " ", startingAt: 0) + format(f.value).leftPadded(14) + "  " + f.unit.padding(toLength: 12, withPad: " ", startingAt: 0)
            if let b = baseline?[name], let speed = relativeSpeed(name) {
                line += "  raw " + format(b.value).leftPadded(12) + "   " + (name == "size" ? "raw/size " : "speed ×") + String(format: "%.2f", speed)
                if let goal = WorkloadGoals.goal(backend, name) {
                    line += "   goal ≥" + String(format: "%.2f", goal) + (speed >= goal ? " met" : " not met")
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ v: Double) -> String {
        v >= 100 ? String(format: "%.0f", v) : String(format: "%.3f", v)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
