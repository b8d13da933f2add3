import Foundation

/// A horizontal bar chart of one workload step: one bar per backend, the value written at the bar's
/// end, a labeled value axis with its unit (logarithmic when the spread needs it), and whether higher
/// or lower is better in the title.
struct SVGBarChart {
    var title: String
    var unit: String
    var higherIsBetter: Bool
    /// Backend name, value, color.
    var bars: [(label: String, value: Double, color: String)]

    var svg: String {
        let width = 560.0, left = 90.0, right = 110.0, top = 34.0, barHeight = 20.0, gap = 8.0
        let plotRight = width - right
        let height = top + Double(bars.count) * (barHeight + gap) + 48
        let axis = SVGAxis(values: bars.map(\.value))
        var parts = [
            "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(SVG.escape(title))\">",
            SVG.text(title + (higherIsBetter ? " — higher is better" : " — lower is better"), x: 4, y: 18, size: 13, weight: "bold"),
        ]
        let axisY = top + Double(bars.count) * (barHeight + gap)
        for tick in axis.ticks {
            let x = axis.position(tick, from: left, to: plotRight)
            parts.append(SVG.line(x, top - 4, x, axisY, stroke: "#e3e3e3"))
            parts.append(SVG.text(SVGAxis.label(tick, unit: unit), x: x, y: axisY + 15, anchor: "middle", size: 10, fill: "#555"))
        }
        parts.append(SVG.line(left, axisY, plotRight, axisY, stroke: "#777"))
        parts.append(SVG.text(unit + (axis.isLog ? " (log scale)" : ""), x: (left + plotRight) / 2, y: axisY + 32, anchor: "middle", size: 11, fill: "#333"))
        for (i, bar) in bars.enumerated() {
            let y = top + Double(i) * (barHeight + gap)
            parts.append(SVG.text(bar.label, x: left - 6, y: y + barHeight * 0.72, anchor: "end", size: 12))
            guard bar.value > 0 else {
                parts.append(SVG.text("not measured", x: left + 4, y: y + barHeight * 0.72, size: 11, fill: "#888"))
                continue
            }
            let x = axis.position(bar.value, from: left, to: plotRight)
            parts.append("<rect x=\"\(SVG.n(left))\" y=\"\(SVG.n(y))\" width=\"\(SVG.n(max(x - left, 1.5)))\" height=\"\(SVG.n(barHeight))\" fill=\"\(bar.color)\"/>")
            parts.append(SVG.text(ReportFormatting.bare(bar.value, unit), x: x + 4, y: y + barHeight * 0.72, size: 11, fill: "#222"))
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
