import Foundation
import Strata
import StrataLMDB
import Testing

/// An LMDB database name is a key of the environment's main database, at most 511 bytes
/// (`mdb_env_get_maxkeysize`). The store names its databases after entities and properties
/// (`e.<entity>`, `u.<entity>.<properties>`, `i.…`, `r.<entity>.<relationship>`): a schema whose
/// names make one longer opens as a working store, never a crash or an untyped failure.
struct LMDBLongNameTests {
    /// A schema whose one name (by `shape`) is `length` bytes long.
    static func schema(_ shape: String, _ length: Int) throws -> Schema {
        let long = String(repeating: "n", count: length)
        switch shape {
        case "entity":
            return try Schema {
                Entity(long) { Attribute("name", .string, unique: true); Attribute("rank", .int, indexed: true) }
            }
        case "unique":
            let a = "a" + long, b = "b" + long
            return try Schema {
                Entity("Item") { Attribute(a, .string); Attribute(b, .string); UniqueConstraint(a, b) }
            }
        case "index":
            return try Schema {
                Entity("Item") { Attribute(long, .string, indexed: true); Attribute("name", .string) }
            }
        default:
            return try Schema {
                Entity("Owner") { Attribute("name", .string); Relationship.toMany(long, "Item", inverse: "owner") }
                Entity("Item") { Attribute("name", .string); Relationship.toOne("owner", "Owner", inverse: long) }
            }
        }
    }

    @Test(arguments: ["entity", "unique", "index", "relationship"], [400, 508, 509, 510, 600, 2_000])
    func longNamesMakeAWorkingStore(_ shape: String, _ length: Int) throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let schema = try Self.schema(shape, length)
        let entity = schema.entities[schema.entities.count - 1]
        var saved: [PersistentIdentifier] = []
        do {
            let store = try LMDBFileTests.open(dir, schema: schema)
            var inserts: [LMDBSnapshot] = []
            for n in 0..<3 {
                var values = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, Value.string("v\(n)")) })
                if entity.attributeIndex("rank") != nil { values["rank"] = .int(Int64(n)) }
                inserts.append(try LMDBSnapshot.inserting(entity, values: values))
            }
            saved = try store.save(SaveRequest(inserted: inserts)).remappedIdentifiers.permanentIdentifiers
            #expect(saved.count == 3, "\(shape) \(length)")
            var duplicateValues = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, Value.string("v0")) })
            if entity.attributeIndex("rank") != nil { duplicateValues["rank"] = .int(9) }
            let duplicate = try LMDBSnapshot.inserting(entity, values: duplicateValues)
            if shape == "entity" || shape == "unique" {
                let error = #expect(throws: StrataError.self, "\(shape) \(length): the unique constraint holds") { try store.save(SaveRequest(inserted: [duplicate])) }
                #expect(error?.code == .uniqueConstraintViolation, "\(shape) \(length): \(String(describing: error))")
            }
        }
        let store = try LMDBFileTests.open(dir, schema: schema)
        #expect(try store.fetchCount(FetchDescriptor(entity: entity.name)) == 3, "\(shape) \(length): reopened")
        let first = entity.attributes[0].name
        let found = try store.fetch(FetchDescriptor(entity: entity.name, predicate: .compare(PropertyPath([first]), .equal, .string("v1"))))
        #expect(found.map(\.persistentIdentifier) == [saved[1]], "\(shape) \(length): found by \(first.prefix(3))… == v1")
    }
}
