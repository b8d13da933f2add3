@_spi(StrataEngine) import Strata

/// What a save knows, without asking the database, about the rows it inserted: their to-one columns hold
/// what their INSERTs wrote, and the list of a record inserted in this save holds exactly the rows
/// whose INSERTs pointed at it, in the order the INSERTs ran.
///
/// Why: a save that inserts owners and their items (the model layer's insert: items appended to
/// `owner.items`, an ordered to-many) read back, per item, the owner column its INSERT had just
/// written, and per owner the whole list twice — to put it in order and to build the save result.
/// That was 164 M instructions of a 10,100-record save, more than the INSERTs themselves.
///
/// The knowledge holds only while nothing else can have changed a column or a list: no to-one
/// column set after the INSERTs (`columnWrites`), no value held back, no row deleted. Every read
/// falls back to SQL otherwise, so the result is the same either way.
extension SQLSaveTransaction {
    /// Records that the INSERT of `member` put it in the list `r` of `owner` (of entity `entity`),
    /// after the members inserted before it. Only lists of records inserted in this save are
    /// kept: any other list also holds rows stored before the save.
    @inlinable package func noteInsertedMember(_ member: Int64, ofList r: Int, of owner: Int64, entity: Int) {
        guard isInserted(Key(entity: entity, key: owner)) else { return }
        let list = ListKey(entity: entity, key: owner, r: r)
        if let last = lastInsertedList, last.key == list {
            insertedMembers.values[last.index].append(member)
            return
        }
        insertedMembers[list, default: []].append(member)
        lastInsertedList = (list, insertedMembers.index(forKey: list)!)
    }

    /// Whether the rows the save inserted are still as their INSERTs wrote them: nothing set a
    /// to-one column, held a value back or deleted a row since.
    @inlinable package var insertsAreAsWritten: Bool { columnWrites == 0 && intended.isEmpty && pending.isEmpty && deletedSet.isEmpty }

    /// To-one column `r` of a row this save inserted, as its INSERT wrote it; `nil` when that is
    /// not known (not inserted here, or changed since), and the caller asks the database.
    @inlinable package func insertedColumn(_ k: Key, _ r: Int) -> Int64?? {
        guard insertsAreAsWritten, isInserted(k), let first = firstInserted[k.entity], let w = insertedWrite(k.entity, Int(k.key - first)) else { return nil }
        // The INSERT wrote the to-ones it set itself (`directWritten`); the others are NULL.
        guard w.directWritten.contains(r), case .one(let target) = w.links[r] else { return .some(nil) }
        return .some(target)
    }

    /// The members of list `r` of a record this save inserted, in list order, when the INSERTs
    /// alone made it (`nil` otherwise, and the caller asks the database).
    @inlinable package func insertedList(_ entity: EntitySchema, _ key: Int64, _ r: Int) -> [Int64]? {
        guard insertsAreAsWritten, isInserted(Key(entity: entity.index, key: key)) else { return nil }
        guard case .inverseColumn = mapping.tables[entity.index].relationships[r] else { return nil }
        return insertedMembers[ListKey(entity: entity.index, key: key, r: r)] ?? []
    }

    /// A record's relationships as they stand now, when every one of them is known without SQL.
    @inlinable package func insertedTargets(_ k: Key) -> [[Int64]]? {
        let entity = entities[k.entity]
        var now: [[Int64]] = []
        now.reserveCapacity(entity.relationships.count)
        for r in entity.relationships.indices {
            if case .column = mapping.tables[k.entity].relationships[r] {
                guard let target = insertedColumn(k, r) else { return nil }
                now.append(target.map { [$0] } ?? [])
            } else {
                guard let list = insertedList(entity, k.key, r) else { return nil }
                now.append(list)
            }
        }
        return now
    }
}

/// A list: relationship `r` of record `key` of entity `entity`.
@usableFromInline package struct SQLListKey: Hashable {
    @usableFromInline package let entity: Int
    @usableFromInline package let key: Int64
    @usableFromInline package let r: Int

    @inlinable
    package init(entity: Int, key: Int64, r: Int) {
        self.entity = entity
        self.key = key
        self.r = r
    }
}
