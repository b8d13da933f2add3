@_spi(StrataEngine) import Strata

/// One inserted or updated record of a save (`SQLSaveTransaction`). A class: the save's phases pass
/// each write around many times, and copying a struct of five arrays retained and released every one
/// of them. Not generic, so its metadata is built once whatever the backend.
@usableFromInline package final class SQLSaveWrite {
    @usableFromInline package let entity: EntitySchema
    @usableFromInline package let key: Int64
    @usableFromInline package let isInsert: Bool
    @usableFromInline package let attributes: [Value]
    @usableFromInline package let links: [SQLLink]
    /// An update's lists as stored before the save: its base in the transaction's
    /// `storedTargets`. `nil` for an insert, which had none.
    @usableFromInline package let stored: Int?
    /// An update's attributes whose columns differ from the row as stored before the save
    /// (`SQLRecordReader.storedRow`): only those are written. Empty for an insert.
    @usableFromInline package let changed: [Int]
    /// An insert's to-ones its INSERT wrote itself (`writeAttributes`): for those, the row
    /// holds `links` already. Kept instead of copying them into `stored`, which cost two
    /// arrays per inserted row.
    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md)
    @exclusivity(unchecked)
    #endif
    @usableFromInline package var directWritten: [Int] = []

    @inlinable
    package init(entity: EntitySchema, key: Int64, isInsert: Bool, attributes: [Value], links: [SQLLink], stored: Int?, changed: [Int] = []) {
        self.entity = entity
        self.key = key
        self.isInsert = isInsert
        self.attributes = attributes
        self.links = links
        self.stored = stored
        self.changed = changed
    }
}

/// The targets of one relationship of a save's write, as keys of the destination entity: the
/// engine's `Link` as the layer's inlinable code can name it (`Link` is the core's SPI, which
/// `@inlinable` code of another module cannot use; inlinable is what lets a backend specialise the
/// save). Converted to and from `Link` only for a partial update's merge (`UpdatedProperties.merged`).
@usableFromInline package enum SQLLink: Hashable {
    /// A to-one target, or `nil`.
    case one(Int64?)
    /// To-many targets, in order.
    case many([Int64])

    /// The targets as a list.
    @inlinable package var keys: [Int64] {
        switch self {
        case .one(let k): k.map { [$0] } ?? []
        case .many(let ks): ks
        }
    }

    /// The core's link of the same targets.
    package var link: Link {
        switch self {
        case .one(let k): .one(k)
        case .many(let ks): .many(ks)
        }
    }

    /// The layer's link of the same targets as the core's `link`.
    package init(_ link: Link) {
        switch link {
        case .one(let k): self = .one(k)
        case .many(let ks): self = .many(ks)
        }
    }
}

/// Which INSERT or UPDATE a row write needs: the entity, the to-one columns an insert sets itself,
/// and the attributes an update changes (empty for an insert, which sets them all). The save keeps
/// one prepared statement per shape (`SQLSaveTransaction.rowStatements`).
@usableFromInline package struct SQLRowShape: Hashable {
    @usableFromInline package let entity: Int
    @usableFromInline package let insert: Bool
    @usableFromInline package let direct: [Int]
    @usableFromInline package let attributes: [Int]

    @inlinable
    package init(entity: Int, insert: Bool, direct: [Int], attributes: [Int]) {
        self.entity = entity
        self.insert = insert
        self.direct = direct
        self.attributes = attributes
    }
}
