import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance

/// The "which backend should I choose" section, written from the measured figures and declared
/// capabilities of this very report — rankings per kind of work, how a one-record save scales, what
/// the files are and what opens them — so it changes when the figures do and never repeats a claim
/// nobody measured.
enum ReportAdvice {
    /// A kind of work a user weighs: a set of workload steps, and whether only stores that outlive the
    /// process compete (reopening a store held in memory is not reading one back from disk).
    typealias Kind = (name: String, steps: [String], onDiskOnly: Bool)

    /// Kinds of work a user weighs, each a set of workload steps.
    static let kinds: [Kind] = [
        ("reads", ["fetch-by-id", "scan", "filter"], false), ("writes", ["insert", "update-one", "update-batch", "cascade-delete"], false),
        ("reopening from disk", ["reopen"], true), ("size on disk", ["size"], true), ("peak memory", ["peak-memory"], false),
    ]

    /// Capability names in the core's order, then any others a fragment declares.
    static func capabilityNames(_ backends: [BackendReport]) -> [String] {
        var names = StoreCapabilities.named.map(\.0)
        for name in backends.flatMap(\.capabilities) where !names.contains(name) { names.append(name) }
        return names
    }

    /// How a step's figure grows with the store: the slope of log(figure) against log(size), fitted
    /// over every size measured. About 0 = independent of the store (O(change)); about 1 = proportional.
    struct Growth: CustomStringConvertible {
        var slope: Double
        /// Whether the cost stays flat as the store grows.
        var isFlat: Bool { slope < 0.35 }
        /// Whether the cost grows about in proportion to the store.
        var isProportional: Bool { slope > 0.7 }
        var description: String {
            let kind = isFlat ? "flat, O(change)" : isProportional ? "grows with the store, O(store)" : "grows slower than the store"
            return "\(kind) (slope \(String(format: "%.2f", slope)))"
        }
    }

    /// The growth of `step` over `sizes` for one backend, or nil with fewer than two positive figures.
    static func growth(of backend: BackendReport, step: String, sizes: [Int]) -> Growth? {
        let points = sizes.compactMap { n in backend.workload(records: n)?.steps[step].flatMap { $0.value > 0 ? (log(Double(n)), log($0.value)) : nil } }
        guard points.count >= 2 else { return nil }
        let mx = points.map(\.0).reduce(0, +) / Double(points.count), my = points.map(\.1).reduce(0, +) / Double(points.count)
        let sxx = points.reduce(0) { $0 + ($1.0 - mx) * ($1.0 - mx) }
        guard sxx > 0 else { return nil }
        return Growth(slope: points.reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / sxx)
    }

    /// For one kind of work at N, each backend's score, best first: the geometric mean of its ratios to
    /// the best over the kind's steps, divided by the leader's, so the leader is 1 and ×0.5 is half its
    /// speed. Backends missing a step, and for an on-disk kind those whose data does not outlive the
    /// process, are left out.
    static func ranking(_ document: ReportDocument, _ kind: Kind) -> [(backend: String, score: Double)] {
        let scored = document.backends.compactMap { b -> (backend: String, score: Double)? in
            if kind.onDiskOnly, b.storage?.onDisk == false { return nil }
            let ratios = kind.steps.compactMap { document.ratio(b.name, $0, document.records)?.toBest }
            guard ratios.count == kind.steps.count, !ratios.isEmpty else { return nil }
            return (b.name, exp(ratios.map(log).reduce(0, +) / Double(ratios.count)))
        }.sorted { $0.score > $1.score }
        guard let lead = scored.first?.score, lead > 0 else { return scored }
        return scored.map { ($0.backend, $0.score / lead) }
    }

    /// One sentence per kind of work naming the leader and how far the others are behind.
    static func rankings(_ document: ReportDocument) -> [String] {
        kinds.compactMap { kind in
            let ranked = ranking(document, kind)
            guard let first = ranked.first else { return nil }
            let rest = ranked.dropFirst().map { "\($0.backend) \(ReportFormatting.ratio($0.score))" }.joined(separator: ", ")
            return "Best for \(kind.name) (\(kind.steps.joined(separator: ", ")) at N = \(ReportFormatting.grouped(Double(document.records)))): \(first.backend)" + (rest.isEmpty ? "." : "; then \(rest) (relative to the first: ×0.5 = half its speed, or twice its size or memory).")
        }
    }

    /// The measured facts about one backend a chooser weighs, each a short phrase.
    static func facts(_ document: ReportDocument, _ b: BackendReport) -> [String] {
        var facts: [String] = []
        let leads = kinds.filter { ranking(document, $0).first?.backend == b.name }.map(\.name)
        if !leads.isEmpty { facts.append("best for \(leads.joined(separator: ", "))") }
        let close = kinds.filter { k in !leads.contains(k.name) && (ranking(document, k).first { $0.backend == b.name }?.score ?? 0) >= 0.8 }.map(\.name)
        if !close.isEmpty { facts.append("within 20% of the best for \(close.joined(separator: ", "))") }
        if b.capabilities.contains("queryPushdown") { facts.append("predicates and sorts run inside the engine (queryPushdown)") }
        if b.capabilities.contains("concurrentAccess") { facts.append("one store object may be shared between threads") }
        let onServer = BuiltinStores.servers.contains { $0.name == b.name }
        if onServer {
            facts.append("the backend for several processes on several machines: they share one PostgreSQL server, which enforces the constraints and serializes the saves (docs/formats/postgres.md)")
        } else if let s = b.storage, !s.onDisk {
            facts.append("data does not outlive the process")
        }
        if let s = b.storage {
            if s.humanReadable { facts.append("human-readable, diff-friendly files") }
            if s.onDisk || onServer { facts.append("\(s.description)" + (s.tools.isEmpty ? "" : ", opened by \(s.tools.joined(separator: ", "))")) }
        }
        if let g = growth(of: b, step: "update-one", sizes: document.sizes) {
            facts.append(g.isFlat ? "a one-record save costs the same at every store size (O(change))" : "a one-record save grows with the store (slope \(String(format: "%.2f", g.slope)), O(store))")
        }
        if let g = growth(of: b, step: "reopen", sizes: document.sizes), g.isProportional { facts.append("reopening reads the whole store") }
        if let c = b.conformance {
            let requiredFailed = c.categories.filter(\.required).reduce(0) { $0 + $1.failed }
            facts.append(requiredFailed > 0 ? "fails \(requiredFailed) required conformance cases" : c.failed > 0 ? "passes every required case, fails \(c.failed) optional ones" : "passes every conformance case it runs (\(c.skipped) skipped)")
        } else {
            facts.append("conformance did not run")
        }
        if !b.failures.isEmpty { facts.append("\(b.failures.count) part(s) of the run failed (see Failures)") }
        return facts
    }
}
