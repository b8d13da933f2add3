import Foundation
@testable import StrataModel
import Testing

/// `BuiltInAttributeTypes` answers by comparing metatypes what the protocol casts answer by
/// scanning conformance records; these tests hold the two to the same answers, and check what the
/// translator builds from the leaves it now recognizes by type.
struct BuiltInAttributeTypesTests {
    /// One value of every built-in attribute type, extremes included.
    static var samples: [Any] { [
        Int.min, -1, 0, Int.max, "", "Zoë", -0.0, Double.nan, 1.5e300, true, false,
        Date(timeIntervalSinceReferenceDate: 12.5), UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        Int64.min, Float(2.5), Data([0, 1, 255]), URL(string: "https://example.com/a?b")!,
        Int32.max, Int16.min, Int8(-8), UInt32.max, UInt16(7), UInt8.max,
    ] }

    @Test(arguments: 0..<samples.count)
    func storedValueMatchesTheProtocolCast(_ index: Int) throws {
        let value = Self.samples[index]
        let direct = try #require(BuiltInAttributeTypes.storedValue(value), "\(type(of: value)) is not recognized")
        let viaProtocol = try #require((value as? any ModelAttributeValue)?.attributeValue)
        // Value's own == treats NaN as unequal to itself; compare what is stored.
        #expect(String(describing: direct) == String(describing: viaProtocol))
        #expect(BuiltInAttributeTypes.contains(type(of: value)))
        #expect(PredicateConstants.storedValue(value).map { String(describing: $0) } == String(describing: viaProtocol))
        #expect(!BuiltInAttributeTypes.isOptional(value))
        guard case .stored = SwiftOrder.plan(for: type(of: value)) else { Issue.record("\(type(of: value)) must sort in the store"); return }
    }

    /// Optionals, enums and documents are not built-in: the general path answers them, as before.
    @Test func otherTypesTakeTheGeneralPath() {
        let optionalInt: Int? = 3, none: Int? = nil
        let others: [Any] = [optionalInt as Any, none as Any, QueryPriority.high, [1, 2], UInt64(3), 1...3]
        for value in others {
            #expect(BuiltInAttributeTypes.storedValue(value) == nil, "\(type(of: value))")
            #expect(!BuiltInAttributeTypes.contains(type(of: value)), "\(type(of: value))")
        }
        #expect(BuiltInAttributeTypes.isOptional(optionalInt as Any) && BuiltInAttributeTypes.isOptional(none as Any))
        #expect(!BuiltInAttributeTypes.isOptional(QueryPriority.high))
        #expect(PredicateConstants.storedValue(optionalInt as Any) == .int(3))
        #expect(PredicateConstants.storedValue(none as Any) == .null)
        #expect(PredicateConstants.isNil(none as Any) && !PredicateConstants.isNil(optionalInt as Any) && !PredicateConstants.isNil(0))
        #expect(PredicateConstants.storedValue(QueryPriority.high) == .int(2))
    }

    /// The leaves recognized by type (a captured value, `$0`, `$0.property`) translate to the
    /// same store predicates the conformance path built.
    @Test func leavesRecognizedByTypeTranslate() throws {
        let limit = 9, title = "Groceries"
        let cutoff = Date(timeIntervalSinceReferenceDate: 100)
        let cases: [(Predicate<QueryNote>, FetchPredicate)] = [
            (#Predicate { $0.views == limit }, .compare(PropertyPath(["views"]), .equal, .int(9))),
            (#Predicate { 2 > $0.rating }, .compare(PropertyPath(["rating"]), .less, .double(2))),
            (#Predicate { $0.title != title }, .compare(PropertyPath(["title"]), .notEqual, .string("Groceries"))),
            (#Predicate { $0.isPinned }, .compare(PropertyPath(["isPinned"]), .equal, .bool(true))),
            (#Predicate { $0.createdAt < cutoff && !$0.isPinned },
             .and([.compare(PropertyPath(["createdAt"]), .less, .date(cutoff)), .not(.compare(PropertyPath(["isPinned"]), .equal, .bool(true)))])),
            (#Predicate { $0.summary == nil }, .isNil(PropertyPath(["summary"]))),
        ]
        for (predicate, expected) in cases {
            #expect(try PredicateTranslator.translate(predicate) == expected)
        }
        // A key path on another model's variable (inside a to-many test) takes the conformance path.
        let inner = try PredicateTranslator.translate(#Predicate<QueryNote> { $0.tags.contains { $0.name == "idea" } })
        #expect("\(inner)".contains("idea"))
    }
}
