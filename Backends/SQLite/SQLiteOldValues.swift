@_spi(StrataEngine) import Strata

/// What each update of a save changed, as the row held it before the save: the changed attributes'
/// old values, read from the row the save already reads and compares in place on the writer
/// (`SQLiteRecords.storedRow`), inside the save's own write transaction. The save's history
/// (`SQLiteStore.recordHistory`) takes the old values from here and the new ones from the request,
/// so a recorded update reads nothing more than the save itself does.
///
/// One per store that records history, held by its reused save transaction's reader
/// (`SQLiteSaveRecords`); emptied at the start of every save. Only the writer, under the writer
/// lock, touches it.
final class SQLiteOldValues {
    /// Per update, in the order the save read them (the request's): the record's key and each
    /// changed attribute's index and stored value.
    private(set) var updates: [(key: Int64, old: [(index: Int, value: Value)])] = []

    /// Empty, for the next save.
    func removeAll() { updates.removeAll(keepingCapacity: true) }

    /// Keeps the stored values of the `changed` attributes of record `key`, from the row `statement`
    /// is on; `columns` says which attributes have a `__bits` companion (two columns).
    func keep(_ key: Int64, _ changed: [Int], from statement: SQLiteStatement, layout: SQLiteRowLayout, columns: [String?], file: String) throws {
        var old: [(index: Int, value: Value)] = []
        old.reserveCapacity(changed.count)
        var column: Int32 = 1, next = 0
        for (i, bits) in columns.enumerated() where next < changed.count {
            if changed[next] == i {
                old.append((i, try layout.attribute(i, of: statement, at: column, file: file)))
                next += 1
            }
            column += bits == nil ? 1 : 2
        }
        updates.append((key, old))
    }
}
