import Foundation

/// The stored form of a history transaction: compact JSON (version 2), written by hand because
/// `JSONEncoder` was most of a save's cost with history on. Still JSON, so `sqlite3`, `mdb_dump`
/// and `jq` read it; compact because the first form (version 1, the shape Swift's synthesized
/// `Codable` gives the types) took about 200 bytes for an inserted record, more than its row. Every
/// reader reads both (`init(from:)` tells them apart by the version key). docs/history.md,
/// "Stored form", has both shapes and the reasons.
extension StoreHistoryTransaction {
    /// The transaction as bytes, for a backend's history table (JSON: readable with any tool).
    @_spi(StrataEngine) public func encoded() throws -> [UInt8] {
        withEncoded { Array($0) }
    }

    /// Calls `body` with the encoded transaction, which lives only during the call: a backend
    /// that hands the bytes straight to its store (SQLite's row, LMDB's entry) copies them once,
    /// into the store, instead of into an array first.
    @_spi(StrataEngine) public func withEncoded<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var w = HistoryJSONWriter(capacity: 128 + 64 * changes.count)
        defer { w.deallocate() }
        w.transaction(self)
        return try body(w.written)
    }

    /// Appends the encoded transaction to `bytes` (a writer can keep one buffer across saves).
    @_spi(StrataEngine) public func encode(into bytes: inout [UInt8]) {
        withEncoded { bytes.append(contentsOf: $0) }
    }

    /// Reads `encoded()` bytes back: the compact form, or the first form of every store written
    /// before it (`init(from:)`).
    ///
    /// - Throws: `corruptStore` when they are not a transaction.
    @_spi(StrataEngine) public init(decoding bytes: some Collection<UInt8>, file: String?) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        do { self = try decoder.decode(StoreHistoryTransaction.self, from: Data(bytes)) } catch {
            throw StrataError(.corruptStore, "A history transaction cannot be read: \(error).", file: file)
        }
    }
}

