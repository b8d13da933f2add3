import Foundation
import Strata
import StrataConformance
import StrataXML
import Testing

/// The reader's shortcuts — doubles read without `strtod` when they are short, a string equal to
/// the previous record's reusing it — must give back exactly what was saved.
struct XMLReadingTests {
    /// Doubles on both sides of the fast path's limits (15 significant digits, exponents ±22),
    /// random bit patterns, short decimals and dates; labels that repeat, alternate and differ only
    /// in their last byte, so a wrong reuse of the previous string would show.
    static func rows() -> [[String: Value]] {
        let edges: [Double] = [
            1e22, 1e23, 1e-22, 1e-23, 9_007_199_254_740_992, Double(9_007_199_254_740_993 as Int64), 123_456_789_012_345.6,
            0.1, 0.2, 0.3, 1.0 / 3.0, 2.2250738585072014e-308, .leastNonzeroMagnitude, 1.7976931348623157e308, -0.0, 0.0, 4.35, 100.25,
        ]
        var rows: [[String: Value]] = edges.map { ["double": .double($0), "label": .string("edge")] }
        var rng = SeededGenerator(state: 9)
        for i in 0..<1_500 {
            var d = Double(bitPattern: rng.next())
            if !d.isFinite { d = Double(i) }
            let decimal = Double(Int64(bitPattern: rng.next()) % 100_000_000) / 100
            let seconds = Double(Int64(bitPattern: rng.next()) % 1_000_000_000_000) / 1_000
            rows.append(["double": .double(d), "label": .string(i % 4 == 0 ? "same" : "label-\(i % 10)"), "date": .date(Date(timeIntervalSinceReferenceDate: seconds))])
            rows.append(["double": .double(decimal), "label": .string("same"), "string": .string(i % 2 == 0 ? "note" : "nope")])
        }
        for (i, _) in rows.enumerated() { rows[i]["int"] = .int(Int64(i)) }
        return rows
    }

    @Test func doublesAndRepeatedStringsComeBackExactly() throws {
        let dir = try XMLFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        let rows = Self.rows()
        do {
            let store = try XMLFileTests.open(file, threshold: 0)  // every save folded: the document is what is read
            _ = try store.save(SaveRequest(inserted: try rows.map(XMLFileTests.sample)))
        }
        let read = try XMLFileTests.open(file, readOnly: true).fetch(FetchDescriptor(entity: "Sample"))
        #expect(read.count == rows.count)
        for snapshot in read {
            guard case .int(let i) = snapshot["int"] else { Issue.record("a record lost its int"); continue }
            let expected = rows[Int(i)]
            if case .double(let a) = snapshot["double"], case .double(let b)? = expected["double"] {
                #expect(a.bitPattern == b.bitPattern, "row \(i): \(a) != \(b)")
            } else {
                Issue.record("row \(i) lost its double")
            }
            for name in ["label", "string", "date"] {
                #expect(snapshot[name] == (expected[name] ?? .null), "row \(i) \(name)")
            }
        }
    }
}
