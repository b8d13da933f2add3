@_spi(StrataEngine) import Strata

/// Plain answers to `SQLRecordReader` from the mapping's fixed texts on `connection`, for a backend
/// that has nothing faster: `exists`, `targets`, `storedAttribute` and `storedRow` (every stored
/// column read as a `SQLValue` and compared with the attribute's encoding). A backend then writes
/// only `snapshot` and `committedRow`. SQLite has its own of each (`SQLiteSaveRecords`): its stored
/// row is compared in place, without building a value per column.
extension SQLRecordReader {
    /// One step of the mapping's `exists` text.
    @inlinable
    package func exists(_ entity: EntitySchema, _ key: Int64) throws -> Bool {
        let statement = try connection.prepare(mapping.texts[entity.index].exists)
        return try !statement.rows([.integer(key)]) { _ in () }.isEmpty
    }

    /// The mapping's `targets` text of relationship `r`.
    @inlinable
    package func targets(_ entity: EntitySchema, _ key: Int64, _ r: Int) throws -> [Int64] {
        try connection.prepare(mapping.texts[entity.index].targets[r]).rows([.integer(key)]) { $0.int64(0) }
    }

    /// Attribute `i`'s main column of the row the mapping's `selectByKey` reads.
    @inlinable
    package func storedAttribute(_ entity: EntitySchema, _ key: Int64, _ i: Int) throws -> SQLValue? {
        let bits = mapping.tables[entity.index].bitsColumns
        var column: Int32 = 1
        for j in 0..<i { column += bits[j] == nil ? 1 : 2 }
        let statement = try connection.prepare(mapping.texts[entity.index].selectByKey)
        return try statement.rows([.integer(key)]) { [column] in $0.value(column) }.first
    }

    /// The stored row by `selectByKey`, each attribute compared with its encoding
    /// (`SQLValueCodec.encode`, the `__bits` companion included): a value that compares different
    /// only costs a write; one that is different never compares equal. The to-many lists by their
    /// own queries.
    @inlinable
    package func storedRow(_ entity: EntitySchema, _ key: Int64, against attributes: [Value], targets: inout SQLStoredTargets) throws -> [Int]? {
        let table = mapping.tables[entity.index]
        let statement = try connection.prepare(mapping.texts[entity.index].selectByKey)
        let read = try statement.rows([.integer(key)]) { row -> (changed: [Int], ones: [Int64?]) in
            var changed: [Int] = []
            var column: Int32 = 1
            for (i, bits) in table.bitsColumns.enumerated() {
                if i < attributes.count {
                    let (main, companion) = SQLValueCodec.encode(attributes[i])
                    if row.value(column) != main || (bits != nil && row.value(column + 1) != companion) { changed.append(i) }
                } else {
                    changed.append(i)
                }
                column += bits == nil ? 1 : 2
            }
            var ones: [Int64?] = []
            for storage in table.relationships {
                guard case .column = storage else { continue }
                ones.append(row.isNull(column) ? nil : row.int64(column))
                column += 1
            }
            return (changed, ones)
        }
        guard let (changed, ones) = read.first else { return nil }
        var next = 0
        for (r, storage) in table.relationships.enumerated() {
            if case .column = storage {
                targets.append(one: ones[next])
                next += 1
            } else {
                targets.append(list: try self.targets(entity, key, r))
            }
        }
        return changed
    }
}
