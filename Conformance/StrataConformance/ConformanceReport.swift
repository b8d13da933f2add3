import Foundation
import Strata

/// The results of one suite run on one backend, formatted for people (text, Markdown) or tools (JSON).
public struct ConformanceReport: Sendable {
    /// The backend's name.
    public var backend: String
    /// The results, in registry order.
    public var results: [ConformanceResult]

    /// A report of `results` for `backend`.
    public init(backend: String, results: [ConformanceResult]) {
        self.backend = backend
        self.results = results
    }

    /// Results that passed, failed or were skipped.
    public func count(_ label: String) -> Int { results.filter { $0.outcome.label == label }.count }

    /// Whether a required case failed.
    public var requiredFailed: Bool { results.contains { $0.isRequired && $0.outcome.label != "passed" } }

    /// Whether any case failed, required or optional (the CLI's exit status). A case the backend
    /// declared unsupported (by not declaring the capability it needs) is skipped, not failed.
    public var anyFailed: Bool { results.contains { $0.outcome.label == "failed" } }

    /// One line per reason a case was skipped, naming the cases: `Skipped (the backend does not
    /// declare largeValues): roundTrip.string-long, roundTrip.data-large`. Empty when nothing was skipped.
    public var skippedSummary: [String] {
        var reasons: [String] = []
        var cases: [String: [String]] = [:]
        for r in results {
            guard case .skipped(let reason) = r.outcome else { continue }
            if cases[reason] == nil { reasons.append(reason) }
            cases[reason, default: []].append(r.caseID)
        }
        return reasons.map { "Skipped (\($0)): \(cases[$0]!.joined(separator: ", "))" }
    }

    /// `N passed, N failed, N skipped`.
    public var summary: String { "\(count("passed")) passed, \(count("failed")) failed, \(count("skipped")) skipped" }

    /// One line per case, then the summary.
    public var text: String {
        var lines = ["Conformance of \(backend) (Strata \(StrataVersion.current)), \(results.count) cases", ""]
        for r in results {
            var line = "\(mark(r.outcome)) \(r.caseID)\(r.isRequired ? "" : " (optional)")"
            if let detail = detail(r.outcome) { line += " — " + detail }
            lines.append(line)
        }
        lines += ["", summary] + skippedSummary
        return lines.joined(separator: "\n")
    }

    /// A Markdown table per category with a summary line.
    public var markdown: String {
        var lines = ["# Conformance: \(backend)", "", "Strata \(StrataVersion.current): **\(summary)**.", ""]
        if !skippedSummary.isEmpty { lines += skippedSummary.map { "- " + $0 } + [""] }
        for category in ConformanceCategory.allCases {
            let rows = results.filter { $0.category == category }
            guard !rows.isEmpty else { continue }
            lines += ["## \(category.rawValue)\(category.isRequired ? " (required)" : "")", "", "| case | outcome | detail |", "|---|---|---|"]
            for r in rows {
                let detail = (self.detail(r.outcome) ?? "").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
                lines.append("| `\(r.caseID)` | \(r.outcome.label) | \(detail) |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    private struct JSONCase: Encodable {
        var id: String
        var category: String
        var required: Bool
        var outcome: String
        var message: String?
        var durationSeconds: Double
    }

    private struct JSONDocument: Encodable {
        var backend: String
        var version: String
        var total: Int
        var passed: Int
        var failed: Int
        var skipped: Int
        var cases: [JSONCase]
    }

    /// The structured results as JSON.
    public var json: String {
        let doc = JSONDocument(
            backend: backend, version: StrataVersion.current, total: results.count, passed: count("passed"),
            failed: count("failed"), skipped: count("skipped"),
            cases: results.map { JSONCase(id: $0.caseID, category: $0.category.rawValue, required: $0.isRequired, outcome: $0.outcome.label, message: detail($0.outcome), durationSeconds: $0.duration) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(doc)) ?? Data(), as: UTF8.self)
    }

    private func mark(_ o: ConformanceOutcome) -> String {
        switch o {
        case .passed: "✔"
        case .failed: "✘"
        case .skipped: "–"
        }
    }

    private func detail(_ o: ConformanceOutcome) -> String? {
        switch o {
        case .passed: nil
        case .failed(let m): m
        case .skipped(let m): "skipped: " + m
        }
    }
}
