import Foundation
import StrataConformance

/// One figure of one backend at one size, with its two ratios: to the best backend at that step and
/// size, and to the backend's own raw engine. Both are relative speeds (`WorkloadReport.relativeSpeed`):
/// 1 = as fast (or as small), 0.5 = half as fast (or twice the size), whatever the unit. A ratio that
/// cannot be taken (no baseline, a figure of 0) is `null` in JSON, never NaN.
struct ReportRatio: Encodable {
    var backend: String
    var step: String
    var records: Int
    var value: Double
    var unit: String
    /// The backend with the best figure at this step and size.
    var best: String?
    /// Relative speed to `best` (1 for the best itself).
    var toBest: Double?
    /// The raw engine's figure, when its baseline measured this step.
    var baseline: Double?
    /// Relative speed to the raw engine.
    var toBaseline: Double?
    /// What `toBaseline` compares, e.g. "reopen vs Foundation JSONSerialization parsing the same files".
    var comparedWith: String?

    /// Whether a larger figure is better: rates (`…/s`) are; times, bytes and MiB are not.
    static func higherIsBetter(_ unit: String) -> Bool { unit.hasSuffix("/s") }

    /// How fast `value` is relative to `reference` (1 = as fast), or nil when either is not positive.
    static func relative(_ value: Double, to reference: Double, unit: String) -> Double? {
        guard value > 0, reference > 0, value.isFinite, reference.isFinite else { return nil }
        return higherIsBetter(unit) ? value / reference : reference / value
    }

    /// The ratios of every figure of every backend.
    static func all(_ backends: [BackendReport]) -> [ReportRatio] {
        var ratios: [ReportRatio] = []
        for backend in backends {
            for workload in backend.workloads {
                for step in workload.order {
                    guard let figure = workload.steps[step] else { continue }
                    let rivals = backends.compactMap { b in b.workload(records: workload.records)?.steps[step].map { (b.name, $0.value) } }.filter { $0.1 > 0 }
                    let best = higherIsBetter(figure.unit) ? rivals.max { $0.1 < $1.1 } : rivals.min { $0.1 < $1.1 }
                    let raw = workload.baseline?[step]?.value
                    let toBaseline = raw.flatMap { relative(figure.value, to: $0, unit: figure.unit) }
                    ratios.append(ReportRatio(
                        backend: backend.name, step: step, records: workload.records, value: figure.value, unit: figure.unit,
                        best: figure.value > 0 ? best?.0 : nil, toBest: best.flatMap { relative(figure.value, to: $0.1, unit: figure.unit) },
                        baseline: raw, toBaseline: toBaseline,
                        comparedWith: toBaseline == nil ? nil : "\(step) vs \(backend.baselineDescription ?? "the raw engine")"))
                }
            }
        }
        return ratios
    }

    private enum Keys: String, CodingKey { case backend, step, records, value, unit, best, toBest, baseline, toBaseline, comparedWith }

    /// Encodes every key, missing values as `null`, so readers see the full layout in every entry.
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(backend, forKey: .backend)
        try c.encode(step, forKey: .step)
        try c.encode(records, forKey: .records)
        try c.encode(value, forKey: .value)
        try c.encode(unit, forKey: .unit)
        try c.encode(best, forKey: .best)
        try c.encode(toBest, forKey: .toBest)
        try c.encode(baseline, forKey: .baseline)
        try c.encode(toBaseline, forKey: .toBaseline)
        try c.encode(comparedWith, forKey: .comparedWith)
    }
}
