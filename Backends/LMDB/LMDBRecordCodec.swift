import CStrataChecksum
import Foundation
@_spi(StrataEngine) import Strata

/// One record as the LMDB backend holds it: the attribute values and the to-one targets.
///
/// To-many sides live in their own duplicate-sorted databases (one per relationship), so appending a
/// child never rewrites its parent. `toOne` has one slot per relationship; to-many slots stay `nil`.
struct LMDBRecord: Equatable {
    var attributes: [Value]
    var toOne: [Int64?]
}

/// The record encoding (`docs/formats/lmdb.md`, "Records"). Saves write version 4, values at
/// offsets the schema fixes (`LMDBRecordCodec+Version4.swift`); versions 1 to 3, still read, are
///
///     version (1 byte) · checksum (4 bytes, little-endian) ·
///     each attribute: a tag byte and its payload · each to-one: 0, or 1 and the key (8 bytes)
///
/// Tags: 0 nil, 1 false, 2 true, 3 int, 4 double, 5 string, 6 date, 7 data, 8 uuid, 9 url. Integers,
/// doubles and dates are 8 little-endian bytes (doubles and dates as their bit pattern, so −0, NaN
/// payloads and subnormals survive); strings, data and URLs a LEB128 length and the bytes; UUIDs 16
/// bytes. The entity's schema says how many values follow and of which type; the decoder checks every
/// tag against it and the checksum against the bytes, so damage is `corruptStore`, never a crash.
enum LMDBRecordCodec {
    /// The version written. Version 1 (read still) checksummed the bytes alone, so a record whose
    /// key was damaged read as another record; version 2 (read still) seeds the checksum with the
    /// key; version 3 (read still) is version 2 with CRC32C (`crc32c(_:key:)`) in place of the
    /// multiply-xorshift hash; version 4 is version 3's checksum over values at fixed offsets, so
    /// a read checks a record without a walk over its tags.
    static let version: UInt8 = 4

    /// The encoded size of `record` as version 3 (tests write the bytes an earlier Strata wrote).
    static func encodedSizeVersion3(_ record: LMDBRecord, _ entity: EntitySchema) -> Int {
        func length(_ n: Int) -> Int {
            var n = UInt(n), count = 1
            while n >= 0x80 { n >>= 7; count += 1 }
            return count
        }
        var size = 5
        for value in record.attributes {
            switch value {
            case .null, .bool: size += 1
            case .int, .double, .date: size += 9
            case .string(let s): let n = s.utf8.count; size += 1 + length(n) + n
            case .data(let d): size += 1 + length(d.count) + d.count
            case .uuid: size += 17
            case .url(let u): let n = u.absoluteString.utf8.count; size += 1 + length(n) + n
            }
        }
        for (r, isToMany) in entity.relationshipIsToMany.enumerated() where !isToMany { size += record.toOne[r] == nil ? 1 : 9 }
        return size
    }

    /// Writes `record`, stored under `key`, as version 3 into `out`, which holds exactly
    /// `encodedSizeVersion3` bytes.
    static func encodeVersion3(_ record: LMDBRecord, _ entity: EntitySchema, key: Int64, into out: UnsafeMutableRawBufferPointer) {
        var writer = Writer(out: out.baseAddress!, p: 5)
        out[0] = 3
        for value in record.attributes {
            switch value {
            case .null: writer.byte(0)
            case .bool(let b): writer.byte(b ? 2 : 1)
            case .int(let i): writer.fixed(3, UInt64(bitPattern: i))
            case .double(let d): writer.fixed(4, d.bitPattern)
            case .string(let s):
                if let done = s.utf8.withContiguousStorageIfAvailable({ writer.bytes(5, UnsafeRawBufferPointer($0)) }) {
                    writer = done
                } else {
                    var copy = s
                    copy.withUTF8 { writer = writer.bytes(5, UnsafeRawBufferPointer($0)) }
                }
            case .date(let d): writer.fixed(6, d.timeIntervalSinceReferenceDate.bitPattern)
            case .data(let d): d.withUnsafeBytes { writer = writer.bytes(7, $0) }
            case .uuid(let u):
                writer.byte(8)
                withUnsafeBytes(of: u.uuid) { writer.copy($0) }
            case .url(let u):
                var text = u.absoluteString
                text.withUTF8 { writer = writer.bytes(9, UnsafeRawBufferPointer($0)) }
            }
        }
        for (r, isToMany) in entity.relationshipIsToMany.enumerated() where !isToMany {
            if let k = record.toOne[r] { writer.fixed(1, UInt64(bitPattern: k)) } else { writer.byte(0) }
        }
        precondition(writer.p == out.count, "encodedSize and encode disagree")
        let sum = crc32c(UnsafeRawBufferPointer(rebasing: out[5...]), key: key)
        out.storeBytes(of: sum.littleEndian, toByteOffset: 1, as: UInt32.self)
    }

