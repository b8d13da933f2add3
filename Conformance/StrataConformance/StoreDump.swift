import Foundation
@_spi(StrataEngine) import Strata

/// Prints a store's whole content as canonical JSON: the same layout for every backend, so two
/// stores can be compared with `diff`.
///
/// Entities appear in name order, records by primary key, attributes as `[type, payload]` (see
/// `Value`'s `Codable`), relationships as primary keys of the destination (`null` for an empty
/// to-one); unordered to-many lists are sorted, ordered ones keep their order.
public enum StoreDump {
    private struct Record: Encodable {
        var id: Int64
        var values: [String: Value]
        var relationships: [String: Link]
    }

    private enum Link: Encodable {
        case one(Int64?)
        case many([Int64])
        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .one(let k?): try c.encode(k)
            case .one(nil): try c.encodeNil()
            case .many(let ks): try c.encode(ks)
            }
        }
    }

    private struct Document: Encodable {
        var format = "strata-dump-1"
        var schema: String
        var entities: [String: [Record]]
    }

    /// The canonical JSON of everything `store` holds.
    public static func json<Store: DataStore>(_ store: Store) throws -> String {
        var entities: [String: [Record]] = [:]
        for entity in store.schema.entities {
            let snapshots = try store.fetch(FetchDescriptor(entity: entity.name))
            entities[entity.name] = snapshots.map { s in
                var values: [String: Value] = [:]
                for (i, a) in entity.attributes.enumerated() { values[a.name] = s.attributeValue(at: i) }
                var links: [String: Link] = [:]
                for (i, r) in entity.relationships.enumerated() {
                    let keys = s.relationshipValue(at: i).targets.map(\.primaryKey)
                    links[r.name] = r.isToMany ? .many(r.isOrdered ? keys : keys.sorted()) : .one(keys.first)
                }
                return Record(id: s.persistentIdentifier.primaryKey, values: values, relationships: links)
            }.sorted { $0.id < $1.id }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Document(schema: store.schema.fingerprint, entities: entities))
        return String(decoding: data, as: UTF8.self)
    }
}
