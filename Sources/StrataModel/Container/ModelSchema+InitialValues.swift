@_spi(StrataEngine) import Strata

extension ModelSchema {
    /// The value the model property behind `entity.attribute` starts with when its initializer is
    /// not a literal (`= Date.now`), evaluated now; `nil` for a literal default (already the
    /// schema's), no initializer, or an entity or attribute these models do not have.
    func initialValue(_ entity: String, _ attribute: Attribute) -> Value? {
        infos[entity]?.properties.first { $0.name == attribute.name }?.initialValue?()
    }

    /// `schema` (a store schema of these models) with the models' non-literal initial values as
    /// the defaults of the required attributes `source` lacks or holds as optional: the schema a
    /// migration from `source` fills the records with; `nil` when there is nothing to fill.
    func filling(_ schema: Schema, from source: Schema) throws -> Schema? {
        try schema.filled(from: source) { initialValue($0, $1) }
    }
}
