/// The error for a write to a store opened read-only, written once for every backend.
extension StrataError {
    /// The error for `action` (e.g. "save", "delete history") on `store` (e.g. "SQLite store",
    /// "memory store 'cache'"), which was opened read-only; `file` names its files or its name.
    public static func readOnly(_ store: String, toDo action: String, file: String?) -> StrataError {
        StrataError(.readOnlyStore, "This \(store) was opened read-only; open it without `isReadOnly` to \(action).", file: file)
    }
}
