@_spi(StrataEngine) import Strata

/// The damage reports the SQL backends share (a column holding what no save writes, metadata
/// gone under an open store), written once.
extension StrataError {
    /// A URL column whose text is not a URL.
    package static func notAURL(_ text: String, file: String?) -> StrataError {
        StrataError(.corruptStore, "A URL column holds '\(text)', which is not a URL.", file: file)
    }

    /// A UUID column of `count` bytes.
    package static func notAUUID(byteCount count: Int, file: String?) -> StrataError {
        StrataError(.corruptStore, "A UUID column holds \(count) bytes, not 16.", file: file)
    }

    /// The store's metadata (format, schema record) is gone while the store is open.
    package static func metadataDisappeared(file: String?) -> StrataError {
        StrataError(.corruptStore, "The store's metadata disappeared while it was open.", file: file)
    }
}
