@_spi(StrataEngine) import Strata

extension Schema {
    /// Whether this schema and `other` differ at most in their attributes' defaults: what Core
    /// Data's version hashes (and so SwiftData's versions) leave out, as a default changes no
    /// stored value.
    func differsOnlyInDefaults(from other: Schema) -> Bool {
        func stripped(_ schema: Schema) -> String? {
            let entities = schema.entities.map(\.declaration).map { entity -> Entity in
                var entity = entity
                for a in entity.attributes.indices { entity.attributes[a].defaultValue = nil }
                return entity
            }
            return (try? Schema(entities: entities))?.fingerprint
        }
        guard let mine = stripped(self) else { return false }
        return mine == stripped(other)
    }
}
