import Foundation
@_spi(StrataEngine) import Strata

/// Record version 4 (docs/formats/lmdb.md, "Records"): the values at offsets the schema fixes.
///
///     version (1 byte, 4) · checksum (4 bytes LE, CRC32C of the key and everything after it) ·
///     presence bits (one per attribute, then one per to-one) · fixed-width slots in declaration
///     order (bool 1 byte, int/double/date 8 LE, UUID 16) · to-one slots (8 bytes LE each) ·
///     ends table (per string, data or URL attribute: the offset where its bytes end, 2 bytes LE
///     in a record of up to 65,535 bytes, 4 above) · the variable-length bytes
///
/// A slot is there whether or not its value is; an absent value's slot (zeros when a save writes
/// it) and span (empty) are not read. Where versions 2 and 3 needed a walk over every tag and
/// length to know that a record is sound, version 4 needs its checksum and a compare per
/// variable-length value (`checkShape(_:count:_:)`), and a value is read at its slot.
extension LMDBRecordCodec {
    /// The encoded size of `record` (version 4), so a save can reserve the bytes in the page.
    static func encodedSize(_ record: LMDBRecord, _ shape: LMDBRecordShape) -> Int {
        var variable = 0
        for value in record.attributes {
            switch value {
            case .string(let s): variable &+= s.utf8.count
            case .data(let d): variable &+= d.count
            case .url(let u): variable &+= u.absoluteString.utf8.count
            default: break
            }
        }
        let narrow = shape.endsStart + 2 * shape.variableCount + variable
        return narrow <= 0xFFFF ? narrow : narrow + 2 * shape.variableCount
    }

    /// Writes `record`, stored under `key`, as version 4 into `out`, which holds exactly
    /// `encodedSize` bytes. The values were checked against the schema (`SaveValidation`); a value
    /// that does not fit its slot stops the program rather than write past the record.
    ///
    /// Every inserted and updated record runs it (limit: Benchmarks/Thresholds/lmdb-insert.txt),
    /// so it is one loop over the values as they are: every slot is written (an absent value's
    /// with zeros) instead of clearing the record first, and no value is read after its case.
    static func encode(_ record: LMDBRecord, _ shape: LMDBRecordShape, key: Int64, into out: UnsafeMutableRawBufferPointer) {
        let base = out.baseAddress!
        let n = out.count
        let w = LMDBRecordShape.endWidth(n)
        let endsStart = shape.endsStart
        var tail = endsStart &+ shape.variableCount &* w
        precondition(tail <= n, "encodedSize and encode disagree")
        base.storeBytes(of: version, as: UInt8.self)
        for at in 5..<(5 &+ shape.presenceBytes) { base.storeBytes(of: 0, toByteOffset: at, as: UInt8.self) }
        let slots = shape.slots, widths = shape.widths
        let count = record.attributes.count
        var nextEnd = endsStart
        for i in 0..<count {
            let slot = slots[i], width = widths[i]
            // Each case sets its presence bit itself: reading `value` after the switch kept a copy
            // of every value alive past it (a retain and a release per value).
            switch record.attributes[i] {
            case .null:
                switch width {
                case 1: base.storeBytes(of: 0, toByteOffset: slot, as: UInt8.self)
                case 8: base.storeBytes(of: 0, toByteOffset: slot, as: UInt64.self)
                case 16: (base + slot).initializeMemory(as: UInt8.self, repeating: 0, count: 16)
                default: break
                }
            case .bool(let b):
                precondition(width == 1, wrongSlot)
                base.storeBytes(of: b ? 1 : 0, toByteOffset: slot, as: UInt8.self)
                setPresent(base, i)
            case .int(let v):
                precondition(width == 8, wrongSlot)
                base.storeBytes(of: UInt64(bitPattern: v).littleEndian, toByteOffset: slot, as: UInt64.self)
                setPresent(base, i)
            case .double(let d):
                precondition(width == 8, wrongSlot)
                base.storeBytes(of: d.bitPattern.littleEndian, toByteOffset: slot, as: UInt64.self)
                setPresent(base, i)
            case .date(let d):
                precondition(width == 8, wrongSlot)
                base.storeBytes(of: d.timeIntervalSinceReferenceDate.bitPattern.littleEndian, toByteOffset: slot, as: UInt64.self)
                setPresent(base, i)
            case .uuid(let u):
                precondition(width == 16, wrongSlot)
                withUnsafeBytes(of: u.uuid) { (base + slot).copyMemory(from: $0.baseAddress!, byteCount: 16) }
                setPresent(base, i)
            case .string(let s):
                precondition(width == 0, wrongSlot)
                if let next = s.utf8.withContiguousStorageIfAvailable({ copy(UnsafeRawBufferPointer($0), to: base, at: tail, count: n) }) {
                    tail = next
                } else {
                    var text = s
                    tail = text.withUTF8 { copy(UnsafeRawBufferPointer($0), to: base, at: tail, count: n) }
                }
                setPresent(base, i)
            case .data(let d):
                precondition(width == 0, wrongSlot)
                tail = d.withUnsafeBytes { copy($0, to: base, at: tail, count: n) }
                setPresent(base, i)
            case .url(let u):
                precondition(width == 0, wrongSlot)
                var text = u.absoluteString
                tail = text.withUTF8 { copy(UnsafeRawBufferPointer($0), to: base, at: tail, count: n) }
                setPresent(base, i)
            }
            if width == 0 {
                if w == 2 {
                    base.storeBytes(of: UInt16(truncatingIfNeeded: tail).littleEndian, toByteOffset: nextEnd, as: UInt16.self)
                } else {
                    base.storeBytes(of: UInt32(truncatingIfNeeded: tail).littleEndian, toByteOffset: nextEnd, as: UInt32.self)
                }
                nextEnd &+= w
            }
        }
        var r = 0
        for t in shape.toOneNumbers {
            if t >= 0 {
                let target = record.toOne[r]
                if target != nil { setPresent(base, count &+ t) }
                base.storeBytes(of: UInt64(bitPattern: target ?? 0).littleEndian, toByteOffset: shape.toOneStart &+ 8 &* t, as: UInt64.self)
            }
            r &+= 1
        }
        precondition(tail == n, "encodedSize and encode disagree")
        let sum = crc32c(UnsafeRawBufferPointer(start: base + 5, count: n &- 5), key: key)
        base.storeBytes(of: sum.littleEndian, toByteOffset: 1, as: UInt32.self)
    }

