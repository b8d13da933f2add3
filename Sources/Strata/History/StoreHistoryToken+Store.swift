/// The rule that a history token is used only with the store that issued it, written once for every
/// backend (fetching history and deleting it).
extension StoreHistoryToken {
    /// Checks that this token was issued by the store `storeIdentifier` names.
    ///
    /// - Throws: `invalidRequest` for another store's token.
    public func requireStore(_ storeIdentifier: String) throws {
        guard self.storeIdentifier == storeIdentifier else {
            throw StrataError(.invalidRequest, "The history token \(self) belongs to another store than '\(storeIdentifier)'.")
        }
    }
}
