import Foundation

/// Which entities each of several `ModelConfiguration`s holds, and the part of the container's
/// schema each of their stores is opened with (docs/models.md, "Several configurations").
///
/// An entity goes to the first configuration whose schema was made from its type
/// (`Schema([Trip.self])` names `Trip`), else to the first whose schema reaches it through a
/// relationship, else to the first configuration with no schema. A relationship may not join
/// entities of two stores: Core Data, under SwiftData, keeps no relationships between stores
/// (Apple's "Linking Data Between Two Core Data Stores" links them with a fetched property
/// instead), so such a schema is refused when the container opens.
struct ModelConfigurationGroups {
    /// What the grouping needs to know of one configuration.
    struct Member {
        let name: String
        let schema: Schema?
        /// Where the store lives, when the configuration says (two members may not share one).
        let location: String?
    }

    /// The positions (in the configurations given) of those that hold at least one entity.
    let holders: [Int]
    /// For each of `holders`, its part of the container's schema.
    let schemas: [Schema]

    /// Groups SwiftData `ModelConfiguration`s.
    init(_ given: [ModelConfiguration], schema: Schema) throws {
        try self.init(members: given.map { Member(name: $0.name, schema: $0.schema, location: $0.isStoredInMemoryOnly ? nil : $0.url.standardizedFileURL.path) }, schema: schema)
    }

    /// - Throws: `invalidSchema` for an entity no configuration holds, or a relationship between
    ///   entities of two configurations; `invalidRequest` for two configurations of one location.
    init(members given: [Member], schema: Schema) throws {
        var locations: [String: String] = [:]
        for c in given {
            guard let path = c.location else { continue }
            if let other = locations.updateValue(c.name, forKey: path) {
                throw StrataError(.invalidRequest, "Configurations '\(other)' and '\(c.name)' both store at \(path); give each configuration a store of its own (a name or url).")
            }
        }
        let named = given.map { c in Set(c.schema.flatMap { ModelTypeRegistry.entry(for: $0)?.types.map { $0.entityName } } ?? []) }
        let reached = given.map { c in c.schema.map { Set($0.entities.map(\.name)) } }
        var holder: [String: Int] = [:]
        for entity in schema.entities {
            let index = named.firstIndex { $0.contains(entity.name) }
                ?? reached.firstIndex { $0?.contains(entity.name) == true }
                ?? reached.firstIndex { $0 == nil }
            guard let index else {
                throw StrataError(.invalidSchema, "No configuration holds entity '\(entity.name)': each configuration's schema leaves it out. Add its type to one configuration's Schema, or give one configuration no schema to hold the rest.", entity: entity.name)
            }
            holder[entity.name] = index
        }
        for entity in schema.entities {
            for (r, relationship) in entity.relationships.enumerated() {
                let here = holder[entity.name]!, there = holder[entity.destinationNames[r]]!
                guard here == there else {
                    throw StrataError(.invalidSchema, "\(entity.name).\(relationship.name) joins configuration '\(given[here].name)' to '\(given[there].name)' (entity '\(entity.destinationNames[r])'); a relationship cannot cross stores, as in SwiftData and Core Data. Put both entities in one configuration, or store an identifier instead of the relationship.", entity: entity.name, properties: [relationship.name])
                }
            }
        }
        var holders: [Int] = []
        var schemas: [Schema] = []
        for i in given.indices {
            let entities = schema.entities.filter { holder[$0.name] == i }.map(\.declaration)
            guard !entities.isEmpty else { continue }
            holders.append(i)
            schemas.append(try Schema(entities: entities, version: schema.version))
        }
        // A schema of no entities (`Schema([])`): the first configuration opens it, empty.
        self.holders = holders.isEmpty ? [0] : holders
        self.schemas = holders.isEmpty ? [schema] : schemas
    }
}
