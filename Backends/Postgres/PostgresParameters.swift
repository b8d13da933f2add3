import Foundation
import StrataSQLSupport

/// Statement parameters in PostgreSQL's binary wire format: `int8` and `float8` big-endian, text
/// and bytes as `bytea` (raw bytes), NULL as no value. The type OIDs go to `PQprepare`, so the server
/// never guesses a parameter's type from its text.
struct PostgresParameters {
    /// The OID of each parameter's type (0, "unknown", for NULL).
    let types: [UInt32]
    private let bytes: [UInt8]
    private let ranges: [Range<Int>?]

    static let int8: UInt32 = 20
    static let float8: UInt32 = 701
    static let bytea: UInt32 = 17

    init(_ values: [SQLValue]) {
        var types: [UInt32] = []
        var bytes: [UInt8] = []
        var ranges: [Range<Int>?] = []
        types.reserveCapacity(values.count)
        for value in values {
            let start = bytes.count
            switch value {
            case .null:
                types.append(0)
                ranges.append(nil)
                continue
            case .integer(let v):
                types.append(Self.int8)
                withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) }
            case .real(let v):
                types.append(Self.float8)
                withUnsafeBytes(of: v.bitPattern.bigEndian) { bytes.append(contentsOf: $0) }
            case .text(let s):
                types.append(Self.bytea)
                bytes.append(contentsOf: s.utf8)
            case .blob(let d):
                types.append(Self.bytea)
                bytes.append(contentsOf: d)
            }
            ranges.append(start..<bytes.count)
        }
        self.types = types
        self.bytes = bytes
        self.ranges = ranges
    }

    /// Calls `body` with libpq's parallel arrays: value pointers (nil for NULL), lengths, formats (all binary).
    func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            // A non-nil base even for zero bytes: an empty string or empty Data is a value, not NULL.
            let base = UnsafeRawPointer(buffer.baseAddress) ?? UnsafeRawPointer(bitPattern: 1)!
            let pointers: [UnsafePointer<CChar>?] = ranges.map { range in
                range.map { (base + $0.lowerBound).assumingMemoryBound(to: CChar.self) }
            }
            let lengths = ranges.map { Int32($0?.count ?? 0) }
            let formats = [Int32](repeating: 1, count: ranges.count)
            return pointers.withUnsafeBufferPointer { p in
                lengths.withUnsafeBufferPointer { l in formats.withUnsafeBufferPointer { f in body(p.baseAddress, l.baseAddress, f.baseAddress) } }
            }
        }
    }
}
