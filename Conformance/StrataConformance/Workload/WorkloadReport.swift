import Foundation

/// The figures of one workload run, in the order of `shared/WORKLOAD.md`.
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

    /// The machine a run happened on.
    public struct Machine: Sendable, Codable {
        /// Active processor cores.
        public var cores: Int
        /// Physical memory in bytes.
        public var memoryBytes: UInt64
    }

    /// A plain-text table: step, value, unit, and with a baseline, its value and the ratio
    /// backend / raw engine (above 1 is better for rates, below 1 for times and sizes).
    public var table: String {
        var lines = ["\(backend) — standard workload, N = \(records)" + (baseline == nil ? "" : " (baseline: the raw C engine, same data, same run)"), ""]
        let width = (order.map(\.count).max() ?? 4) + 2
        for name in order {
            guard let f = steps[name] else { continue }
            var line = name.padding(toLength: width, withPad: " ", startingAt: 0) + format(f.value).leftPadded(14) + "  " + f.unit.padding(toLength: 12, withPad: " ", startingAt: 0)
            if let b = baseline?[name], b.value > 0 {
                line += "  raw " + format(b.value).leftPadded(12) + "   ratio " + String(format: "%.2f", f.value / b.value)
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

/// The version the tools report.
public enum StrataVersion {
    /// Semantic version of this package.
    public static let current = "0.1.0"
}
