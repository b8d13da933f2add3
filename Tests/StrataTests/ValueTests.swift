import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

struct ValueTests {
    static let edges: [Value] = [
        .null, .bool(false), .int(.min), .int(.max), .double(-0.0), .double(.nan), .double(.infinity),
        .double(-.infinity), .double(.leastNonzeroMagnitude), .double(0.1 + 0.2), .string(""), .string("a\u{0}b 👩‍👩‍👧"),
        .date(Date(timeIntervalSinceReferenceDate: -1e10 + 0.123)), .data(Data([0, 255])), .uuid(UUID()),
        .url(URL(string: "https://x.org/a%20b?q=1")!),
    ]

    @Test(arguments: edges) func jsonRoundTripIsExact(_ value: Value) throws {
        let data = try JSONEncoder().encode([value])
        #expect(try JSONDecoder().decode([Value].self, from: data) == [value])
    }

    @Test func equalityIsIdentityOfStoredValue() {
        #expect(Value.double(.nan) == .double(.nan))
        #expect(Value.double(-0.0) != .double(0.0))
        #expect(Value.string("e\u{301}") != .string("\u{e9}"))  // canonically equal, different bytes
    }

    @Test func predicateSemantics() {
        #expect(Value.satisfies(.null, .equal, .null))
        #expect(Value.satisfies(.null, .notEqual, .int(3)))
        #expect(!Value.satisfies(.null, .less, .int(3)))
        #expect(!Value.satisfies(.double(.nan), .equal, .double(.nan)))
        #expect(Value.satisfies(.double(.nan), .notEqual, .double(1)))
        #expect(Value.satisfies(.double(-0.0), .equal, .double(0.0)))
        #expect(Value.satisfies(.string("B"), .less, .string("a")))
    }

    @Test func sortOrderIsTotal() {
        let sorted: [Value] = [.null, .double(-.infinity), .double(-1), .double(0), .double(.infinity), .double(.nan)]
        for (i, a) in sorted.enumerated() {
            for (j, b) in sorted.enumerated() {
                #expect(Value.sortOrder(a, b).signum() == (i < j ? -1 : i == j ? 0 : 1))
            }
        }
        #expect(Value.sortOrder(.string("Z"), .string("a")) < 0)
        #expect(Value.sortOrder(.string("z"), .string("é")) < 0)
        #expect(Value.sortOrder(.data(Data([1])), .data(Data([1, 0]))) < 0)
    }

    @Test func uniqueKeysNormalizeNumbers() {
        #expect(Value.double(-0.0).uniqueKey == Value.double(0.0).uniqueKey)
        #expect(Value.double(.nan).uniqueKey == .null)  // NaN never collides, like nil
        #expect(Value.string("a").uniqueKey != Value.string("A").uniqueKey)
    }

    @Test func textMatchingIsByteWise() {
        #expect(TextMatch.matches("Hello", .hasPrefix, "He", caseInsensitive: false))
        #expect(!TextMatch.matches("Hello", .hasPrefix, "he", caseInsensitive: false))
        #expect(TextMatch.matches("Hello", .hasPrefix, "he", caseInsensitive: true))
        #expect(TextMatch.matches("ÉCOLE", .contains, "éco", caseInsensitive: true))
        #expect(TextMatch.matches("abc", .hasSuffix, "", caseInsensitive: false))
        #expect(!TextMatch.matches("ab", .contains, "abc", caseInsensitive: false))
    }
}
