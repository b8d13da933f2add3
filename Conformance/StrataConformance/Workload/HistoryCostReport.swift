import Foundation
import Strata

/// What recording history costs a backend, measured in one run: the standard workload run in
/// rounds, each round once with history off and once with it on, and each step's cost as the median
/// of the rounds' ratios (`strata bench --history-cost`).
///
/// A round's two runs are minutes or less apart, and which of them runs first alternates, so a
/// machine's load drifting during the run moves both sides of most ratios alike. The median of the
/// per-round ratios is the figure to quote, not the ratio of the two medians.
public struct HistoryCostReport: Sendable, Codable {
    /// The steps whose cost the history issue bounds, and the bound: with history on they may take
    /// at most this many times their time with it off.
    public static let limits: [String: Double] = ["insert": 1.3, "update-one": 1.3]

    /// The backend's name.
    public var backend: String
    /// N, the number of items.
    public var records: Int
    /// How many rounds ran (each one run with history off and one with it on).
    public var rounds: Int
    /// What an acknowledged save survived in these runs; absent for the memory backend.
    public var durability: SaveDurability?
    /// The step names in workload order.
    public var order: [String]
    /// Each step's median figure with history off.
    public var off: [String: WorkloadReport.Figure]
    /// Each step's median figure with history on.
    public var on: [String: WorkloadReport.Figure]
    /// Each step's cost: the median over the rounds of (time with history) ÷ (time without),
    /// so 1.25 means history made the step take a quarter longer. Rates are turned into times
    /// (off ÷ on); sizes compare as they are (on ÷ off).
    public var cost: [String: Double]

    /// The comparison of `off[i]` with `on[i]`, round by round (the two lists pair up by index).
    public init(off: [WorkloadReport], on: [WorkloadReport]) {
        precondition(!off.isEmpty && off.count == on.count, "a round is one run without history and one with it")
        let first = off[0]
        backend = first.backend
        records = first.records
        rounds = off.count
        durability = first.durability
        order = first.order
        self.off = WorkloadReport.medianFigures(off.map(\.steps))
        self.on = WorkloadReport.medianFigures(on.map(\.steps))
        var cost: [String: Double] = [:]
        for step in first.order {
            let ratios = zip(off, on).compactMap { Self.cost(without: $0.steps[step], with: $1.steps[step]) }
            if ratios.count == off.count { cost[step] = WorkloadTiming.median(ratios) }
        }
        self.cost = cost
    }

    /// One round's cost of a step: how many times longer (or larger) it was with history.
    static func cost(without: WorkloadReport.Figure?, with: WorkloadReport.Figure?) -> Double? {
        guard let without, let with, without.value > 0, with.value > 0, without.unit == with.unit else { return nil }
        return without.unit.hasSuffix("/s") ? without.value / with.value : with.value / without.value
    }

    /// A plain-text table: each step's medians off and on, its cost, and for the bounded steps
    /// whether the cost is within its limit.
    public var table: String {
        var lines = [
            "\(backend) — what recording history costs, N = \(records), \(rounds) round\(rounds == 1 ? "" : "s") "
                + "(history off and on in each, alternating which runs first), durability: "
                + (durability.map(\.rawValue) ?? "none (in memory)"),
            "cost: the median over the rounds of the step's time with history ÷ its time without (sizes: with ÷ without)",
            "",
        ]
        let width = (order.map(\.count).max() ?? 4) + 2
        lines.append("step".padding(toLength: width, withPad: " ", startingAt: 0) + "off".leftPadded(14) + "on".leftPadded(14) + "  " + "unit".padding(toLength: 12, withPad: " ", startingAt: 0) + "  cost")
        for name in order {
            guard let without = off[name], let with = on[name], let ratio = cost[name] else { continue }
            var line = name.padding(toLength: width, withPad: " ", startingAt: 0) + Self.format(without.value).leftPadded(14) + Self.format(with.value).leftPadded(14)
                + "  " + without.unit.padding(toLength: 12, withPad: " ", startingAt: 0) + "  ×" + String(format: "%.2f", ratio)
            if let limit = Self.limits[name] {
                line += "   limit ×" + String(format: "%.2f", limit) + (ratio <= limit ? " met" : " not met")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static func format(_ v: Double) -> String {
        v >= 100 ? String(format: "%.0f", v) : String(format: "%.3f", v)
    }
}
