/// Lightweight inference: the difference between two schemas as a change list a store can apply
/// without application code, or a refusal naming what needs a custom stage.
extension SchemaMigration {
    /// Infers the migration from `source` to `destination`.
    ///
    /// An entity, attribute or relationship matches the source one of its `originalName`, or else
    /// of its own name. Lightweight: adding and removing entities, attributes (a new required one
    /// needs a default), relationships (a new to-one must be optional, a new to-many may not have a
    /// minimum), renames, optional → required with a default, required → optional, delete rules,
    /// order and count bounds of a to-many, unique constraints and indexes.
    ///
    /// - Throws: `migrationRequired` before anything is written, when a change needs code: an
    ///   attribute's type changes, a required attribute has no default to fill, a relationship
    ///   changes between to-one and to-many or points to another entity, a to-one becomes required.
    ///   The error names the first entity and property; the message lists every such change.
    public static func lightweight(from source: Schema, to destination: Schema) throws -> SchemaMigration {
        var changes: [SchemaChange] = []
        var refusals: [(entity: String, property: String, why: String)] = []
        var mappings: [EntityMapping] = []
        var usedSources = Set<Int>()

        func sourceIndex(of entity: Entity) -> Int? {
            if let original = entity.originalName, let e = source.entity(named: original) { return e.index }
            return source.entity(named: entity.name)?.index
        }
        // Source entity name → destination entity name, to follow relationship destinations.
        var entityRename: [String: String] = [:]
        for e in destination.entities {
            if let s = sourceIndex(of: e.declaration), !usedSources.contains(s) {
                usedSources.insert(s)
                entityRename[source.entities[s].name] = e.name
            }
        }
        usedSources.removeAll()
        for s in source.entities where !destination.entities.contains(where: { sourceIndex(of: $0.declaration) == s.index }) {
            changes.append(.removeEntity(s.name))
        }
        for e in destination.entities {
            guard let s = sourceIndex(of: e.declaration), usedSources.insert(s).inserted else {
                changes.append(.addEntity(e.name))
                mappings.append(EntityMapping(
                    source: nil, attributes: e.attributes.map { .constant($0.defaultValue ?? .null) },
                    relationships: e.relationships.map { _ in nil }))
                continue
            }
            let old = source.entities[s]
            if old.name != e.name { changes.append(.renameEntity(from: old.name, to: e.name)) }

            // Attributes.
            var attributeMappings: [AttributeMapping] = []
            var propertyRename: [String: String] = [:]
            var usedAttributes = Set<Int>()
            for a in e.attributes {
                let from = a.originalName.flatMap(old.attributeIndex) ?? old.attributeIndex(a.name)
                guard let i = from, usedAttributes.insert(i).inserted else {
                    if let d = a.defaultValue, !d.isNull {
                        attributeMappings.append(.constant(d))
                    } else if a.isOptional {
                        attributeMappings.append(.constant(.null))
                    } else {
                        refusals.append((e.name, a.name, "the new required attribute '\(e.name).\(a.name)' has no default to give the stored records; give it a default, make it optional, or fill it in a custom stage"))
                        attributeMappings.append(.constant(.null))
                    }
                    changes.append(.addAttribute(entity: e.name, attribute: a.name))
                    continue
                }
                let was = old.attributes[i]
                propertyRename[was.name] = a.name
                if was.name != a.name { changes.append(.renameAttribute(entity: e.name, from: was.name, to: a.name)) }
                if was.type != a.type {
                    refusals.append((e.name, a.name, "'\(e.name).\(a.name)' changes type from \(was.type.rawValue) to \(a.type.rawValue); convert the values in a custom stage"))
                }
                if was.isOptional && !a.isOptional {
                    if let d = a.defaultValue, !d.isNull {
                        changes.append(.makeAttributeRequired(entity: e.name, attribute: a.name))
                        attributeMappings.append(.copyFillingNil(i, d))
                    } else {
                        refusals.append((e.name, a.name, "'\(e.name).\(a.name)' becomes required without a default for the records that hold nil; give it a default or fill it in a custom stage"))
                        attributeMappings.append(.copy(i))
                    }
                } else {
                    if !was.isOptional && a.isOptional { changes.append(.makeAttributeOptional(entity: e.name, attribute: a.name)) }
                    attributeMappings.append(.copy(i))
                }
                if was.defaultValue != a.defaultValue && !(was.isOptional && !a.isOptional) {
                    changes.append(.changeAttributeDefault(entity: e.name, attribute: a.name))
                }
            }
            for (i, was) in old.attributes.enumerated() where !usedAttributes.contains(i) {
                changes.append(.removeAttribute(entity: old.name, attribute: was.name))
            }

            // Relationships.
            var relationshipMappings: [Int?] = []
            var usedRelationships = Set<Int>()
            for r in e.relationships {
                var from = r.originalName.flatMap(old.relationshipIndex) ?? old.relationshipIndex(r.name)
                if let i = from, usedRelationships.contains(i) { from = nil }
                if let i = from {
                    let was = old.relationships[i]
                    if was.isToMany != r.isToMany {
                        refusals.append((e.name, r.name, "'\(e.name).\(r.name)' changes from \(was.isToMany ? "to-many" : "to-one") to \(r.isToMany ? "to-many" : "to-one"); move the links in a custom stage"))
                    } else if entityRename[was.destination] != r.destination {
                        refusals.append((e.name, r.name, "'\(e.name).\(r.name)' now points to \(r.destination) instead of \(was.destination); move the links in a custom stage"))
                    }
                }
                guard let i = from else {
                    if !r.isToMany && !r.isOptional {
                        refusals.append((e.name, r.name, "the new required to-one '\(e.name).\(r.name)' would be empty in every stored record; make it optional or set it in a custom stage"))
                    } else if r.isToMany, let lo = r.minCount, lo > 0 {
                        refusals.append((e.name, r.name, "the new to-many '\(e.name).\(r.name)' needs at least \(lo) targets, which stored records lack; fill it in a custom stage"))
                    }
                    changes.append(.addRelationship(entity: e.name, relationship: r.name))
                    relationshipMappings.append(nil)
                    continue
                }
                usedRelationships.insert(i)
                let was = old.relationships[i]
                propertyRename[was.name] = r.name
                relationshipMappings.append(i)
                if was.name != r.name { changes.append(.renameRelationship(entity: e.name, from: was.name, to: r.name)) }
                if was.deleteRule != r.deleteRule { changes.append(.changeDeleteRule(entity: e.name, relationship: r.name, from: was.deleteRule, to: r.deleteRule)) }
                if was.isOrdered != r.isOrdered || was.minCount != r.minCount || was.maxCount != r.maxCount {
                    changes.append(.changeRelationshipOptions(entity: e.name, relationship: r.name))
                }
                if !r.isToMany && was.isOptional != r.isOptional {
                    if r.isOptional {
                        changes.append(.makeRelationshipOptional(entity: e.name, relationship: r.name))
                    } else {
                        refusals.append((e.name, r.name, "the to-one '\(e.name).\(r.name)' becomes required, and stored records may have it empty; set it in a custom stage"))
                    }
                }
            }
            for (i, was) in old.relationships.enumerated() where !usedRelationships.contains(i) {
                changes.append(.removeRelationship(entity: old.name, relationship: was.name))
            }

            // Unique constraints and indexes, compared by destination property names.
            func renamed(_ refs: [PropertyReference]) -> [String]? {
                var names: [String] = []
                for ref in refs {
                    guard let n = propertyRename[old.name(of: ref)] else { return nil }
                    names.append(n)
                }
                return names
            }
            let oldUniques = old.uniqueConstraints.compactMap(renamed)
            let newUniques = e.uniqueConstraints.map { $0.map(e.name(of:)) }
            for u in oldUniques where !newUniques.contains(u) { changes.append(.removeUniqueConstraint(entity: e.name, properties: u)) }
            for u in newUniques where !oldUniques.contains(u) { changes.append(.addUniqueConstraint(entity: e.name, properties: u)) }
            let oldIndexes = old.indexes.compactMap(renamed)
            let newIndexes = e.indexes.map { $0.map(e.name(of:)) }
            for i in oldIndexes where !newIndexes.contains(i) { changes.append(.removeIndex(entity: e.name, properties: i)) }
            for i in newIndexes where !oldIndexes.contains(i) { changes.append(.addIndex(entity: e.name, properties: i)) }

            mappings.append(EntityMapping(source: s, attributes: attributeMappings, relationships: relationshipMappings))
        }
        if let first = refusals.first {
            throw StrataError(
                .migrationRequired,
                "The change from schema \(source.version) to \(destination.version) cannot be inferred (a lightweight migration); it needs a custom stage: " + refusals.map(\.why).joined(separator: "; ") + ".",
                entity: first.entity, properties: [first.property])
        }
        // Declaration order alone (the fingerprint covers it) is a change too: rewrite the record.
        return SchemaMigration(source: source, destination: destination, changes: changes, entities: mappings)
    }
}
