/// A list of keys as the text a dialect binds it in one parameter (`SQLDialect.keyIn`): the keys in
/// decimal, separated by commas, between `open` and `close` (`[1,2,3]` for SQLite's `json_each`,
/// `{1,2,3}` for a PostgreSQL array). Written into one buffer: a set-wise delete binds every
/// victim's key this way, and `String(key)` joined cost about 900 instructions a key
/// (Benchmarks/Thresholds/sqlite-cascade-delete.txt).
package enum SQLKeyList {
    /// The ASCII bytes of the list.
    @inlinable
    package static func bytes(_ keys: [Int64], open: UInt8, close: UInt8) -> [UInt8] {
        // At most 21 bytes a key: a comma, a sign and 19 digits.
        [UInt8](unsafeUninitializedCapacity: keys.count * 21 + 2) { buffer, count in
            var i = 0
            buffer[i] = open
            i += 1
            for n in keys.indices {
                if n > 0 {
                    buffer[i] = UInt8(ascii: ",")
                    i += 1
                }
                let key = keys[n]
                if key < 0 {
                    buffer[i] = UInt8(ascii: "-")
                    i += 1
                }
                var m = key.magnitude, digits = 1, rest = m / 10
                while rest > 0 {
                    digits += 1
                    rest /= 10
                }
                var j = i + digits - 1
                repeat {
                    buffer[j] = UInt8(truncatingIfNeeded: m % 10) &+ UInt8(ascii: "0")
                    m /= 10
                    j -= 1
                } while m > 0
                i += digits
            }
            buffer[i] = close
            count = i + 1
        }
    }
}