    /// The message of a value that does not fit its attribute's slot.
    private static var wrongSlot: String { "a value of the wrong type for its slot" }

    /// Copies a variable-length value's bytes to `at` in a record of `count` bytes; returns where
    /// the next value starts.
    @inline(__always)
    private static func copy(_ bytes: UnsafeRawBufferPointer, to base: UnsafeMutableRawPointer, at: Int, count: Int) -> Int {
        precondition(bytes.count <= count &- at, "encodedSize and encode disagree")
        if let source = bytes.baseAddress, !bytes.isEmpty { (base + at).copyMemory(from: source, byteCount: bytes.count) }
        return at &+ bytes.count
    }

    /// Sets presence bit `bit` of a version-4 record being written.
    @inline(__always)
    private static func setPresent(_ base: UnsafeMutableRawPointer, _ bit: Int) {
        let at = 5 &+ bit &>> 3
        base.storeBytes(of: base.load(fromByteOffset: at, as: UInt8.self) | UInt8(1 &<< (bit & 7)), toByteOffset: at, as: UInt8.self)
    }

    /// The shape of a version-4 record whose checksum is sound: long enough for its slots and
    /// ends table, unused presence bits clear, every bool 0 or 1, ends that never go back or past
    /// the end, and the last one at the end. Returns where the to-ones start (the record's
    /// `links`). Both checks run it — the fast one through `try?` — so they cannot disagree;
    /// once it passes, no value read can fail but a URL's parse, which `check` does.
    @inline(__always)
    static func checkShape(_ base: UnsafeRawPointer, count n: Int, _ shape: LMDBRecordShape) throws(Malformed) -> Int {
        let wide = n > 0xFFFF
        let variables = shape.variableCount
        var end = shape.endsStart &+ (wide ? variables &* 4 : variables &* 2)
        guard n >= end else { throw Malformed("truncated") }
        if shape.unusedPresenceBits != 0 {
            guard base.load(fromByteOffset: 4 &+ shape.presenceBytes, as: UInt8.self) & shape.unusedPresenceBits == 0 else { throw Malformed("presence bits of no value") }
        }
        if !shape.bools.isEmpty {
            for at in shape.bools where base.load(fromByteOffset: at, as: UInt8.self) > 1 { throw Malformed("bool byte \(base.load(fromByteOffset: at, as: UInt8.self))") }
        }
        var p = shape.endsStart
        for _ in 0..<variables {
            let next = wide ? Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt32.self))) : Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt16.self)))
            guard next >= end, next <= n else { throw Malformed("bad length") }
            end = next
            p &+= wide ? 4 : 2
        }
        guard end == n else { throw Malformed("\(n - end) bytes too many") }
        return shape.toOneStart
    }

    /// Whether bit `bit` of a version-4 record's presence bits is set.
    @inline(__always)
    static func isPresent(_ base: UnsafeRawPointer, _ bit: Int) -> Bool {
        base.load(fromByteOffset: 5 &+ bit &>> 3, as: UInt8.self) & UInt8(1 &<< (bit & 7)) != 0
    }

    /// The bytes of variable-length value `j` of a version-4 record `checkShape(_:count:_:)` accepted.
    @inline(__always)
    static func span(_ j: Int, _ base: UnsafeRawPointer, count n: Int, _ shape: LMDBRecordShape) -> UnsafeRawBufferPointer {
        let w = LMDBRecordShape.endWidth(n)
        func end(_ j: Int) -> Int {
            let at = shape.endsStart &+ j &* w
            return w == 2 ? Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt16.self))) : Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        }
        let start = j == 0 ? shape.endsStart &+ shape.variableCount &* w : end(j &- 1)
        return UnsafeRawBufferPointer(start: base + start, count: end(j) &- start)
    }

    /// Attribute `i` of a version-4 record `checkShape(_:count:_:)` accepted; only a URL that does not
    /// parse can fail.
    static func value(at i: Int, _ base: UnsafeRawPointer, count n: Int, _ shape: LMDBRecordShape) throws(Malformed) -> Value {
        guard isPresent(base, i) else { return .null }
        let slot = shape.slots[i]
        func bits() -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: slot, as: UInt64.self)) }
        switch shape.entity.attributeTypes[i] {
        case .bool: return .bool(base.load(fromByteOffset: slot, as: UInt8.self) != 0)
        case .int: return .int(Int64(bitPattern: bits()))
        case .double: return .double(Double(bitPattern: bits()))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits())))
        case .uuid:
            var u = UUID().uuid
            withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + slot, count: 16)) }
            return .uuid(UUID(uuid: u))
        case .string: return .string(String(decoding: span(~slot, base, count: n, shape), as: UTF8.self))
        case .data: return .data(Data(span(~slot, base, count: n, shape)))
        case .url:
            let text = String(decoding: span(~slot, base, count: n, shape), as: UTF8.self)
            guard let url = URL(string: text) else { throw Malformed("unreadable URL") }
            return .url(url)
        }
    }

    /// Every attribute of a version-4 record `checkShape(_:count:_:)` accepted.
    static func values(_ base: UnsafeRawPointer, count n: Int, _ shape: LMDBRecordShape) throws(Malformed) -> [Value] {
        var attributes: [Value] = []
        attributes.reserveCapacity(shape.slots.count)
        for i in shape.slots.indices { attributes.append(try value(at: i, base, count: n, shape)) }
        return attributes
    }

    /// Whether a version-4 record holds a URL (which only the full check parses).
    @inline(__always)
    static func holdsURL(_ base: UnsafeRawPointer, _ shape: LMDBRecordShape) -> Bool {
        shape.urls.contains { isPresent(base, $0) }
    }

    /// Hands each set to-one of a version-4 record to `body` (relationship index, key).
    @inline(__always)
    static func toOnes(_ base: UnsafeRawPointer, _ shape: LMDBRecordShape, _ body: (Int, Int64) -> Void) {
        let attributes = shape.slots.count
        for (r, t) in shape.toOneNumbers.enumerated() where t >= 0 && isPresent(base, attributes &+ t) {
            body(r, Int64(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: shape.toOneStart &+ 8 &* t, as: UInt64.self))))
        }
    }
}
