@_spi(StrataEngine) import Strata

extension Schema {
    /// This schema with a default on each required attribute that has none and that `source` lacks
    /// or holds as optional: the value `fill` gives for it (entity name, attribute), none where it
    /// gives `nil`. What a migration puts into the stored records that have no value for such an
    /// attribute; `nil` when no attribute was filled.
    ///
    /// A custom stage fills the type's zero (`didMigrate` sets the real values); any migration
    /// fills the value of a model's non-literal initializer (`= Date.now`, `= .normal`), as
    /// SwiftData fills the default it evaluates.
    func filled(from source: Schema, _ fill: (String, Attribute) -> Value?) throws -> Schema? {
        var entities = self.entities.map(\.declaration)
        var changed = false
        for e in entities.indices {
            let old = source.entity(named: entities[e].originalName ?? entities[e].name)
            for a in entities[e].attributes.indices {
                let attribute = entities[e].attributes[a]
                guard !attribute.isOptional, attribute.defaultValue == nil else { continue }
                let before = old.flatMap { o in (attribute.originalName.flatMap(o.attributeIndex) ?? o.attributeIndex(attribute.name)).map { o.attributes[$0] } }
                if let before, !before.isOptional { continue }
                guard let value = fill(entities[e].name, attribute), !value.isNull else { continue }
                entities[e].attributes[a].defaultValue = value
                changed = true
            }
        }
        return changed ? try Schema(entities: entities, version: version) : nil
    }
}