/// Writes a history transaction's compact JSON (version 2) into a byte buffer: short keys, the
/// kind of a change as its key, the store identifier once, fields holding their default left out,
/// a `Value` as `[type, payload]` (`Value+Codable.swift`, as in version 1), the timestamp in whole
/// milliseconds since 1970. An inserted record is `{"i":"Item","k":42}`.
///
/// The buffer is its own (allocated, grown by doubling, freed by `deallocate()`), written through
/// a pointer: every piece is one capacity check and a copy, where appending to an `[UInt8]` paid a
/// generic call and a uniqueness check per piece (the writer was 7,800 instructions of a
/// one-attribute update before; docs/history.md, "Cost").
struct HistoryJSONWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// The transaction's store: an identifier of it does not repeat it.
    private var store = ""
    /// The last identifier's entity, and where its encoding up to the primary key (`"Item","k":`)
    /// sits in the buffer: the identifiers of one transaction mostly share it, so it is escaped
    /// once and copied after.
    private var entityHead: (entity: String, start: Int, count: Int)?

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// What was written (valid until the next write or `deallocate()`).
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    func deallocate() { base.deallocate() }

    @inline(__always) private mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private mutating func grow(_ needed: Int) {
        var next = capacity * 2
        while next < needed { next *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: next)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = next
    }

    @inline(__always) private mutating func byte(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    @inline(__always) private mutating func copy(_ source: UnsafePointer<UInt8>, _ n: Int) {
        reserve(n)
        (base + count).update(from: source, count: n)
        count += n
    }

    @inline(__always) private mutating func raw(_ text: StaticString) {
        copy(text.utf8Start, text.utf8CodeUnitCount)
    }

    private mutating func integer(_ n: Int64) {
        if n < 0 {
            byte(UInt8(ascii: "-"))
            unsigned(n.magnitude)
        } else {
            unsigned(UInt64(n))
        }
    }

    private mutating func unsigned(_ n: UInt64) {
        // Backwards into the 20 bytes after the end (room for any UInt64), then moved to the end:
        // one division per digit, not two.
        reserve(40)
        var value = n, at = count + 39
        repeat {
            base[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
            at -= 1
        } while value > 0
        let digits = count + 39 - at
        (base + count).update(from: base + at + 1, count: digits)
        count += digits
    }

    private mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            // Worst case: every byte a six-byte escape, and the quotes.
            reserve(utf8.count * 6 + 2)
            base[count] = UInt8(ascii: "\"")
            count += 1
            var i = 0
            let n = utf8.count, source = utf8.baseAddress
            while i < n {
                // Eight plain bytes at once (no control character, quote or backslash), the usual
                // case of an identifier or a name: copied as one word.
                if i + 8 <= n, let source {
                    let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                    if Self.isPlain(word) {
                        UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
                        count += 8
                        i += 8
                        continue
                    }
                }
                let b = utf8[i]
                i += 1
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else {
                    base[count] = b
                    count += 1
                    continue
                }
                base[count] = UInt8(ascii: "\\")
                switch b {
                case UInt8(ascii: "\""): base[count + 1] = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): base[count + 1] = UInt8(ascii: "\\")
                case 0x0A: base[count + 1] = UInt8(ascii: "n")
                case 0x0D: base[count + 1] = UInt8(ascii: "r")
                case 0x09: base[count + 1] = UInt8(ascii: "t")
                default:
                    let hex: StaticString = "0123456789abcdef"
                    base[count + 1] = UInt8(ascii: "u")
                    base[count + 2] = UInt8(ascii: "0")
                    base[count + 3] = UInt8(ascii: "0")
                    base[count + 4] = hex.utf8Start[Int(b >> 4)]
                    base[count + 5] = hex.utf8Start[Int(b & 0xF)]
                    count += 4
                }
                count += 2
            }
            base[count] = UInt8(ascii: "\"")
            count += 1
        }
    }

    /// Whether none of the eight bytes of `word` is below 0x20, a quote or a backslash (bytes of
    /// 0x80 and above, UTF-8's multi-byte sequences, are plain): the classic "has a zero byte" test
    /// on the word, on the word xor each special byte, and for "below 0x20".
    @inline(__always) private static func isPlain(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        // A byte below 0x20: (b - 0x20) borrows into its high bit while b's own high bit is clear.
        let below = (word &- ones &* 0x20) & ~word & highs
        let quote = hasZero(word ^ (ones &* 0x22)), backslash = hasZero(word ^ (ones &* 0x5C))
        return below | quote | backslash == 0
    }

    private mutating func double(_ d: Double) {
        if d.isFinite && !(d == 0 && d.sign == .minus) {
            if !exactBinaryFraction(d) { copy(string: d.description) }
        } else {
            string("bits:" + String(d.bitPattern, radix: 16))
        }
    }

    private mutating func copy(string: String) {
        var text = string
        text.withUTF8 { copy($0.baseAddress!, $0.count) }
    }

    /// Writes `d` exactly without `description` when it is a whole number below 2⁵³ in magnitude
    /// or one with a fraction in 1/1024ths (2.5, 0.25, …): such a fraction `m/2¹⁰` is the decimal
    /// `m·5¹⁰/10¹⁰`, so its digits are exact and any JSON reader parses back the same double. Returns
    /// false, writing nothing, for any other value (then `description`, the shortest round trip).
    private mutating func exactBinaryFraction(_ d: Double) -> Bool {
        let magnitude = d.magnitude
        guard magnitude < 9_007_199_254_740_992 else { return false }  // 2⁵³: every smaller whole number is exact
        let whole = magnitude.rounded(.towardZero)
        let scaled = (magnitude - whole) * 1024  // exact: a power of two times a double's fraction
        guard scaled == scaled.rounded(.towardZero) else { return false }
        if d < 0 { byte(UInt8(ascii: "-")) }
        unsigned(UInt64(whole))
        byte(UInt8(ascii: "."))
        var fraction = UInt64(scaled) * 9_765_625  // 5¹⁰: the fraction's ten decimal digits
        if fraction == 0 {
            byte(UInt8(ascii: "0"))
            return true
        }
        var digits = 10
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        reserve(digits)
        var at = count + digits - 1
        for _ in 0..<digits {
            base[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
            at -= 1
        }
        count += digits
        return true
    }

    private mutating func bool(_ b: Bool) {
        if b { raw("true") } else { raw("false") }
    }

    mutating func transaction(_ t: StoreHistoryTransaction) {
        transaction(token: t.token, author: t.author, timestamp: t.timestamp, changes: t.changes)
    }

    /// A transaction from its parts (`HistoryRecorder.withEncodedTransaction` writes one change
    /// without building the transaction), in the compact form (version 2, `StoredHistoryForm`):
    /// `{"v":2,"s":store,"n":number,"a":author,"t":milliseconds,"c":[changes]}`.
    mutating func transaction(token: StoreHistoryToken, author: String?, timestamp: Date, changes: some Collection<StoreHistoryChange>) {
        header(token: token, author: author, timestamp: timestamp)
        var first = true
        for change in changes {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            self.change(change)
        }
        raw("]}")
    }

    /// A transaction of one request-initiated update of `key` that changed only attributes,
    /// written from the values (`HistoryRecorder.withEncodedUpdate`): the same bytes as the
    /// recorded change's.
    mutating func update(token: StoreHistoryToken, author: String?, timestamp: Date, _ entity: EntitySchema, _ key: Int64, old: [Value], new: [Value], listingEvery: Bool = false) {
        header(token: token, author: author, timestamp: timestamp)
        raw("{\"u\":")
        string(entity.name)
        raw(",\"k\":")
        integer(key)
        raw(",\"a\":[")
        var first = true
        for i in entity.attributes.indices where i < old.count && i < new.count && (listingEvery || old[i] != new[i]) {
            if !first { byte(UInt8(ascii: ",")) }
            first = false
            byte(UInt8(ascii: "["))
            string(entity.attributes[i].name)
            byte(UInt8(ascii: ","))
            value(old[i])
            byte(UInt8(ascii: ","))
            value(new[i])
            byte(UInt8(ascii: "]"))
        }
        raw("]}]}")
    }

    /// The transaction up to its changes' opening bracket.
    private mutating func header(token: StoreHistoryToken, author: String?, timestamp: Date) {
        raw("{\"v\":2,\"s\":")
        string(token.storeIdentifier)
        store = token.storeIdentifier
        raw(",\"n\":")
        integer(token.transaction)
        if let author {
            raw(",\"a\":")
            string(author)
        }
        raw(",\"t\":")
        let milliseconds = timestamp.timeIntervalSince1970 * 1000
        if milliseconds == milliseconds.rounded(), abs(milliseconds) < 9e15 { integer(Int64(milliseconds)) } else { double(milliseconds) }
        raw(",\"c\":[")
    }

    /// `{"i"|"u"|"d": entity, "k": key}`, then only what is not the default: `"s"` (another store
    /// than the transaction's), `"tmp":true`, `"o":true` (store-initiated), `"a"` (attributes as
    /// `[name, old, new]`), `"r"` (relationships, the same), `"x"` (the tombstone).
    private mutating func change(_ c: StoreHistoryChange) {
        switch c.kind {
        case .insert: raw("{\"i\":")
        case .update: raw("{\"u\":")
        case .delete: raw("{\"d\":")
        }
        identifierTail(c.identifier)
        if c.isStoreInitiated { raw(",\"o\":true") }
        if !c.attributes.isEmpty {
            raw(",\"a\":[")
            for i in c.attributes.indices {
                if i > 0 { byte(UInt8(ascii: ",")) }
                byte(UInt8(ascii: "["))
                string(c.attributes[i].name)
                byte(UInt8(ascii: ","))
                value(c.attributes[i].old)
                byte(UInt8(ascii: ","))
                value(c.attributes[i].new)
                byte(UInt8(ascii: "]"))
            }
            byte(UInt8(ascii: "]"))
        }
        if !c.relationships.isEmpty {
            raw(",\"r\":[")
            for i in c.relationships.indices {
                if i > 0 { byte(UInt8(ascii: ",")) }
                byte(UInt8(ascii: "["))
                string(c.relationships[i].name)
                byte(UInt8(ascii: ","))
                relationship(c.relationships[i].old)
                byte(UInt8(ascii: ","))
                relationship(c.relationships[i].new)
                byte(UInt8(ascii: "]"))
            }
            byte(UInt8(ascii: "]"))
        }
        if !c.tombstone.isEmpty {
            raw(",\"x\":{")
            var first = true
            for (name, v) in c.tombstone {
                if !first { byte(UInt8(ascii: ",")) }
                first = false
                string(name)
                byte(UInt8(ascii: ":"))
                value(v)
            }
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "}"))
    }

    /// An identifier after its object's opening key: the entity (escaped once per transaction
    /// while it does not change, then copied), `"k"`, and `"s"` / `"tmp"` when they are not the
    /// transaction's store and `false`. Leaves the object open.
    private mutating func identifierTail(_ id: PersistentIdentifier) {
        if let head = entityHead, head.entity == id.entityName {
            reserve(head.count)  // first: growing moves the buffer
            (base + count).update(from: base + head.start, count: head.count)
            count += head.count
        } else {
            let start = count
            string(id.entityName)
            raw(",\"k\":")
            entityHead = (id.entityName, start, count - start)
        }
        integer(id.primaryKey)
        if id.storeIdentifier != store {
            raw(",\"s\":")
            string(id.storeIdentifier)
        }
        if id.isTemporary { raw(",\"tmp\":true") }
    }

    /// `{"e": entity, "k": key}` (with `"s"` / `"tmp"` as in a change).
    private mutating func identifier(_ id: PersistentIdentifier) {
        raw("{\"e\":")
        identifierTail(id)
        byte(UInt8(ascii: "}"))
    }

    /// A to-one target as `null` or its identifier, a to-many's as an array of identifiers.
    private mutating func relationship(_ r: RelationshipValue) {
        switch r {
        case .toOne(let id):
            if let id { identifier(id) } else { raw("null") }
        case .toMany(let ids):
            byte(UInt8(ascii: "["))
            for i in ids.indices {
                if i > 0 { byte(UInt8(ascii: ",")) }
                identifier(ids[i])
            }
            byte(UInt8(ascii: "]"))
        }
    }

    private mutating func value(_ v: Value) {
        switch v {
        case .null: raw("[\"null\"]")
        case .bool(let b):
            raw("[\"bool\",")
            bool(b)
        case .int(let n):
            raw("[\"int\",")
            integer(n)
        case .double(let d):
            raw("[\"double\",")
            double(d)
        case .string(let s):
            raw("[\"string\",")
            string(s)
        case .date(let d):
            raw("[\"date\",")
            double(d.timeIntervalSinceReferenceDate)
        case .data(let d):
            raw("[\"data\",")
            string(d.base64EncodedString())
        case .uuid(let u):
            raw("[\"uuid\",")
            string(u.uuidString)
        case .url(let u):
            raw("[\"url\",")
            string(u.absoluteString)
        }
        if !v.isNull { byte(UInt8(ascii: "]")) }
    }
}
