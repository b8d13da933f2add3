import CSQLite
import Foundation
@_spi(StrataEngine) import Strata

/// Rows of one entity as SQLite gave them, one after another in one heap block of 8-byte words:
/// what `SQLiteSnapshot` keeps of a fetched record, so that a value is decoded only when it is read.
///
/// A row at word `o` is a null mask (bit `i` for attribute `i`, bit `attributes + r` for
/// relationship `r`), one word per attribute, one per relationship, then the text columns' bytes
/// (padded to a word). An attribute's word holds its integer (bools, ints) or its double's bits
/// (doubles, dates: the `__bits` companion already applied, `SQLiteColumnReads.real`); a text
/// column's word holds where its bytes start in the block (in bytes) and how many there are; a
/// to-one's word holds the target's key. What cannot be kept as a word is decoded when the row is
/// read, into the header's arrays, and the word holds its index there: an attribute read through
/// `SQLiteValueCodec.decodePresent` (blobs, URLs, UUIDs, and doubles or dates without a companion),
/// which can find a damaged value and must throw then, from the fetch; and a to-many's list, read by
/// its own query. So reading a value later cannot fail, and decodes exactly what the eager reading
/// (`SQLiteRowLayout.snapshot`) gives: a text column's bytes are repaired as `String(decoding:as:)`
/// repairs them in both.
///
/// Immutable once the fetch hands its snapshots over; a scan fills blocks of `blockSize` words, so
/// a kept snapshot keeps at most its block (and the block's decoded extras) alive.
final class SQLiteRows: ManagedBuffer<SQLiteRows.Header, UInt64> {
    /// A scan's block size, in words (32 KiB, as `LMDBBytes.blockSize`): large enough that its
    /// allocation is a small part of a row's cost, small enough that one kept snapshot does not
    /// hold much memory and that glibc serves it from the heap (blocks of 256 KiB were mapped and
    /// unmapped one by one, which moved glibc's mapping threshold and cost a later step's saves
    /// a heap consolidation: +15 % on unique-violation).
    static let blockWords = 4 << 10

    /// The entity of every row, how its columns are read, the store identifier every identifier
    /// names, how full the block is, and the values decoded when the row was read.
    struct Header {
        let layout: SQLiteRowLayout
        let storeIdentifier: String
        var used: Int
        let capacity: Int
        /// Attributes decoded when their row was read (`SQLiteRowLayout.Read.checked`).
        var checked: [Value] = []
        /// To-many lists, read with their row.
        var lists: [RelationshipValue] = []
    }

    /// A new empty block of `capacity` words.
    static func make(capacity: Int, layout: SQLiteRowLayout, storeIdentifier: String) -> SQLiteRows {
        let buffer = create(minimumCapacity: capacity) { _ in Header(layout: layout, storeIdentifier: storeIdentifier, used: 0, capacity: capacity) }
        return unsafeDowncast(buffer, to: SQLiteRows.self)
    }

    /// How many words the row `s` is on takes (its fixed part and its text columns' bytes).
    static func words(_ s: SQLiteStatement, _ layout: SQLiteRowLayout) -> Int {
        var words = 1 + layout.reads.count + layout.relationshipQueries.count
        var column: Int32 = 1
        for read in layout.reads {
            switch read {
            case .string:
                if sqlite3_column_text(s.handle, column) != nil { words += (Int(sqlite3_column_bytes(s.handle, column)) + 7) >> 3 }
            case .double, .date: column += 1
            default: break
            }
            column += 1
        }
        return words
    }

