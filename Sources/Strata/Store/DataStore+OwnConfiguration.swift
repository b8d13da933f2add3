/// A configuration of unknown static type, checked once to be a store's own.
extension DataStore {
    /// `configuration` as this store's own configuration type; `invalidRequest` naming both types
    /// when it belongs to another backend (the migration entry points that take any configuration).
    @_spi(StrataEngine)
    public static func ownConfiguration(_ configuration: any DataStoreConfiguration) throws -> Configuration {
        guard let own = configuration as? Configuration else {
            throw StrataError(.invalidRequest, "A \(type(of: configuration)) does not open a \(Self.self).")
        }
        return own
    }
}
