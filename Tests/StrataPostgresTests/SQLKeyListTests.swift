import StrataSQLSupport
import Testing

/// The key lists the SQL dialects bind as one parameter (`SQLKeyList`): what `String(key)` joined
/// with commas gives, for every kind of key.
struct SQLKeyListTests {
    @Test("a key list is the keys in decimal, comma-separated, between its brackets")
    func decimal() {
        let keys: [Int64] = [0, 1, 9, 10, 99, 100, 12_345, -1, -10, -987_654, .max, .min, 1_000_000_007]
        let text = String(decoding: SQLKeyList.bytes(keys, open: UInt8(ascii: "["), close: UInt8(ascii: "]")), as: UTF8.self)
        #expect(text == "[" + keys.map(String.init).joined(separator: ",") + "]")
        #expect(SQLKeyList.bytes([], open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) == Array("{}".utf8))
        #expect(SQLKeyList.bytes([7], open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) == Array("{7}".utf8))
    }
}
