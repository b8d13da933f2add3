import Foundation

/// A conformance run condensed per category, as the report's matrix shows it: counts, and for every
/// case that did not pass, its id and message (a skip's reason, a failure's text).
public struct ConformanceSummary: Sendable, Codable, Hashable {
    /// One category's results.
    public struct Category: Sendable, Codable, Hashable {
        /// The category's name (`ConformanceCategory.rawValue`).
        public var name: String
        /// Whether the category is part of the required contract.
        public var required: Bool
        /// Cases that passed.
        public var passed: Int
        /// Cases that failed.
        public var failed: Int
        /// Cases that were skipped.
        public var skipped: Int
        /// Every skipped case with its reason.
        public var skips: [Note]
        /// Every failed case with its message.
        public var failures: [Note]
    }

    /// A case id with the message its outcome carried.
    public struct Note: Sendable, Codable, Hashable {
        /// The case id.
        public var id: String
        /// The skip reason or failure message.
        public var message: String
    }

    /// Categories in `ConformanceCategory.allCases` order (those with at least one case).
    public var categories: [Category]

    /// Cases that passed, over every category.
    public var passed: Int { categories.reduce(0) { $0 + $1.passed } }
    /// Cases that failed, over every category.
    public var failed: Int { categories.reduce(0) { $0 + $1.failed } }
    /// Cases that were skipped, over every category.
    public var skipped: Int { categories.reduce(0) { $0 + $1.skipped } }

    /// The summary of suite results run in this process.
    public init(results: [ConformanceResult]) {
        self.init(rows: results.map { result in
            switch result.outcome {
            case .passed: (result.category.rawValue, result.caseID, "passed", nil)
            case .failed(let message): (result.category.rawValue, result.caseID, "failed", message)
            case .skipped(let reason): (result.category.rawValue, result.caseID, "skipped", reason)
            }
        })
    }

    /// The summary of the JSON `strata conformance --format json` prints (`ConformanceReport.json`).
    public init(conformanceJSON data: Data) throws {
        struct Case: Decodable { var id: String; var category: String; var outcome: String; var message: String? }
        struct Document: Decodable { var cases: [Case] }
        let document = try JSONDecoder().decode(Document.self, from: data)
        self.init(rows: document.cases.map { c in
            let message = c.outcome == "skipped" ? c.message.map { $0.hasPrefix("skipped: ") ? String($0.dropFirst(9)) : $0 } : c.message
            return (c.category, c.id, c.outcome, message)
        })
    }

    private init(rows: [(category: String, id: String, outcome: String, message: String?)]) {
        var order = ConformanceCategory.allCases.map(\.rawValue)
        order += rows.map(\.category).filter { !order.contains($0) }
        categories = order.compactMap { name in
            let mine = rows.filter { $0.category == name }
            guard !mine.isEmpty else { return nil }
            func notes(_ outcome: String) -> [Note] { mine.filter { $0.outcome == outcome }.map { Note(id: $0.id, message: $0.message ?? "") } }
            return Category(
                name: name, required: ConformanceCategory(rawValue: name)?.isRequired ?? false,
                passed: mine.filter { $0.outcome == "passed" }.count, failed: mine.filter { $0.outcome == "failed" }.count,
                skipped: mine.filter { $0.outcome == "skipped" }.count, skips: notes("skipped"), failures: notes("failed"))
        }
    }
}
