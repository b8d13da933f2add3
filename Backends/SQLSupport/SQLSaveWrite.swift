@_spi(StrataEngine) import Strata

/// One inserted or updated record of a save (`SQLSaveTransaction`). A class: the save's phases pass
/// each write around many times, and copying a struct of five arrays retained and released every one
/// of them. Not generic, so its metadata is built once whatever the backend.
package final class SQLSaveWrite {
    package let entity: EntitySchema
    package let key: Int64
    package let isInsert: Bool
    package let attributes: [Value]
    package let links: [Link]
    /// An update's lists as stored before the save: its base in the transaction's
    /// `storedTargets`. `nil` for an insert, which had none.
    package let stored: Int?
    /// An update's attributes whose columns differ from the row as stored before the save
    /// (`SQLRecordReader.storedRow`): only those are written. Empty for an insert.
    package let changed: [Int]
    /// An insert's to-ones its INSERT wrote itself (`writeAttributes`): for those, the row
    /// holds `links` already. Kept instead of copying them into `stored`, which cost two
    /// arrays per inserted row.
    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md)
    @exclusivity(unchecked)
    #endif
    package var directWritten: [Int] = []

    @inlinable
    package init(entity: EntitySchema, key: Int64, isInsert: Bool, attributes: [Value], links: [Link], stored: Int?, changed: [Int] = []) {
        self.entity = entity
        self.key = key
        self.isInsert = isInsert
        self.attributes = attributes
        self.links = links
        self.stored = stored
        self.changed = changed
    }
}

/// Which INSERT or UPDATE a row write needs: the entity, the to-one columns an insert sets itself,
/// and the attributes an update changes (empty for an insert, which sets them all). The save keeps
/// one prepared statement per shape (`SQLSaveTransaction.rowStatements`).
package struct SQLRowShape: Hashable {
    package let entity: Int
    package let insert: Bool
    package let direct: [Int]
    package let attributes: [Int]

    @inlinable
    package init(entity: Int, insert: Bool, direct: [Int], attributes: [Int]) {
        self.entity = entity
        self.insert = insert
        self.direct = direct
        self.attributes = attributes
    }
}