    /// The encoder's cursor: a value type passed in and out of the closures that lend string and
    /// data bytes, so the position is not a captured variable (which cost an exclusivity check per byte).
    private struct Writer {
        let out: UnsafeMutableRawPointer
        var p: Int

        mutating func byte(_ b: UInt8) {
            out.storeBytes(of: b, toByteOffset: p, as: UInt8.self)
            p += 1
        }

        mutating func fixed(_ tag: UInt8, _ bits: UInt64) {
            byte(tag)
            out.storeBytes(of: bits.littleEndian, toByteOffset: p, as: UInt64.self)
            p += 8
        }

        mutating func copy(_ source: UnsafeRawBufferPointer) {
            if !source.isEmpty { (out + p).copyMemory(from: source.baseAddress!, byteCount: source.count) }
            p += source.count
        }

        /// A tag, a LEB128 length and the bytes; returns the advanced writer.
        func bytes(_ tag: UInt8, _ source: UnsafeRawBufferPointer) -> Writer {
            var w = self
            w.byte(tag)
            var n = UInt(source.count)
            while n >= 0x80 { w.byte(UInt8(n & 0x7F) | 0x80); n >>= 7 }
            w.byte(UInt8(n))
            w.copy(source)
            return w
        }
    }

    /// Encodes `record` into a new array (tests and tools; saves write into the page directly).
    static func encoded(_ record: LMDBRecord, _ shape: LMDBRecordShape, key: Int64) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedSize(record, shape)) { buffer, count in
            encode(record, shape, key: key, into: UnsafeMutableRawBufferPointer(buffer))
            count = buffer.count
        }
    }

    /// Encodes `record` as version 3 into a new array: the bytes an earlier Strata wrote, for tests.
    static func encodedVersion3(_ record: LMDBRecord, _ entity: EntitySchema, key: Int64) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedSizeVersion3(record, entity)) { buffer, count in
            encodeVersion3(record, entity, key: key, into: UnsafeMutableRawBufferPointer(buffer))
            count = buffer.count
        }
    }

    /// The checksum of a version-3 record stored under `key`: CRC32C (Castagnoli) of the key's 8
    /// bytes, little-endian, then `bytes` (everything after the checksum). The C helper
    /// (`CStrataChecksum`) uses the CPU's `crc32` instruction where it has one, chosen at run time,
    /// and a table otherwise (limit: Benchmarks/Thresholds/lmdb-scan.txt).
    @inline(__always)
    static func crc32c(_ bytes: UnsafeRawBufferPointer, key: Int64) -> UInt32 {
        strata_crc32c_keyed(UInt64(bitPattern: key), bytes.baseAddress, bytes.count)
    }

    /// The checksum a record of `version` (1 to 4) stores, over `bytes` (everything after the
    /// checksum), or `nil` for another version.
    @inline(__always)
    static func checksum(version: UInt8, _ bytes: UnsafeRawBufferPointer, key: Int64) -> UInt32? {
        switch version {
        case 4, 3: crc32c(bytes, key: key)
        case 2: checksum(bytes, key: key)
        case 1: checksum(bytes, key: nil)
        default: nil
        }
    }

    /// The checksum of record versions 1 and 2, which still read: a 32-bit multiply-xorshift hash
    /// over 8-byte words; with `key` (version 2) the key is its first word, so a record moved to
    /// another key fails.
    ///
    /// Every scanned or fetched record of those versions pays it (docs/formats/lmdb.md defines the value; limit:
    /// Benchmarks/Thresholds/lmdb-scan.txt): the words are read with wrapping arithmetic and no
    /// overflow checks, and the last 1–7 bytes with one load that ends at the last byte, shifted
    /// (the same value as composing them little-endian byte by byte, at an eighth of the cost);
    /// inlined into the fast check, so a record pays no call for it.
    @inline(__always)
    static func checksum(_ bytes: UnsafeRawBufferPointer, key: Int64?) -> UInt32 {
        let n = bytes.count
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n)
        if let key {
            h = (h ^ UInt64(bitPattern: key)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h &>> 31
        }
        var tail: UInt64 = 0
        if let base = bytes.baseAddress {
            let words = n &>> 3
            var w = 0
            while w < words {
                h = (h ^ base.loadUnaligned(fromByteOffset: w &<< 3, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
                h ^= h &>> 31
                w &+= 1
            }
            let rest = n & 7
            if rest != 0 {
                if n >= 8 {
                    tail = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)) &>> UInt64(64 &- 8 &* rest)
                } else {
                    for j in 0..<rest { tail |= UInt64(base.load(fromByteOffset: j, as: UInt8.self)) &<< UInt64(8 &* j) }
                }
            }
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h &>> 29
        return UInt32(truncatingIfNeeded: h ^ (h &>> 32))
    }

    /// Decodes a stored record of `entity`.
    ///
    /// - Throws: `corruptStore` naming the entity and key for a wrong version, checksum, tag or length.
    static func decode(_ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape, key: Int64, file: String) throws -> LMDBRecord {
        var toOne: [Int64?] = Array(repeating: nil, count: shape.entity.relationships.count)
        let attributes = try decode(bytes, shape, key: key, file: file) { r, target in toOne[r] = target }
        return LMDBRecord(attributes: attributes, toOne: toOne)
    }

    /// Decodes a stored record's attributes and hands each set to-one target to `toOne` (relationship
    /// index, key), so a snapshot can be built without an intermediate array.
    ///
    /// - Throws: `corruptStore` naming the entity and key for a wrong version, checksum, tag or length.
    static func decode(_ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape, key: Int64, file: String, toOne: (Int, Int64) -> Void) throws -> [Value] {
        do {
            return try decodeChecked(bytes, shape, key: key, toOne: toOne)
        } catch {
            throw damaged(error, shape.entity, key: key, file: file)
        }
    }

    /// `decode` without the error's context: the reader carries no entity or path (retaining them
    /// cost every lookup), and the damage is described once, on the way out.
    @inline(__always)
    private static func decodeChecked(_ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape, key: Int64, toOne: (Int, Int64) -> Void) throws(Malformed) -> [Value] {
        try checkSum(bytes, key: key)
        guard bytes[0] == version else { return try decodeValues(bytes, shape.entity, toOne: toOne) }
        let base = bytes.baseAddress!
        _ = try checkShape(base, count: bytes.count, shape)
        let attributes = try values(base, count: bytes.count, shape)
        toOnes(base, shape, toOne)
        return attributes
    }

    /// The version byte and the checksum.
    @inline(__always)
    private static func checkSum(_ bytes: UnsafeRawBufferPointer, key: Int64) throws(Malformed) {
        guard bytes.count >= 5 else { throw Malformed("\(bytes.count) bytes") }
        // An unknown record version is damage (docs/formats/lmdb.md, "Records").
        guard let sum = checksum(version: bytes[0], UnsafeRawBufferPointer(rebasing: bytes[5...]), key: key) else {
            throw Malformed("record format \(bytes[0])")
        }
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 1, as: UInt32.self))
        guard stored == sum else {
            throw Malformed("checksum mismatch: damaged, or stored under another key")
        }
    }

    /// Every value and to-one of a record whose version and checksum are checked.
    @inline(__always)
    private static func decodeValues(_ bytes: UnsafeRawBufferPointer, _ entity: EntitySchema, toOne: (Int, Int64) -> Void) throws(Malformed) -> [Value] {
        let types = entity.attributeTypes
        // The cursor is a local value, not a variable captured by nested functions (which costs an
        // exclusivity check per read). `reserveCapacity` and `append` are specialized for `Value`;
        // `Array(unsafeUninitializedCapacity:)` measured slower (a generic allocation; limit:
        // Benchmarks/Thresholds/lmdb-scan.txt).
        var attributes: [Value] = []
        attributes.reserveCapacity(types.count)
        var reader = Reader(bytes: bytes, p: 5)
        for i in 0..<types.count {
            attributes.append(try reader.value(try reader.byte(), types[i], entity, i))
        }
        for (r, isToMany) in entity.relationshipIsToMany.enumerated() where !isToMany {
            if let target = try reader.toOne() { toOne(r, target) }
        }
        try reader.end()
        return attributes
    }

    /// Checks a stored record as `decode` does — version, checksum, every tag against the schema
    /// (version 4: its shape, `checkShape(_:count:_:)`), every length, URLs readable, no bytes left
    /// over — without building a value, so a snapshot can keep the bytes and decode a value only
    /// when it is read (`LMDBSnapshot`). Returns the offset of the first to-one.
    ///
    /// - Throws: `corruptStore` naming the entity and key, as `decode`.
    static func check(_ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape, key: Int64, file: String) throws -> Int {
        let entity = shape.entity
        do throws(Malformed) {
            try checkSum(bytes, key: key)
            if bytes[0] == version {
                let base = bytes.baseAddress!
                let links = try checkShape(base, count: bytes.count, shape)
                for i in shape.urls { _ = try value(at: i, base, count: bytes.count, shape) }
                return links
            }
            var reader = Reader(bytes: bytes, p: 5)
            let types = entity.attributeTypes
            for i in 0..<types.count { try reader.skip(try reader.byte(), types[i], entity, i) }
            let links = reader.p
            for isToMany in entity.relationshipIsToMany where !isToMany { _ = try reader.toOne() }
            try reader.end()
            return links
        } catch {
            throw damaged(error, entity, key: key, file: file)
        }
    }

    /// The error of a damaged record, naming it and the store around it.
    private static func damaged(_ error: Malformed, _ entity: EntitySchema, key: Int64, file: String) -> StrataError {
        StrataError(.corruptStore, "Record \(key) of '\(entity.name)' is damaged (\(error.what)); restore the environment from a backup.", entity: entity.name, file: file)
    }

    /// The tag a stored value of `type` has (besides 0, nil; a bool's is 1, or 2 for true).
    static func tag(of type: AttributeType) -> UInt8 {
        switch type {
        case .bool: 1
        case .int: 3
        case .double: 4
        case .string: 5
        case .date: 6
        case .data: 7
        case .uuid: 8
        case .url: 9
        }
    }

    /// One attribute's step in `quickCheck`: the tag a value of `type` has (`tag(of:)`) in the low
    /// byte, and in the high byte how far such a value moves on past its tag — its width, or
    /// `variableStep` for a length and bytes, or `urlStep` for a URL (which only `check` parses).
    static func checkStep(of type: AttributeType) -> UInt16 {
        let width: UInt16 = switch type {
        case .bool: 0
        case .int, .double, .date: 8
        case .uuid: 16
        case .string, .data: variableStep
        case .url: urlStep
        }
        return width << 8 | UInt16(tag(of: type))
    }

    /// `checkStep`'s width of a value with a LEB128 length, and of a URL.
    static let variableStep: UInt16 = 0xFF, urlStep: UInt16 = 0xFE

    /// `check` without errors: the offset of the first to-one when the record is sound, `nil` when
    /// anything is off — or it holds a URL, which only `check` parses — and `check` is to say what.
    ///
    /// Every scanned and fetched record runs it (limit: Benchmarks/Thresholds/lmdb-scan.txt). A
    /// version-4 record (what saves write) costs its checksum and `checkShape`, the full check's
    /// own rules; versions 3 and 2 walk every tag (`walk`); version 1 goes to the full check.
    @inline(__always)
    static func quickCheck(_ bytes: UnsafeRawBufferPointer, key: Int64, shape: LMDBRecordShape) -> Int? {
        let n = bytes.count
        guard n >= 5, let base = bytes.baseAddress else { return nil }
        let body = UnsafeRawBufferPointer(start: base + 5, count: n &- 5)
        let stored = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 1, as: UInt32.self))
        switch base.load(as: UInt8.self) {
        case version:
            guard stored == crc32c(body, key: key), let links = try? checkShape(base, count: n, shape) else { return nil }
            return shape.urls.isEmpty || !holdsURL(base, shape) ? links : nil
        case 3: guard stored == crc32c(body, key: key) else { return nil }
        case 2: guard stored == checksum(body, key: key) else { return nil }
        default: return nil
        }
        return shape.steps.withUnsafeBufferPointer { walk(base, count: n, steps: $0, toOnes: shape.toOneCount) }
    }

    /// The fast check's walk over a version-2 or -3 record whose checksum is sound (`steps`:
    /// `checkStep(of:)` of each attribute; `toOnes`: how many to-ones): a value whose tag is the
    /// attribute's own moves on by the width its step carries (one compare and one add, no switch
    /// over tags), a one-byte length is read without the LEB128 loop, and positions are only
    /// compared with the end where a read depends on it — the final `p == n` catches a value that
    /// ran past it.
    @inline(__always)
    static func walk(_ base: UnsafeRawPointer, count n: Int, steps: UnsafeBufferPointer<UInt16>, toOnes: Int) -> Int? {
        var p = 5
        for step in steps {
            guard p < n else { return nil }
            let tag = base.load(fromByteOffset: p, as: UInt8.self)
            p &+= 1
            guard tag == UInt8(truncatingIfNeeded: step) else {
                // nil, or true where a bool (tag 1) is expected: no payload.
                if tag == 0 || (tag == 2 && step == 1) { continue }
                return nil
            }
            let width = step &>> 8
            if width < urlStep {
                p &+= Int(width)
                continue
            }
            guard width == variableStep, p < n else { return nil }
            let first = base.load(fromByteOffset: p, as: UInt8.self)
            p &+= 1
            var length = Int(first)
            if first >= 0x80 {
                length &= 0x7F
                var shift = 7
                while true {
                    guard p < n, shift < 63 else { return nil }
                    let b = base.load(fromByteOffset: p, as: UInt8.self)
                    p &+= 1
                    length |= Int(b & 0x7F) << shift
                    if b < 0x80 { break }
                    shift &+= 7
                }
            }
            guard length >= 0, length <= n &- p else { return nil }
            p &+= length
        }
        guard p <= n else { return nil }
        let links = p
        for _ in 0..<toOnes {
            guard p < n else { return nil }
            switch base.load(fromByteOffset: p, as: UInt8.self) {
            case 0: p &+= 1
            case 1: p &+= 9
            default: return nil
            }
        }
        return p == n ? links : nil
    }

    /// Attribute `index` of a record `check` accepted (so nothing can fail: `.null` if it did).
    static func checkedValue(at index: Int, _ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape) -> Value {
        if bytes[0] == version { return (try? value(at: index, bytes.baseAddress!, count: bytes.count, shape)) ?? .null }
        let entity = shape.entity
        let types = entity.attributeTypes
        var reader = Reader(bytes: bytes, p: 5)
        do {
            for i in 0..<index { try reader.skip(try reader.byte(), types[i], entity, i) }
            return try reader.value(try reader.byte(), types[index], entity, index)
        } catch {
            return .null
        }
    }

    /// Every attribute of a record `check` accepted.
    static func checkedValues(_ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape) -> [Value] {
        let entity = shape.entity
        if bytes[0] == version { return (try? values(bytes.baseAddress!, count: bytes.count, shape)) ?? entity.attributes.map { _ in .null } }
        return (try? decodeValues(bytes, entity) { _, _ in }) ?? entity.attributes.map { _ in .null }
    }

    /// The to-one targets of a record `check` accepted, read from `links` (what `check` returned),
    /// one slot per relationship (`nil` for an empty to-one and for every to-many).
    static func checkedToOne(_ bytes: UnsafeRawBufferPointer, _ shape: LMDBRecordShape, links: Int, _ body: (Int, Int64) -> Void) {
        if bytes[0] == version { return toOnes(bytes.baseAddress!, shape, body) }
        let entity = shape.entity
        var reader = Reader(bytes: bytes, p: links)
        do {
            for (r, isToMany) in entity.relationshipIsToMany.enumerated() where !isToMany {
                if let target = try reader.toOne() { body(r, target) }
            }
        } catch {}
    }

    /// What is wrong with a record's bytes; `decode` names the record and the store around it.
    struct Malformed: Error {
        let what: String
        init(_ what: String) { self.what = what }
    }

    /// The decoder's cursor over a record's bytes; every read checks the length first.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var p: Int

        mutating func byte() throws(Malformed) -> UInt8 {
            guard p < bytes.count else { throw Malformed("truncated") }
            defer { p += 1 }
            return bytes[p]
        }

        mutating func fixed() throws(Malformed) -> UInt64 {
            guard p + 8 <= bytes.count else { throw Malformed("truncated") }
            defer { p += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: p, as: UInt64.self))
        }

        mutating func take(_ n: Int) throws(Malformed) -> UnsafeRawBufferPointer {
            guard n <= bytes.count - p else { throw Malformed("truncated") }
            defer { p += n }
            return UnsafeRawBufferPointer(rebasing: bytes[p..<(p + n)])
        }

        /// The value of attribute `i` (of `type`) that starts with `tag`.
        @inline(__always)
        mutating func value(_ tag: UInt8, _ type: AttributeType, _ entity: EntitySchema, _ i: Int) throws(Malformed) -> Value {
            switch (tag, type) {
            case (0, _): return .null
            case (1, .bool): return .bool(false)
            case (2, .bool): return .bool(true)
            case (3, .int): return .int(Int64(bitPattern: try fixed()))
            case (4, .double): return .double(Double(bitPattern: try fixed()))
            case (5, .string): return .string(String(decoding: try span(), as: UTF8.self))
            case (6, .date): return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try fixed())))
            case (7, .data): return .data(Data(try span()))
            case (8, .uuid):
                let raw = try take(16)
                var u = UUID().uuid
                withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: raw) }
                return .uuid(UUID(uuid: u))
            case (9, .url):
                let text = String(decoding: try span(), as: UTF8.self)
                guard let url = URL(string: text) else { throw Malformed("unreadable URL") }
                return .url(url)
            default:
                throw Self.wrongTag(tag, type, entity, i)
            }
        }

        /// A tag that does not fit the attribute's type.
        static func wrongTag(_ tag: UInt8, _ type: AttributeType, _ entity: EntitySchema, _ i: Int) -> Malformed {
            Malformed("tag \(tag) for \(entity.attributes[i].name), a \(type.rawValue)")
        }

        /// Throws unless every byte was read.
        func end() throws(Malformed) {
            guard p == bytes.count else { throw Malformed("\(bytes.count - p) bytes too many") }
        }

        /// Moves past attribute `i`'s value as `value` reads it, checking the same things.
        @inline(__always)
        mutating func skip(_ tag: UInt8, _ type: AttributeType, _ entity: EntitySchema, _ i: Int) throws(Malformed) {
            switch (tag, type) {
            case (0, _), (1, .bool), (2, .bool): return
            case (3, .int), (4, .double), (6, .date): _ = try take(8)
            case (5, .string), (7, .data): _ = try span()
            case (8, .uuid): _ = try take(16)
            case (9, .url): _ = try value(tag, type, entity, i)
            default: throw Self.wrongTag(tag, type, entity, i)
            }
        }

        /// A to-one: 0, or 1 and the target's key.
        @inline(__always)
        mutating func toOne() throws(Malformed) -> Int64? {
            switch try byte() {
            case 0: return nil
            case 1: return Int64(bitPattern: try fixed())
            case let tag: throw Malformed("relationship tag \(tag)")
            }
        }

        /// A LEB128 length and that many bytes.
        mutating func span() throws(Malformed) -> UnsafeRawBufferPointer {
            var n = 0
            var shift = 0
            while true {
                guard p < bytes.count, shift < 63 else { throw Malformed("bad length") }
                let b = bytes[p]
                p += 1
                n |= Int(b & 0x7F) << shift
                if b < 0x80 { break }
                shift += 7
            }
            return try take(n)
        }
    }
}
