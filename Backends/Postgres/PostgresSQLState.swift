import Strata

extension StrataError.NativeError.Domain {
    /// PostgreSQL's SQLSTATE codes (`NativeError.code` is `PostgresSQLState.number(of:)` of the
    /// five-character code; the message starts with the code itself, e.g. `23505 duplicate key …`).
    public static let postgres = StrataError.NativeError.Domain(rawValue: "postgres")
}

/// PostgreSQL's five-character SQLSTATE codes as the integers `StrataError.NativeError.code` holds.
///
/// The encoding is PostgreSQL's own (`MAKE_SQLSTATE` in its `errcodes.h`): six bits per character,
/// the first character lowest. `number(of: "23505")` is the unique violation's code; `code(of:)`
/// turns the integer back into the five characters.
public enum PostgresSQLState {
    /// The integer for a five-character SQLSTATE (`0` for anything that is not five characters of
    /// `0`–`9` and `A`–`Z`).
    public static func number(of sqlstate: String) -> Int {
        let bytes = Array(sqlstate.utf8)
        guard bytes.count == 5, bytes.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) }) else { return 0 }
        return bytes.enumerated().reduce(0) { $0 | ((Int($1.element) - 48) & 0x3F) << (6 * $1.offset) }
    }

    /// The five characters of an integer made by `number(of:)`.
    public static func code(of number: Int) -> String {
        String(decoding: (0..<5).map { UInt8(((number >> (6 * $0)) & 0x3F) + 48) }, as: UTF8.self)
    }
}
