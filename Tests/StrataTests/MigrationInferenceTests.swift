import Testing
@_spi(StrataEngine) @testable import Strata

@Suite struct MigrationInferenceTests {
    func v1() throws -> Schema {
        try Schema(entities: [
            Entity("Trip") {
                Attribute("title", .string)
                Attribute("note", .string, optional: true)
                Attribute("days", .int)
                Relationship.toMany("stops", "Stop", inverse: "trip", deleteRule: .cascade)
            },
            Entity("Stop") {
                Attribute("name", .string)
                Relationship.toOne("trip", "Trip", inverse: "stops")
            },
        ], version: Schema.Version(1, 0, 0))
    }

    @Test func addRenameAndConstraintAreLightweight() throws {
        let v2 = try Schema(entities: [
            Entity("Trip") {
                Attribute("name", .string, unique: true, originalName: "title")
                Attribute("note", .string, optional: true)
                Attribute("days", .int)
                Attribute("isPinned", .bool, default: false)
                Relationship.toMany("stops", "Stop", inverse: "trip", deleteRule: .nullify)
            },
            Entity("Stop") {
                Attribute("name", .string)
                Relationship.toOne("trip", "Trip", inverse: "stops")
            },
        ], version: Schema.Version(2, 0, 0))
        let m = try SchemaMigration.lightweight(from: v1(), to: v2)
        #expect(m.changes.map(\.description) == [
            "rename attribute Trip.title to name", "add attribute Trip.isPinned",
            "change the delete rule of Trip.stops from cascade to nullify", "add unique constraint Trip(name)",
        ])
        #expect(m.entities[0].attributes == [.copy(0), .copy(1), .copy(2), .constant(.bool(false))])
        #expect(m.isIdentity(1))
        #expect(!m.isIdentity(0))
    }

    @Test func typeChangeAndRequiredWithoutDefaultAreRefusedByName() throws {
        let v2 = try Schema(entities: [
            Entity("Trip") {
                Attribute("title", .int)
                Attribute("note", .string)
                Attribute("days", .int)
                Attribute("rating", .int)
                Relationship.toMany("stops", "Stop", inverse: "trip")
            },
            Entity("Stop") {
                Attribute("name", .string)
                Relationship.toOne("trip", "Trip", inverse: "stops")
            },
        ])
        let error = try #require(throws: StrataError.self) { try SchemaMigration.lightweight(from: v1(), to: v2) }
        #expect(error.code == .migrationRequired)
        #expect(error.entity == "Trip")
        #expect(error.properties == ["title"])
        #expect(error.message.contains("'Trip.title' changes type from string to int"))
        #expect(error.message.contains("'Trip.note' becomes required without a default"))
        #expect(error.message.contains("'Trip.rating' has no default"))
    }

    @Test func stateMigrationKeepsKeysAndRefusesDuplicatesUnderANewConstraint() throws {
        let old = try v1()
        var state = StoreState(schema: old, storeIdentifier: "s")
        try state.load(old.entities[0], key: 1, record: StoredRecord(attributes: [.string("a"), .null, .int(3)], links: [.many([2])]))
        try state.load(old.entities[0], key: 5, record: StoredRecord(attributes: [.string("a"), .null, .int(4)], links: [.many([])]))
        try state.load(old.entities[1], key: 2, record: StoredRecord(attributes: [.string("x")], links: [.one(1)]))
        try state.finishLoading()
        let v2 = try Schema(entities: [
            Entity("Voyage") {
                Attribute("title", .string, unique: true)
                Attribute("note", .string, default: "none")
                Relationship.toMany("stops", "Stop", inverse: "trip")
            }.renamed(from: "Trip"),
            Entity("Stop") {
                Attribute("name", .string)
                Relationship.toOne("trip", "Voyage", inverse: "stops")
            },
        ])
        let migration = try SchemaMigration.lightweight(from: old, to: v2)
        #expect(migration.changes.map(\.description).contains("rename entity Trip to Voyage"))
        let error = try #require(throws: StrataError.self) { try state.migrated(by: migration) }
        #expect(error.code == .uniqueConstraintViolation)
        #expect(error.identifiers.map(\.primaryKey) == [1, 5])
        #expect(error.entity == "Voyage")

        let v3 = try Schema(entities: [
            Entity("Voyage") {
                Attribute("title", .string)
                Attribute("note", .string, default: "none")
                Relationship.toMany("stops", "Stop", inverse: "trip")
            }.renamed(from: "Trip"),
            Entity("Stop") {
                Attribute("name", .string)
                Relationship.toOne("trip", "Voyage", inverse: "stops")
            },
        ])
        let next = try state.migrated(by: SchemaMigration.lightweight(from: old, to: v3))
        #expect(next.record(v3.entities[0], 1) == StoredRecord(attributes: [.string("a"), .string("none")], links: [.many([2])]))
        #expect(next.record(v3.entities[1], 2) == StoredRecord(attributes: [.string("x")], links: [.one(1)]))
        #expect(next.nextPrimaryKey(v3.entities[0]) == 6)
    }
}

extension Entity {
    fileprivate func renamed(from name: String) -> Entity {
        var copy = self
        copy.originalName = name
        return copy
    }
}
