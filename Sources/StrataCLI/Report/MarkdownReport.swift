import Foundation

/// `report.md`: the report's sections as Markdown, readable on a terminal, in a pull request or on
/// a code host.
struct MarkdownReport {
    let document: ReportDocument

    var text: String {
        let tables = ReportTables(document: document)
        var lines = ["# Strata backend report", ""] + tables.preamble.map { $0 + "  " } + [""]
        for section in tables.sections {
            lines += ["## \(section.title)", ""]
            for p in section.paragraphs { lines += [p, ""] }
            if !section.header.isEmpty {
                lines.append(row(section.header))
                lines.append("|" + String(repeating: "---|", count: section.header.count))
                lines += section.rows.map(row)
                lines.append("")
            }
            if !section.list.isEmpty { lines += section.list.map { "- " + $0 } + [""] }
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }.joined(separator: " | ") + " |"
    }
}
