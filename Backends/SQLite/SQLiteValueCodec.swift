import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// Reads SQLite column values back into attribute values; the writing side is the shared
/// `SQLValueCodec` (Backends/SQLSupport), which every SQL dialect stores alike.
enum SQLiteValueCodec {
    /// Reads a value of `type` from `column`, which the caller found not NULL. Doubles and dates
    /// with a `__bits` companion are read by `SQLiteRowLayout`, which consults the companion.
    static func decodePresent(_ s: SQLiteStatement, _ column: Int32, type: AttributeType, file: @autoclosure () -> String) throws -> Value {
        switch type {
        case .bool: return .bool(s.int64(column) != 0)
        case .int: return .int(s.int64(column))
        case .double: return .double(s.double(column))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: s.double(column)))
        case .string: return .string(s.text(column))
        case .url:
            let text = s.text(column)
            guard let url = URL(string: text) else {
                throw StrataError.notAURL(text, file: file())
            }
            return .url(url)
        case .data: return .data(s.blob(column))
        case .uuid:
            let bytes = s.blob(column)
            guard bytes.count == 16 else { throw StrataError.notAUUID(byteCount: bytes.count, file: file()) }
            return .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        }
    }
}
