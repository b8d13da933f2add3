/// SQL text every connection prepares once and keeps, with the slot its statement lives in.
///
/// The hot statements (a fetch by key, transaction control, the save's INSERT and UPDATE) are found
/// by slot, an array index, instead of by hashing their text on every call. Slots are handed out
/// when a store's mapping is built; one connection serves one store, so slots never collide.
@usableFromInline package struct SQLText: Sendable {
    /// The statement's text.
    @usableFromInline package let sql: String
    /// Where a connection keeps the prepared statement.
    @usableFromInline package let slot: Int

    /// `BEGIN`: a reader's consistent snapshot over several statements.
    @usableFromInline package static let begin = SQLText(sql: "BEGIN", slot: 0)
    /// `BEGIN IMMEDIATE`: a save takes the write lock at once.
    @usableFromInline package static let beginImmediate = SQLText(sql: "BEGIN IMMEDIATE", slot: 1)
    /// `COMMIT`.
    @usableFromInline package static let commit = SQLText(sql: "COMMIT", slot: 2)
    /// `ROLLBACK`.
    @usableFromInline package static let rollback = SQLText(sql: "ROLLBACK", slot: 3)
    /// The recorded schema fingerprint (`SQLRecordReader.recordedFingerprint`).
    @usableFromInline package static let recordedFingerprint = SQLText(sql: "SELECT \"value\" FROM \"strata_metadata\" WHERE \"key\" = 'fingerprint'", slot: 4)
    /// A SQLite save's history row (`SQLiteHistory.append`): found by slot, not by hashing its text
    /// on every save (1,200 instructions).
    @usableFromInline package static let historyInsert = SQLText(sql: "INSERT INTO \"strata_history\" (\"token\", \"author\", \"transaction\") VALUES (?, ?, ?)", slot: 5)
    /// The first slot a mapping may use.
    @usableFromInline package static let firstMappingSlot = 6
}

/// Hands out consecutive slots while a mapping builds its texts.
@usableFromInline package struct SQLTextSlots {
    /// The slot the next text gets.
    @usableFromInline package private(set) var next = SQLText.firstMappingSlot

    @usableFromInline package init() {}

    /// `sql` with the next free slot.
    @usableFromInline package mutating func text(_ sql: String) -> SQLText {
        defer { next += 1 }
        return SQLText(sql: sql, slot: next)
    }
}