    /// Copies the row `s` is on to the end of the block and returns the word it starts at, or `nil`
    /// (the block's rows left as they were) when it does not fit. `layout` is the block's (passed
    /// in: reading it from the header copied its arrays, a dozen retains a row); `targets` reads a
    /// to-many's keys.
    ///
    /// - Throws: what reading a column throws (`SQLiteValueCodec.decodePresent`: a damaged value;
    ///   `SQLITE_NOMEM` for a text SQLite could not produce), as the eager reading does.
    @inline(__always)
    func append(_ s: SQLiteStatement, _ layout: SQLiteRowLayout, file: String, targets: (Int, Int64) throws -> [Int64]) throws -> Int? {
        let handle = s.handle
        let reads = layout.reads, queries = layout.relationshipQueries
        let attributes = reads.count, relationships = queries.count
        return try withUnsafeMutablePointers { header, words in
            let row = SQLiteColumnReads(handle)
            let start = header.pointee.used
            let capacity = header.pointee.capacity
            let fixed = 1 + attributes + relationships
            guard capacity - start >= fixed else { return nil }
            var end = start + fixed
            var nulls: UInt64 = 0
            var column: Int32 = 1
            var slot = words + start + 1
            var i = 0
            while i < attributes {
                var word: UInt64 = 0
                switch reads[i] {
                case .bool, .int:
                    if let v = row.int64OrNil(column) { word = UInt64(bitPattern: v) } else { nulls |= 1 << i }
                case .string:
                    if let pointer = sqlite3_column_text(handle, column) {
                        let count = Int(sqlite3_column_bytes(handle, column))
                        let needed = (count + 7) >> 3
                        guard capacity - end >= needed else { return nil }
                        if count > 0 { UnsafeMutableRawPointer(words + end).copyMemory(from: pointer, byteCount: count) }
                        word = UInt64(end) << 35 | UInt64(count)
                        end += needed
                    } else if row.isNull(column) {
                        nulls |= 1 << i
                    } else {
                        throw SQLiteError(code: SQLITE_NOMEM, message: "out of memory reading column \(column) as text", sql: s.sql)
                    }
                case .double, .date:
                    if let v = row.real(column) { word = v.bitPattern } else { nulls |= 1 << i }
                    column += 1
                case .checked(let type):
                    if row.isNull(column) {
                        nulls |= 1 << i
                    } else {
                        word = UInt64(header.pointee.checked.count)
                        header.pointee.checked.append(try SQLiteValueCodec.decodePresent(s, column, type: type, file: file))
                    }
                }
                slot.pointee = word
                slot += 1
                column += 1
                i += 1
            }
            var r = 0
            while r < relationships {
                var word: UInt64 = 0
                let query = queries[r]
                if query < 0 {
                    if let target = row.int64OrNil(column) { word = UInt64(bitPattern: target) } else { nulls |= 1 << (attributes + r) }
                    column += 1
                } else {
                    let destination = layout.destinations[r], store = header.pointee.storeIdentifier
                    word = UInt64(header.pointee.lists.count)
                    header.pointee.lists.append(.toMany(try targets(query, row.int64(0)).map { PersistentIdentifier(storeIdentifier: store, entityName: destination, primaryKey: $0) }))
                }
                slot.pointee = word
                slot += 1
                r += 1
            }
            words[start] = nulls
            header.pointee.used = end
            return start
        }
    }

    /// Attribute `i` of the row at word `row`.
    @inline(__always)
    func attribute(_ i: Int, row: Int) -> Value {
        withUnsafeMutablePointers { header, words in
            if words[row] & (1 << i) != 0 { return .null }
            let word = words[row + 1 + i]
            switch header.pointee.layout.reads[i] {
            case .bool: return .bool(word != 0)
            case .int: return .int(Int64(bitPattern: word))
            case .double: return .double(Double(bitPattern: word))
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: word)))
            case .string:
                let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(words + Int(word >> 35)).assumingMemoryBound(to: UInt8.self), count: Int(word & 0x7_FFFF_FFFF))
                return .string(String(decoding: bytes, as: UTF8.self))
            case .checked: return header.pointee.checked[Int(word)]
            }
        }
    }

    /// Relationship `r` of the row at word `row`.
    @inline(__always)
    func relationship(_ r: Int, row: Int) -> RelationshipValue {
        withUnsafeMutablePointers { header, words in
            let layout = header.pointee.layout
            let attributes = layout.reads.count
            let word = words[row + 1 + attributes + r]
            if layout.relationshipQueries[r] >= 0 { return header.pointee.lists[Int(word)] }
            if words[row] & (1 << (attributes + r)) != 0 { return .toOne(nil) }
            return .toOne(PersistentIdentifier(storeIdentifier: header.pointee.storeIdentifier, entityName: layout.destinations[r], primaryKey: Int64(bitPattern: word)))
        }
    }
}
