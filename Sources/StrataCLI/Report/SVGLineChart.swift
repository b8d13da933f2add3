import Foundation

/// A log-log line chart of one step's cost against store size, one line per backend with a legend:
/// a flat line is a cost independent of the store (O(change)), a line rising one decade per decade
/// is proportional to it (O(store)). A dashed guide shows that proportional slope.
struct SVGLineChart {
    var title: String
    var unit: String
    /// Backend name, color, and (store size, value) points.
    var series: [(label: String, color: String, points: [(x: Double, y: Double)])]

    var svg: String {
        let width = 560.0, left = 64.0, legendWidth = 110.0, top = 34.0, plotHeight = 230.0
        let plotRight = width - legendWidth - 10, bottom = top + plotHeight
        let height = bottom + 48
        let xs = series.flatMap { $0.points.map(\.x) }, ys = series.flatMap { $0.points.map(\.y) }
        let xAxis = SVGAxis(values: xs, log: true), yAxis = SVGAxis(values: ys, log: true)
        var parts = [
            "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(SVG.escape(title))\">",
            SVG.text(title, x: 4, y: 18, size: 13, weight: "bold"),
        ]
        for tick in yAxis.ticks {
            let y = yAxis.position(tick, from: bottom, to: top)
            parts.append(SVG.line(left, y, plotRight, y, stroke: "#e3e3e3"))
            parts.append(SVG.text(SVGAxis.label(tick, unit: unit), x: left - 6, y: y + 4, anchor: "end", size: 10, fill: "#555"))
        }
        for tick in xAxis.ticks {
            let x = xAxis.position(tick, from: left, to: plotRight)
            parts.append(SVG.line(x, top, x, bottom, stroke: "#e3e3e3"))
            parts.append(SVG.text(SVGAxis.label(tick, unit: "records"), x: x, y: bottom + 15, anchor: "middle", size: 10, fill: "#555"))
        }
        parts.append(SVG.line(left, bottom, plotRight, bottom, stroke: "#777"))
        parts.append(SVG.line(left, top, left, bottom, stroke: "#777"))
        parts.append(SVG.text("store size (records, log scale)", x: (left + plotRight) / 2, y: bottom + 34, anchor: "middle", size: 11, fill: "#333"))
        parts.append(SVG.text("\(unit) (log scale)", x: 14, y: (top + bottom) / 2, anchor: "middle", size: 11, fill: "#333", rotate: true))
        // guide: a cost proportional to the store, through the lowest point
        if let low = ys.filter({ $0 > 0 }).min(), let x0 = xs.min(), let x1 = xs.max(), x1 > x0 {
            let y1 = low * x1 / x0
            parts.append(SVG.line(xAxis.position(x0, from: left, to: plotRight), yAxis.position(low, from: bottom, to: top),
                                  xAxis.position(x1, from: left, to: plotRight), yAxis.position(min(y1, yAxis.high), from: bottom, to: top), stroke: "#bbb", dash: "4 4"))
        }
        for s in series {
            let points = s.points.filter { $0.y > 0 }.map { (xAxis.position($0.x, from: left, to: plotRight), yAxis.position($0.y, from: bottom, to: top)) }
            if points.count > 1 {
                parts.append("<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\" points=\"\(points.map { "\(SVG.n($0.0)),\(SVG.n($0.1))" }.joined(separator: " "))\"/>")
            }
            for p in points { parts.append("<circle cx=\"\(SVG.n(p.0))\" cy=\"\(SVG.n(p.1))\" r=\"3.5\" fill=\"\(s.color)\"/>") }
        }
        for (i, s) in series.enumerated() {
            let y = top + 8 + Double(i) * 18
            parts.append(SVG.line(plotRight + 14, y, plotRight + 34, y, stroke: s.color, width: 3))
            parts.append(SVG.text(s.label, x: plotRight + 40, y: y + 4, size: 11))
        }
        let gy = top + 8 + Double(series.count) * 18
        parts.append(SVG.line(plotRight + 14, gy, plotRight + 34, gy, stroke: "#bbb", dash: "4 4"))
        parts.append(SVG.text("∝ store size", x: plotRight + 40, y: gy + 4, size: 11, fill: "#666"))
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
