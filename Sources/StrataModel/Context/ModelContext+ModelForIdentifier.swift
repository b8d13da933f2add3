extension ModelContext {
    /// The model of `persistentModelID`, typed as SwiftData types it: `context.model(for: id) as? Note`.
    ///
    /// The registered object, a pending insert with that identifier, or a new object for the record
    /// the store holds, made as the class the container's schema gives its entity. When there is no
    /// such object — the store holds no such record, the entity is not in the container's schema, or
    /// the record cannot be read — the result is a placeholder of no model type, carrying the
    /// identifier, so `as? Note` is `nil`. SwiftData instead returns a `Note` whose properties stop
    /// the program when read; a failed cast is the loud, recoverable form of that. For the error
    /// itself, use `model(for:as:)`, which throws it.
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        if let known = registered[persistentModelID] { return known }
        if let new = inserted.first(where: { $0.persistentModelID == persistentModelID }) { return new }
        guard let info = container.modelSchema.infos[persistentModelID.entityName] else { return MissingModel(persistentModelID) }
        func typed<T: PersistentModel>(_ type: T.Type) throws -> any PersistentModel { try model(for: persistentModelID, as: type) }
        do {
            return try typed(info.type)
        } catch let error as StrataError where error.code == .typeMismatch {
            unreadableRecords[persistentModelID] = error
            return MissingModel(persistentModelID)
        } catch {
            return MissingModel(persistentModelID)
        }
    }
}

/// What `model(for:)` returns for an identifier with no object: a model of no entity, so a cast to
/// any model class fails. Never registered, inserted or saved.
final class MissingModel: PersistentModel {
    let persistentBackingData: ModelBackingData
    static var schemaMetadata: [ModelPropertyMetadata] { [] }
    static var schemaConstraints: ModelConstraints { ModelConstraints(unique: [], indexes: []) }
    static func propertyName(for keyPath: AnyKeyPath) -> String? { nil }
    static func _$keyPath(_ ordinal: Int, optionalRoot: Bool) -> AnyKeyPath? { nil }

    init(_ id: PersistentIdentifier) {
        persistentBackingData = ModelBackingData(for: MissingModel.self)
        persistentBackingData.persistentModelID = id
    }
    init(_$fetched backingData: ModelBackingData) { persistentBackingData = backingData }
    func _$encode(_ ordinal: Int) -> _PropertyValue { .stored }
    func _$assign(_ ordinal: Int, _ value: Value) throws {}
    func _$refault() {}
    func _$inverse(_ ordinal: Int, _ change: _InverseChange) {}
}
