import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

struct StringComparatorTests {
    static let words = ["apple", "Apple", "\u{C4}pfel", "banana", "Zebra", "zebra", "\u{E9}clair", "Eclair", "file2", "file10",
                        "e\u{301}clair", "file02", "file 3", "", "a\u{0}b", "a", "x9", "x10a", "x10", "ǅ", "ß", "SS", "0", "00", "007"]

    /// `compare` is a total order that agrees with the byte order of `sortKey`, and ties only on equal bytes.
    @Test(arguments: StringComparator.allCases) func compareIsTotalAndMatchesSortKey(_ comparator: StringComparator) {
        for a in Self.words {
            for b in Self.words {
                let c = comparator.compare(a, b)
                #expect(c.signum() == -comparator.compare(b, a).signum(), "antisymmetric: \(a) \(b)")
                #expect((c == 0) == (Array(a.utf8) == Array(b.utf8)), "ties only on equal bytes: \(a) \(b)")
                let keys = Value.sortOrder(.data(Data(comparator.sortKey(a))), .data(Data(comparator.sortKey(b))))
                #expect(keys.signum() == c.signum(), "sortKey order: \(a) \(b)")
            }
        }
        let sorted = Self.words.sorted { comparator.compare($0, $1) < 0 }
        for (i, a) in sorted.enumerated() {
            for b in sorted[(i + 1)...] { #expect(comparator.compare(a, b) < 0, "transitive: \(a) before \(b)") }
        }
    }

    @Test func localizedStandardReadsNumbersAndIgnoresCaseAndAccents() {
        let c = StringComparator.localizedStandard
        #expect(c.compare("file2", "file10") < 0)
        #expect(c.compare("file02", "file2") < 0)  // numerically equal: bytes decide
        #expect(c.compare("file 3", "file2") < 0)  // a space before a number, as before the digit 0
        #expect(c.compare("x9", "x10a") < 0)
        #expect(c.compare("\u{C4}pfel", "apple") < 0)
        #expect(c.compare("\u{E9}clair", "Eclair") > 0 && c.compare("\u{E9}clair", "f") < 0)
        #expect(StringComparator.caseInsensitive.compare("\u{E9}clair", "f") > 0)  // accents count there
        #expect(StringComparator.byteOrder.compare("Zebra", "apple") < 0)
    }

    @Test func sortKeyCodableIsBackwardCompatible() throws {
        let old = #"{"order":"descending","path":{"components":["name"]}}"#
        let key = try JSONDecoder().decode(SortKey.self, from: Data(old.utf8))
        #expect(key == SortKey("name", order: .descending))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(key), as: UTF8.self) == old)
        let localized = SortKey("name", comparator: .localizedStandard)
        #expect(try JSONDecoder().decode(SortKey.self, from: try encoder.encode(localized)) == localized)
    }
}
