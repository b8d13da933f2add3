import Foundation

/// How the report writes numbers for people: rates as grouped integers, times with three
/// significant digits, sizes in KB/MB, ratios as `×0.42`. Shared by the Markdown and HTML pages.
enum ReportFormatting {
    /// A figure with its unit, e.g. `1,234,567 records/s`, `0.231 ms`, `12.4 MB`.
    static func figure(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "bytes": return bytes(value)
        case "MiB": return significant(value) + " MiB"
        default: return (unit.hasSuffix("/s") ? grouped(value) : significant(value)) + " " + unit
        }
    }

    /// A figure without its unit (for table cells under a unit column).
    static func bare(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "bytes": return bytes(value)
        default: return unit.hasSuffix("/s") ? grouped(value) : significant(value)
        }
    }

    /// `1,234,567`.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, ch) in digits.reversed().enumerated() {
            if i > 0, i % 3 == 0, ch != "-" { out.append(",") }
            out.append(ch)
        }
        return String(out.reversed())
    }

    /// Three significant digits, without exponent notation (`0.00123`, `12.3`, `1,230`).
    static func significant(_ value: Double) -> String {
        if value == 0 { return "0" }
        if abs(value) >= 1000 { return grouped(value) }
        let decimals = max(0, 2 - Int(floor(log10(abs(value)))))
        return String(format: "%.\(decimals)f", value)
    }

    /// Bytes as B, KB, MB or GB (powers of 1000).
    static func bytes(_ value: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var v = value, i = 0
        while v >= 1000, i < units.count - 1 { v /= 1000; i += 1 }
        return i == 0 ? "\(Int(v)) B" : "\(significant(v)) \(units[i])"
    }

    /// `×0.42`.
    static func ratio(_ value: Double) -> String {
        if value >= 10 { return "×" + String(format: "%.0f", value) }
        if value >= 0.01 { return "×" + String(format: "%.2f", value) }
        return "×" + String(format: "%.1g", value)  // two decimals would print 0.00
    }

    /// `100,000` for record counts; `1k`, `10k`, `100k` for axis labels.
    static func short(_ records: Int) -> String { records >= 1000 && records % 1000 == 0 ? "\(records / 1000)k" : String(records) }
}
