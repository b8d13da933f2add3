import Foundation

/// A value axis for the hand-written SVG charts: linear or logarithmic, with "nice" labeled ticks
/// (1-2-5 steps, or powers of ten), mapping values onto a pixel range.
struct SVGAxis {
    let low: Double
    let high: Double
    let isLog: Bool
    let ticks: [Double]

    /// An axis covering `values` (positive ones only on a log axis). Logarithmic when asked, or when
    /// `automaticLog` and the largest value is more than 30 times the smallest, so small bars stay visible.
    init(values: [Double], log forced: Bool = false, automaticLog: Bool = true, startAtZero: Bool = true) {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        let mn = positive.min() ?? 1, mx = positive.max() ?? 1
        isLog = forced || (automaticLog && mx / mn > 30)
        if isLog {
            let a = Foundation.floor(Foundation.log10(mn)), b = Swift.max(Foundation.ceil(Foundation.log10(mx)), a + 1)
            low = Foundation.pow(10, a)
            high = Foundation.pow(10, b)
            ticks = stride(from: a, through: b, by: 1).map { Foundation.pow(10, $0) }
        } else {
            let raw = (mx - (startAtZero ? 0 : mn)) / 5
            let magnitude = Foundation.pow(10, Foundation.floor(Foundation.log10(Swift.max(raw, 1e-12))))
            let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? magnitude * 10
            low = startAtZero ? 0 : Foundation.floor(mn / step) * step
            high = Swift.max(Foundation.ceil(mx / step) * step, low + step)
            ticks = stride(from: low, through: high + step / 2, by: step).map { $0 }
        }
    }

    /// Where `value` falls between `from` and `to` pixels.
    func position(_ value: Double, from: Double, to: Double) -> Double {
        let t: Double
        if isLog {
            let v = Swift.max(value, low)
            t = (Foundation.log10(v) - Foundation.log10(low)) / (Foundation.log10(high) - Foundation.log10(low))
        } else {
            t = (value - low) / (high - low)
        }
        return from + (to - from) * Swift.min(Swift.max(t, 0), 1)
    }

    /// A short tick label: `0`, `500`, `20k`, `1.5M`, `0.01`; bytes as `10 MB`.
    static func label(_ v: Double, unit: String) -> String {
        if unit == "bytes" { return ReportFormatting.bytes(v) }
        let a = abs(v)
        func trim(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(format: "%.1f", x) }
        if a >= 1e9 { return trim(v / 1e9) + "G" }
        if a >= 1e6 { return trim(v / 1e6) + "M" }
        if a >= 1e3 { return trim(v / 1e3) + "k" }
        if a >= 1 || a == 0 { return trim(v) }
        return String(format: "%g", v)
    }
}

/// Small helpers for writing SVG by hand.
enum SVG {
    /// Text escaped for XML content and attribute values.
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A number with at most one decimal, for coordinates.
    static func n(_ v: Double) -> String { String(format: "%.1f", v) }

    /// A `<text>` element.
    static func text(_ s: String, x: Double, y: Double, anchor: String = "start", size: Int = 12, weight: String = "normal", fill: String = "#222", rotate: Bool = false) -> String {
        let transform = rotate ? " transform=\"rotate(-90 \(n(x)) \(n(y)))\"" : ""
        return "<text x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"\(anchor)\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(fill)\"\(transform)>\(escape(s))</text>"
    }

    /// A `<line>` element.
    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String = "#999", width: Double = 1, dash: String? = nil) -> String {
        "<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(n(width))\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>"
    }

    /// Distinct colors for up to eight series, by backend position.
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
}
