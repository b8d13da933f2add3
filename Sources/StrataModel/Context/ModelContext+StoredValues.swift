extension ModelContext {
    /// Checks that every stored value of `snapshot` fits its property's Swift type before the
    /// record becomes (or refreshes) an object.
    ///
    /// A property getter cannot throw, so a value the Swift type cannot represent — an enum case
    /// removed from the code, a `Codable` document of another shape, an `Int8` holding 1000 — is
    /// refused here, where the caller can handle it: `fetch`, `model(for:)`, `enumerate` and
    /// `upsert` throw `typeMismatch` naming the record, the property and the stored value. Only
    /// the attributes that can fail are checked (`ModelTypeInfo.checkedAttributes`); a model of
    /// core types only pays nothing.
    func checkRepresentable<T: PersistentModel>(_ snapshot: StoredSnapshot, as type: T.Type, info: ModelTypeInfo) throws {
        guard !info.checkedAttributes.isEmpty else { return }
        for (index, name, check) in info.checkedAttributes where index < snapshot.attributeCount {
            do { try check(snapshot.attribute(at: index)) } catch {
                let reason = (error as? StrataError)?.message ?? "\(error)"
                throw StrataError(
                    .typeMismatch, "\(T.self) \(snapshot.persistentIdentifier): the stored value of '\(name)' cannot be read as its Swift type. \(reason)",
                    entity: info.entityName, properties: [name], identifiers: [snapshot.persistentIdentifier])
            }
        }
    }
}
