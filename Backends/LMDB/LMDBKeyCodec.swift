import Foundation
@_spi(StrataEngine) import Strata

/// The byte forms of keys: primary keys in big-endian (so LMDB's byte order is key order), and
/// order-preserving encodings of values for unique-constraint and index databases.
///
/// A value key sorts by LMDB's memcmp exactly as `Value.sortOrder` sorts the values: integers with
/// the sign bit flipped, doubles and dates with the IEEE order trick (−0 is written as +0), strings,
/// URLs and data as their bytes. Each part starts with a type tag, so no key is empty (LMDB refuses
/// empty keys). Composite keys escape each variable-length part (0x00 → 0x00 0xFF, ended by 0x00 0x01)
/// so parts cannot run into each other. Keys longer than LMDB's limit are cut: a cut key still sorts
/// no later than the value, and every user of a cut key compares the full values (`isTruncated`).
enum LMDBKeyCodec {
    /// The longest key this backend writes; LMDB's default build allows 511 bytes.
    static let maximumKeyLength = 500

    /// `key` as 8 big-endian bytes.
    @inline(__always)
    static func bigEndian(_ key: Int64) -> UInt64 { UInt64(bitPattern: key).bigEndian }

    /// Reads 8 big-endian bytes at `p`.
    @inline(__always)
    static func readBigEndian(_ p: UnsafeRawPointer?) -> Int64 {
        Int64(bitPattern: UInt64(bigEndian: p!.loadUnaligned(as: UInt64.self)))
    }

    /// The index or unique key of one or more values, or `nil` when a part is `nil` (or NaN, which
    /// equals nothing): such records are neither indexed nor constrained.
    static func valueKey(_ values: [Value]) -> [UInt8]? {
        var key: [UInt8] = []
        key.reserveCapacity(24)
        if values.count == 1 {
            guard append(values[0].uniqueKey, to: &key, escaped: false) else { return nil }
        } else {
            for v in values { guard append(v.uniqueKey, to: &key, escaped: true) else { return nil } }
        }
        if key.count > maximumKeyLength { key.removeLast(key.count - maximumKeyLength) }
        return key
    }

    /// Writes the key of `record`'s values for the properties `refs` into `key` (cleared first, its
    /// storage reused); returns false, leaving no key, when a part is `nil` or NaN.
    static func valueKey(_ refs: [PropertyReference], _ record: LMDBRecord, into key: inout [UInt8]) -> Bool {
        key.removeAll(keepingCapacity: true)
        let escaped = refs.count > 1
        for ref in refs {
            switch ref {
            case .attribute(let i):
                guard append(record.attributes[i].uniqueKey, to: &key, escaped: escaped) else { return false }
            case .relationship(let r):
                guard let target = record.toOne[r], append(.int(target), to: &key, escaped: escaped) else { return false }
            }
        }
        if key.count > maximumKeyLength { key.removeLast(key.count - maximumKeyLength) }
        return true
    }

    /// `valueKey(_:_:into:)` written into `out` (room for `maximumKeyLength` bytes) instead of an
    /// array: the key's length, or `nil` when a part is `nil` or NaN (no key).
    ///
    /// A save files every inserted record's unique and index keys through it (limit:
    /// Benchmarks/Thresholds/lmdb-insert.txt), so a one-property key of a fixed-size value or a
    /// native string is written in place — no `uniqueKey` copy, no array bookkeeping (clearing a
    /// reused array alone cost more than writing a key); any other key is built by
    /// `valueKey(_:_:into:)` and copied. Both give the same bytes (tested).
    static func valueKey(_ refs: [PropertyReference], _ record: LMDBRecord, into out: UnsafeMutableRawBufferPointer) -> Int? {
        if refs.count == 1, case .attribute(let i) = refs[0], let base = out.baseAddress {
            @inline(__always)
            func fixed(_ type: AttributeType, _ bits: UInt64) -> Int {
                base.storeBytes(of: tag(type), as: UInt8.self)
                base.storeBytes(of: bits.bigEndian, toByteOffset: 1, as: UInt64.self)
                return 9
            }
            switch record.attributes[i] {
            case .null: return nil
            case .bool(let b):
                base.storeBytes(of: tag(.bool), as: UInt8.self)
                base.storeBytes(of: b ? 1 : 0, toByteOffset: 1, as: UInt8.self)
                return 2
            case .int(let v): return fixed(.int, UInt64(bitPattern: v) ^ (1 << 63))
            case .double(let d): return d.isNaN ? nil : fixed(.double, orderedBits(d))
            case .date(let d):
                let t = d.timeIntervalSinceReferenceDate
                return t.isNaN ? nil : fixed(.date, orderedBits(t))
            case .string(let s):
                let written = s.utf8.withContiguousStorageIfAvailable { utf8 in
                    base.storeBytes(of: tag(.string), as: UInt8.self)
                    let n = min(utf8.count, maximumKeyLength - 1)
                    if n > 0 { (base + 1).copyMemory(from: utf8.baseAddress!, byteCount: n) }
                    return 1 + n
                }
                if let written { return written }
            default: break
            }
        }
        var key: [UInt8] = []
        guard valueKey(refs, record, into: &key) else { return nil }
        key.withUnsafeBytes { out.copyMemory(from: $0) }
        return key.count
    }

    /// Whether a key made by `valueKey` was cut to the length limit.
    static func isTruncated(_ key: some Collection<UInt8>) -> Bool { key.count == maximumKeyLength }

    /// The type tag of each kind of value (their order is `Value.sortOrder`'s type order).
    /// A switch, not `allCases.firstIndex`: that built an array on every key (a test checks they agree).
    static func tag(_ type: AttributeType) -> UInt8 {
        switch type {
        case .bool: 1
        case .int: 2
        case .double: 3
        case .string: 4
        case .date: 5
        case .data: 6
        case .uuid: 7
        case .url: 8
        }
    }

    private static func append(_ value: Value, to key: inout [UInt8], escaped: Bool) -> Bool {
        guard let type = value.type else { return false }
        key.append(tag(type))
        // A typed buffer: `append(contentsOf:)` of a raw buffer takes the generic per-element path.
        func fixed(_ bits: UInt64) { withUnsafeBytes(of: bits.bigEndian) { key.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) } }
        func bytes<C: Collection<UInt8>>(_ c: C) {
            guard escaped else { key.append(contentsOf: c); return }
            for b in c {
                key.append(b)
                if b == 0 { key.append(0xFF) }
            }
            key.append(0)
            key.append(1)
        }
        switch value {
        case .null: return false
        case .bool(let b): key.append(b ? 1 : 0)
        case .int(let i): fixed(UInt64(bitPattern: i) ^ (1 << 63))
        case .double(let d): fixed(orderedBits(d))
        case .date(let d): fixed(orderedBits(d.timeIntervalSinceReferenceDate))
        case .string(let s):
            // A native string lends its UTF-8 as one contiguous block: one copy, not a byte loop.
            if escaped || s.utf8.withContiguousStorageIfAvailable({ key.append(contentsOf: $0) }) == nil { bytes(s.utf8) }
        case .url(let u): bytes(u.absoluteString.utf8)
        case .data(let d): bytes(d)
        case .uuid(let u): withUnsafeBytes(of: u.uuid) { key.append(contentsOf: $0) }
        }
        return true
    }

    /// A double's bits arranged so that unsigned comparison is numeric order (−0 as +0).
    static func orderedBits(_ d: Double) -> UInt64 {
        let bits = (d == 0 ? 0 : d).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }
}
