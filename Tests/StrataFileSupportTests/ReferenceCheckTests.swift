@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport
import Testing

/// A state read from files may only name records it holds (but for noAction's dangling to-one).
struct ReferenceCheckTests {
    static let schema = try! Schema {
        Entity("Owner") { Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .cascade) }
        Entity("Item") { Relationship.toOne("owner", "Owner", inverse: "items") }
        Entity("Tag") { Relationship.toMany("notes", "Note", inverse: "tag", deleteRule: .noAction) }
        Entity("Note") { Relationship.toOne("tag", "Tag", inverse: "notes", deleteRule: .noAction) }
    }

    static func state(_ build: (inout StoreState, (String) -> EntitySchema) throws -> Void) throws -> StoreState {
        var state = StoreState(schema: schema, storeIdentifier: "abcdefghijklmno")
        try build(&state) { schema.entity(named: $0)! }
        return state
    }

    @Test func consistentStatesPass() throws {
        let state = try Self.state { s, e in
            try s.load(e("Owner"), key: 1, record: StoredRecord(attributes: [], links: [.many([1])]))
            try s.load(e("Item"), key: 1, record: StoredRecord(attributes: [], links: [.one(1)]))
        }
        try state.verifyReferences(file: "f")
    }

    @Test func aMissingTargetIsCorrupt() throws {
        let toOne = try Self.state { s, e in try s.load(e("Item"), key: 1, record: StoredRecord(attributes: [], links: [.one(7)])) }
        #expect(throws: StrataError.self) { try toOne.verifyReferences(file: "f") }
        let toMany = try Self.state { s, e in try s.load(e("Owner"), key: 1, record: StoredRecord(attributes: [], links: [.many([3])])) }
        let error = try #require(throws: StrataError.self) { try toMany.verifyReferences(file: "f") }
        #expect(error.code == .corruptStore && error.entity == "Owner" && error.properties == ["items"])
    }

    @Test func noActionMayLeaveAToOneDanglingAtAKeyOnceGivenOut() throws {
        var state = try Self.state { s, e in try s.load(e("Note"), key: 1, record: StoredRecord(attributes: [], links: [.one(2)])) }
        #expect(throws: StrataError.self) { try state.verifyReferences(file: "f") }  // key 2 of Tag was never given out
        state.setNextPrimaryKey(Self.schema.entity(named: "Tag")!, atLeast: 3)
        try state.verifyReferences(file: "f")
    }
}
