import Foundation
@_spi(StrataEngine) import Strata

/// One field of a CSV row: its text, and whether it was quoted (an unquoted empty field is `nil`,
/// a quoted one `""` is an empty string).
public struct CSVField: Equatable, Sendable {
    /// The text between the commas (quotes removed, doubled quotes undone).
    public var text: String
    /// Whether the field was written in quotes.
    public var quoted: Bool
    /// A field.
    public init(text: String, quoted: Bool) {
        self.text = text
        self.quoted = quoted
    }
}

/// An RFC 4180 reader that reports the line and column of the first error.
///
/// Hand-written rather than taken from the offline set (SwiftCSV 0.10, CSV.swift 2.5): the store
/// needs to know whether a field was quoted (that is how `nil` and `""` stay apart), byte-exact text
/// (CR/LF and any Unicode inside quotes), and errors with a line and column for `corruptStore`;
/// neither library exposes all three.
struct CSVParser {
    let file: String

    /// The rows of `data` with the line each starts on. A final line break is optional.
    func rows(_ data: Data) throws -> [(line: Int, fields: [CSVField])] {
        let bytes = [UInt8](data)
        var rows: [(line: Int, fields: [CSVField])] = []
        var rowLine = 1
        var row: [CSVField] = []
        var field: [UInt8] = []
        var quoted = false
        var i = 0
        var line = 1
        var column = 1
        func error(_ what: String) -> StrataError {
            StrataError(.corruptStore, "The CSV file is malformed at line \(line), column \(column): \(what).", file: file, offset: i, line: line, column: column)
        }
        func endField() {
            row.append(CSVField(text: String(decoding: field, as: UTF8.self), quoted: quoted))
            field.removeAll(keepingCapacity: true)
            quoted = false
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") && field.isEmpty && !quoted {
                // A quoted field: read up to the closing quote, "" being an escaped quote.
                quoted = true
                i += 1
                column += 1
                while true {
                    guard i < bytes.count else { throw error("a quoted field is not closed") }
                    let c = bytes[i]
                    if c == UInt8(ascii: "\"") {
                        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                            field.append(c)
                            i += 2
                            column += 2
                            continue
                        }
                        i += 1
                        column += 1
                        break
                    }
                    if c == 0x0A { line += 1; column = 1 } else { column += 1 }
                    field.append(c)
                    i += 1
                }
                guard i >= bytes.count || bytes[i] == UInt8(ascii: ",") || bytes[i] == 0x0A || bytes[i] == 0x0D else {
                    throw error("text after a closing quote")
                }
                continue
            }
            switch b {
            case UInt8(ascii: ","):
                endField()
                i += 1
                column += 1
            case 0x0D, 0x0A:
                endField()
                rows.append((rowLine, row))
                row = []
                i += (b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A) ? 2 : 1
                line += 1
                rowLine = line
                column = 1
            case UInt8(ascii: "\""):
                throw error("a quote inside an unquoted field")
            default:
                if quoted { throw error("text after a closing quote") }
                field.append(b)
                i += 1
                column += 1
            }
        }
        if !field.isEmpty || quoted || !row.isEmpty {
            endField()
            rows.append((rowLine, row))
        }
        return rows
    }
}

/// Writes RFC 4180 rows: every non-nil string quoted, quotes doubled, lines ended with CRLF.
struct CSVWriter {
    private(set) var bytes: [UInt8] = []

    mutating func row(_ fields: [CSVField?]) {
        for (n, field) in fields.enumerated() {
            if n > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let field else { continue }  // nil: an empty, unquoted field
            if field.quoted {
                bytes.append(UInt8(ascii: "\""))
                for b in field.text.utf8 {
                    if b == UInt8(ascii: "\"") { bytes.append(b) }
                    bytes.append(b)
                }
                bytes.append(UInt8(ascii: "\""))
            } else {
                bytes.append(contentsOf: field.text.utf8)
            }
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }
}
