import Foundation
import StrataConformance

/// `index.html`: the report as one self-contained page — inline style, inline SVG charts drawn here,
/// no script, font, style sheet or image from anywhere else — so it opens offline, from a CI artifact
/// or an e-mail attachment, and looks the same everywhere.
struct HTMLReport {
    let document: ReportDocument

    var text: String {
        let tables = ReportTables(document: document)
        var body = ["<h1>Strata backend report</h1>"] + tables.preamble.map { "<p class=\"meta\">\(SVG.escape($0))</p>" }
        body.append("<nav>" + tables.sections.map { "<a href=\"#\($0.id)\">\(SVG.escape($0.title))</a>" }.joined(separator: " · ") + "</nav>")
        for section in tables.sections {
            body.append(render(section))
            if section.id == "workload" { body.append(stepCharts()) }
            if section.id == "scaling" { body.append(scalingCharts()) }
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Strata backend report</title>
            <style>
            body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1300px; }
            h1 { font-size: 24px; } h2 { font-size: 19px; margin-top: 32px; border-bottom: 1px solid #ddd; }
            .meta { color: #555; margin: 2px 0; } nav { margin: 12px 0; font-size: 14px; }
            nav a { color: #1f5fa8; text-decoration: none; }
            table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
            th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
            th { background: #f2f2f2; } td.failed { background: #fde2e2; } td.best { background: #e4f4e4; }
            .charts { display: flex; flex-wrap: wrap; gap: 12px 24px; } .charts svg { font-family: sans-serif; }
            li { margin: 3px 0; font-size: 14px; }
            </style></head><body>
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }

    private func render(_ section: ReportSection) -> String {
        var html = ["<h2 id=\"\(section.id)\">\(SVG.escape(section.title))</h2>"]
        html += section.paragraphs.map { "<p>\(SVG.escape($0))</p>" }
        if !section.header.isEmpty {
            html.append("<table><tr>" + section.header.map { "<th>\(SVG.escape($0))</th>" }.joined() + "</tr>")
            for row in section.rows {
                html.append("<tr>" + row.map { cell in
                    let cls = cell.contains(" failed") && !cell.contains(" 0 failed") ? " class=\"failed\"" : cell.contains("(best)") ? " class=\"best\"" : ""
                    return "<td\(cls)>\(SVG.escape(cell))</td>"
                }.joined() + "</tr>")
            }
            html.append("</table>")
        }
        if !section.list.isEmpty { html.append("<ul>" + section.list.map { "<li>\(SVG.escape($0))</li>" }.joined() + "</ul>") }
        return html.joined(separator: "\n")
    }

    private func color(_ backend: String) -> String {
        let index = document.backends.firstIndex { $0.name == backend } ?? 0
        return SVG.palette[index % SVG.palette.count]
    }

    /// One bar chart per workload step at N: throughput and times, then size on disk and peak memory.
    private func stepCharts() -> String {
        let n = document.records
        let charts = document.steps.compactMap { step -> String? in
            let figures = document.backends.compactMap { b in b.workload(records: n)?.steps[step].map { (b.name, $0) } }
            guard let unit = figures.first?.1.unit else { return nil }
            let title = step == "size" ? "size on disk (after the workload)" : step == "peak-memory" ? "peak memory (whole bench process)" : step
            return SVGBarChart(
                title: title, unit: unit, higherIsBetter: ReportRatio.higherIsBetter(unit),
                bars: figures.map { (label: $0.0, value: $0.1.value, color: color($0.0)) }
            ).svg
        }
        return "<h3>Every step at N = \(ReportFormatting.grouped(Double(n)))</h3>\n<div class=\"charts\">\n" + charts.joined(separator: "\n") + "\n</div>"
    }

    /// update-one and reopen against store size, log-log.
    private func scalingCharts() -> String {
        let charts = [("update-one", "one-record save (update-one median) vs store size"), ("reopen", "reopen vs store size")].map { step, title in
            SVGLineChart(
                title: title, unit: "ms",
                series: document.backends.map { b in
                    (label: b.name, color: color(b.name), points: document.sizes.compactMap { size in b.workload(records: size)?.steps[step].map { (x: Double(size), y: $0.value) } })
                }
            ).svg
        }
        return "<div class=\"charts\">\n" + charts.joined(separator: "\n") + "\n</div>"
    }
}
