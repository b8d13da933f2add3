import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

struct IdentifierAndErrorTests {
    @Test func uriRoundTrips() {
        let ids = [
            PersistentIdentifier(storeIdentifier: "abc123", entityName: "Item", primaryKey: 42),
            PersistentIdentifier(storeIdentifier: "a/b c", entityName: "Wëird/Name", primaryKey: .max),
            PersistentIdentifier.temporary(entity: "Item"),
        ]
        for id in ids { #expect(PersistentIdentifier(uri: id.description) == id) }
        #expect(PersistentIdentifier(uri: "strata://x/Item/q1") == nil)
        #expect(PersistentIdentifier(uri: "http://x/Item/p1") == nil)
    }

    @Test func temporaryIdentifiersAreUniqueAcrossThreads() async {
        let ids = await withTaskGroup(of: [PersistentIdentifier].self) { group in
            for _ in 0..<8 { group.addTask { (0..<1000).map { _ in .temporary(entity: "A") } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 8000)
    }

    @Test func storeIdentifiersAreShortAndDistinct() {
        let a = PersistentIdentifier.makeStoreIdentifier(), b = PersistentIdentifier.makeStoreIdentifier()
        #expect(a.utf8.count == 15 && a != b)
    }

    @Test func errorsMatchByCodeAndDescribeContext() {
        let error = StrataError(.uniqueConstraintViolation, "taken", entity: "Item", properties: ["name"], identifiers: [PersistentIdentifier(storeIdentifier: "s", entityName: "Item", primaryKey: 1)], file: "f.json", offset: 10, line: 2, column: 3)
        #expect(error.description.contains("uniqueConstraintViolation: taken"))
        #expect(error.description.contains("f.json:2:3 @10"))
        switch error as Error {
        case StrataError.Code.uniqueConstraintViolation: break
        default: Issue.record("the ~= pattern did not match")
        }
    }
}
