@_spi(StrataEngine) import Strata

/// Database names that fit liblmdb's key limit (docs/formats/lmdb.md, "Long names").
///
/// A named database is a key of the environment's main database, so its name is at most
/// `mdb_env_get_maxkeysize` = 511 bytes; a longer one fails `mdb_dbi_open` with `MDB_BAD_VALSIZE`.
/// A name that fits is used as it is (every store written before keeps its names); a longer one
/// is cut to its first 400 bytes, at a character's start, followed by `#` and a 128-bit hash of
/// the whole name in hex: 433 bytes at most, and two long names share one only if their hashes do.
extension LMDBLayout {
    /// liblmdb's default key limit (`MDB_MAXKEYSIZE` 0: 511 bytes), which Debian's build keeps.
    static let longestName = 511

    /// The key of the entity's key counter in `strata.meta`, `next.<Entity>`, fitted like a name:
    /// a key of the main database has the same limit.
    static func counterName(_ entity: EntitySchema) -> String { fitted("next.\(entity.name)") }

    /// `name`, or its shortened form when it is longer than `longestName` bytes.
    static func fitted(_ name: String) -> String {
        guard name.utf8.count > longestName else { return name }
        var kept = 0
        for scalar in name.unicodeScalars {
            guard kept + UTF8.width(scalar) <= 400 else { break }
            kept += UTF8.width(scalar)
        }
        return String(decoding: name.utf8.prefix(kept), as: UTF8.self) + "#" + hash128(name)
    }

    /// FNV-1a over the name's UTF-8 bytes with two offset bases, as 32 hex digits: stable across
    /// processes and versions (Swift's `Hasher` is seeded per process).
    static func hash128(_ name: String) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in name.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = b ^ (b >> 29)
        }
        func hex(_ v: UInt64) -> String { let s = String(v, radix: 16); return String(repeating: "0", count: 16 - s.count) + s }
        return hex(a) + hex(b)
    }
}
