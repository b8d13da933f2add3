import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The store document: one XML file holding every record, written whole and atomically.
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <strata-store format="strata-xml" version="2" schemaFingerprint="…" storeIdentifier="…" journalSequence="12" schemaRecord="{…}">
/// <schema><line>entity Item</line>…</schema>
/// <entity name="Item" nextKey="101">
/// <record id="1"><value name="name">…</value><to-one name="owner">1</to-one></record>
/// </entity>
/// <checksum>FNV-1a of every byte before this element</checksum>
/// </strata-store>
/// ```
///
/// Version 2 differs from version 1 in one promise: the journal beside it starts with its header
/// line (`Journal`), so an emptied journal is damage. A version 1 store is still read; its first
/// save folds and gives the journal its header (`JournaledDocumentFiles.fold`).
enum XMLDocumentFile {
    static let version: Int64 = 2
    /// The first version whose journal starts with a header line.
    static let journalHeaderVersion: Int64 = 2
    /// The seal: the checksum is the root's last child, so the sealed file is still valid XML.
    static let seal = DocumentSeal(lead: "<checksum>", trail: "</checksum>\n</strata-store>\n")

    /// The schema a document records: the root's `schemaRecord` attribute (the `RecordedSchema`
    /// JSON), read from the start tag alone; a document written before records has only
    /// `schemaFingerprint` and reads as a legacy record.
    static func recordedSchema(_ bytes: [UInt8], file: String) throws -> RecordedSchema {
        let end = bytes.firstIndex(of: UInt8(ascii: ">")).flatMap { first in bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ">")) } ?? bytes.count
        let tag = bytes[..<end]
        func attribute(_ name: String) -> String? {
            guard let found = tag.firstRange(of: Array(" \(name)=\"".utf8)) else { return nil }
            guard let close = tag[found.upperBound...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return unescape(String(decoding: tag[found.upperBound..<close], as: UTF8.self))
        }
        if let record = attribute("schemaRecord") { return try RecordedSchema(decoding: Array(record.utf8), file: file) }
        guard tag.firstRange(of: Array("<strata-store".utf8)) != nil, let fingerprint = attribute("schemaFingerprint") else {
            throw StrataError(.corruptStore, "The file is not a Strata XML store (no <strata-store> start tag with a schema fingerprint).", file: file)
        }
        return RecordedSchema(legacyFingerprint: fingerprint, canonicalDescription: legacyDescription(bytes))
    }

    /// The `<line>`s of an older document's `<schema>` element (its canonical description).
    private static func legacyDescription(_ bytes: [UInt8]) -> [String]? {
        guard let open = bytes.firstRange(of: Array("<schema>".utf8)), let close = bytes[open.upperBound...].firstRange(of: Array("</schema>".utf8)) else { return nil }
        let text = String(decoding: bytes[open.upperBound..<close.lowerBound], as: UTF8.self)
        return text.components(separatedBy: "</line>").compactMap { piece -> String? in
            guard let start = piece.range(of: "<line"), let end = piece[start.upperBound...].firstIndex(of: ">") else { return nil }
            let content = String(piece[piece.index(after: end)...])
            if piece[start.upperBound..<end].contains("base64") {
                return Data(base64Encoded: content).map { String(decoding: $0, as: UTF8.self) }
            }
            return unescape(content)
        }
    }

    /// An attribute value with the references `XMLWriter.attribute` writes resolved.
    private static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) { result.unicodeScalars.append(scalar) }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }

    /// The codec of every entity, in schema order.
    static func codecs(_ schema: Schema) -> [XMLRecordCodec] { schema.entities.map(XMLRecordCodec.init) }

    /// The document for `state`, one record per line so diffs stay readable, sealed with its checksum.
    static func encode(_ state: StoreState, journalSequence: Int64, version: Int64 = version, codecs: [XMLRecordCodec]) -> [UInt8] {
        var w = XMLWriter(capacity: 1 << 16)
        w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<strata-store")
        w.attribute("format", "strata-xml")
        w.attribute("version", version)
        w.attribute("schemaFingerprint", state.schema.fingerprint)
        w.attribute("storeIdentifier", state.storeIdentifier)
        w.attribute("journalSequence", journalSequence)
        w.attribute("schemaRecord", String(decoding: RecordedSchema.encoded(state.schema), as: UTF8.self))
        w.raw(">\n<schema>\n")
        for line in state.schema.canonicalDescription {
            if XMLWriter.canCarry(line) {
                w.raw("<line>")
                w.text(line)
            } else {
                w.raw("<line encoding=\"base64\">")  // a default value with a control character
                w.raw(Data(line.utf8).base64EncodedString())
            }
            w.raw("</line>\n")
        }
        w.raw("</schema>\n")
        for codec in codecs {
            w.raw("<entity")
            w.attribute("name", codec.entity.name)
            w.attribute("nextKey", state.nextPrimaryKey(codec.entity))
            w.raw(">\n")
            state.forEachRecord(codec.entity) { key, record in
                codec.write(key, record, to: &w)
                w.raw("\n")
                return true
            }
            w.raw("</entity>\n")
        }
        return seal.seal(w.bytes)
    }

    /// Reads a document into a state; every damage is `corruptStore` naming the file (with libxml2's
    /// line and column when the XML itself is broken).
    static func decode(_ bytes: [UInt8], schema: Schema, codecs: [XMLRecordCodec], file: String) throws -> (StoreState, XMLStoreReader.Header) {
        guard !bytes.isEmpty else {
            throw StrataError.emptyStoreFile(file)
        }
        let reader = XMLStoreReader(schema: schema, codecs: codecs, applyingTo: nil)
        do {
            _ = try seal.content(of: bytes, file: file)
        } catch let sealError {
            // Say where the XML breaks if it does (a truncated file, a torn tag): libxml2 knows the line.
            try bytes.withUnsafeBytes { try XMLEventParser.parse($0, file: file, into: reader) }
            throw sealError
        }
        try bytes.withUnsafeBytes { try XMLEventParser.parse($0, file: file, into: reader) }
        return (reader.takeState(), reader.header)
    }
}
