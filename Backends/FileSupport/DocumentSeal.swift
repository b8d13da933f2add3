@_spi(StrataEngine) import Strata

/// A checksum sealed at the end of a whole-file document, so that damage to any byte is found at open.
///
/// The writer produces the document up to its last member, then `seal` appends `lead`, the checksum
/// of everything before it, and `trail`. For a JSON document the lead is `"checksum": "` and the
/// trail `"\n}\n`, so the sealed file is still plain JSON; another format picks its own pair (a
/// comment, an element). A truncated file has no seal at its end, so truncation is damage too.
public struct DocumentSeal: Sendable {
    /// The text written before the checksum digits.
    public let lead: String
    /// The text written after them, which ends the file.
    public let trail: String

    /// A seal written as `lead` + 16 hex digits + `trail`.
    public init(lead: String, trail: String) {
        self.lead = lead
        self.trail = trail
    }

    /// The seal of JSON documents: a last member `"checksum": "<hex>"` closing the top-level object.
    public static let json = DocumentSeal(lead: "\"checksum\": \"", trail: "\"\n}\n")

    /// `content` followed by its seal.
    public func seal(_ content: [UInt8]) -> [UInt8] {
        content + Array(lead.utf8) + Array(Checksum.hex(content).utf8) + Array(trail.utf8)
    }

    /// The content of a sealed file, after checking its seal.
    ///
    /// - Throws: `corruptStore` naming `file`: no seal at the end (truncated, or not written by this
    ///   format), or a checksum that does not match (some byte changed).
    public func content(of bytes: [UInt8], file: String) throws -> ArraySlice<UInt8> {
        let lead = Array(lead.utf8), trail = Array(trail.utf8)
        let sealLength = lead.count + 16 + trail.count
        let start = bytes.count - sealLength
        guard start >= 0, bytes[start..<(start + lead.count)].elementsEqual(lead), bytes[(bytes.count - trail.count)...].elementsEqual(trail),
            Checksum.isHex(bytes[(start + lead.count)..<(start + lead.count + 16)])
        else {
            throw StrataError(.corruptStore, "The file does not end with its checksum; it was truncated or damaged. Restore it from a backup.", file: file, offset: max(0, start))
        }
        let content = bytes[..<start]
        guard Checksum.hex(content).utf8.elementsEqual(bytes[(start + lead.count)..<(start + lead.count + 16)]) else {
            throw StrataError(.corruptStore, "The file's checksum does not match its content: some byte before offset \(start) was changed or damaged. Restore it from a backup.", file: file, offset: start)
        }
        return content
    }
}
