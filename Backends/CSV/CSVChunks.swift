@_spi(StrataEngine) import Strata

/// How tables are cut into chunk files, and which chunks a save changed.
///
/// Rewriting a whole table for a one-record save makes the save cost O(store) (7.5 MB and 180 ms at
/// 100,000 records). Format 3 keeps every table as chunk files of `CSVChunks.keys` consecutive keys
/// (`Item@0` holds keys 1–1024, `Item@1` keys 1025–2048, …; a many-to-many table is cut by its left
/// key), so a save rewrites only the chunks holding what it changed, and every file is still a
/// whole, current CSV table a spreadsheet or Python's `csv` module reads at any time.
enum CSVChunks {
    /// Keys per chunk: small enough that a one-record save writes little, large enough that the
    /// manifest (one line per chunk) stays small (about 100 chunks at 100,000 records).
    static let keys: Int64 = 1024

    /// The chunk holding `key` (keys start at 1).
    static func chunk(_ key: Int64) -> Int64 { (key - 1) / keys }

    /// The first and last key of `chunk`.
    static func range(_ chunk: Int64) -> ClosedRange<Int64> { (chunk * keys + 1)...(chunk * keys + keys) }

    /// The manifest's name for a chunk of `table` (an entity or a pair).
    static func name(_ table: String, _ chunk: Int64) -> String { "\(table)@\(chunk)" }

    /// Splits a manifest name into its table and chunk; a format-1 or -2 name (a whole table) has
    /// no chunk.
    static func parse(_ name: String) -> (table: String, chunk: Int64?)? {
        guard let at = name.lastIndex(of: "@") else { return (name, nil) }
        guard let chunk = Int64(name[name.index(after: at)...]), chunk >= 0, chunk <= Int64.max / keys - 1 else { return nil }
        return (String(name[..<at]), chunk)
    }

    /// The chunks, by table name, whose rows differ between `commit.previous` and `commit.next`:
    /// those of every inserted, updated or deleted record; for an entity's order columns, those of
    /// the members of every changed ordered list; for a many-to-many, those of the changed left
    /// records and of the left members of changed right records whose side is ordered.
    ///
    /// A record leaving a list changes its own to-one (or its own list, for a many-to-many), so the
    /// members of the new lists are all a changed list can add.
    static func dirty(_ commit: CommitContext, _ layout: CSVLayout) -> [String: Set<Int64>] {
        let schema = layout.schema, changes = commit.changes, next = commit.next
        var dirty: [String: Set<Int64>] = [:]
        func mark(_ table: String, _ key: Int64) { dirty[table, default: []].insert(chunk(key)) }
        func present(_ entity: EntitySchema) -> [Int64] { changes.inserted[entity.index] + changes.updated[entity.index] }
        func markMembers(_ table: String, of entity: EntitySchema, _ relationship: Int) {
            for key in present(entity) {
                guard case .many(let members)? = next.record(entity, key)?.links[relationship] else { continue }
                for member in members { mark(table, member) }
            }
        }
        for entity in schema.entities {
            for key in present(entity) { mark(entity.name, key) }
            for key in changes.deleted[entity.index] { mark(entity.name, key) }
            for r in entity.relationships.indices where entity.relationships[r].isToMany && entity.relationships[r].isOrdered {
                let destination = schema.entities[entity.destinationIndices[r]]
                guard !destination.relationships[entity.inverseIndices[r]].isToMany else { continue }
                markMembers(destination.name, of: entity, r)
            }
        }
        for pair in layout.pairs {
            let left = pair.left.entity
            for key in present(left) { mark(pair.name, key) }
            for key in changes.deleted[left.index] { mark(pair.name, key) }
            if pair.right.entity.relationships[pair.right.relationship].isOrdered {
                markMembers(pair.name, of: pair.right.entity, pair.right.relationship)
            }
        }
        return dirty
    }

    /// Every chunk holding a record of each table: what a save rewrites when it migrates an older
    /// format.
    static func all(_ state: StoreState, _ layout: CSVLayout) -> [String: Set<Int64>] {
        var all: [String: Set<Int64>] = [:]
        for entity in layout.schema.entities {
            var chunks = Set<Int64>()
            state.forEachRecord(entity) { key, _ in
                chunks.insert(chunk(key))
                return true
            }
            all[entity.name] = chunks
        }
        for pair in layout.pairs { all[pair.name] = all[pair.left.entity.name] }
        return all
    }
}
