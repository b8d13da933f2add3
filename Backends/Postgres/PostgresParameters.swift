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

    /// The OID of `value`'s type as bound (0, "unknown", for NULL).
    static func type(of value: SQLValue) -> UInt32 {
        switch value {
        case .null: 0
        case .integer: int8
        case .real: float8
        case .text, .blob: bytea
        }
    }

    init(_ values: [SQLValue]) {
        var types: [UInt32] = []
        var bytes: [UInt8] = []
        var ranges: [Range<Int>?] = []
        types.reserveCapacity(values.count)
        ranges.reserveCapacity(values.count)
        // The bytes' size worked out first: growing the buffer value by value reallocated it.
        var size = 0
        for value in values {
            switch value {
            case .null: break
            case .integer, .real: size += 8
            case .text(let s): size += s.utf8.count
            case .blob(let d): size += d.count
            }
        }
        bytes.reserveCapacity(size)
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
            let count = ranges.count
            // On the stack for the usual few parameters: three arrays per statement were three
            // allocations per row of a pipelined save.
            return withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: count) { pointers in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count) { numbers in
                    for (i, range) in ranges.enumerated() {
                        pointers.initializeElement(at: i, to: range.map { (base + $0.lowerBound).assumingMemoryBound(to: CChar.self) })
                        numbers.initializeElement(at: i, to: Int32(range?.count ?? 0))
                        numbers.initializeElement(at: count + i, to: 1)
                    }
                    return body(UnsafePointer(pointers.baseAddress), UnsafePointer(numbers.baseAddress), numbers.baseAddress.map { UnsafePointer($0 + count) })
                }
            }
        }
    }
}
