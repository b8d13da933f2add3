import Foundation
import Strata
import StrataFileSupport

/// The store document: one XML file holding every record, written whole and atomically.
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <strata-store format="strata-xml" version="1" schemaFingerprint="…" storeIdentifier="…" journalSequence="12">
/// <schema><line>entity Item</line>…</schema>
/// <entity name="Item" nextKey="101">
/// <record id="1"><value name="name">…</value><to-one name="owner">1</to-one></record>
/// </entity>
/// <checksum>FNV-1a of every byte before this element</checksum>
/// </strata-store>
/// ```
enum XMLDocumentFile {
    static let version: Int64 = 1
    /// The seal: the checksum is the root's last child, so the sealed file is still valid XML.
    static let seal = DocumentSeal(lead: "<checksum>", trail: "</checksum>\n</strata-store>\n")

    /// The codec of every entity, in schema order.
    static func codecs(_ schema: Schema) -> [XMLRecordCodec] { schema.entities.map(XMLRecordCodec.init) }

    /// The document for `state`, one record per line so diffs stay readable, sealed with its checksum.
    static func encode(_ state: StoreState, journalSequence: Int64, codecs: [XMLRecordCodec]) -> [UInt8] {
        var w = XMLWriter(capacity: 1 << 16)
        w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<strata-store")
        w.attribute("format", "strata-xml")
        w.attribute("version", version)
        w.attribute("schemaFingerprint", state.schema.fingerprint)
        w.attribute("storeIdentifier", state.storeIdentifier)
        w.attribute("journalSequence", journalSequence)
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
            throw StrataError(.corruptStore, "The store file is empty (0 bytes); it was truncated. Restore it from a backup.", file: file, offset: 0)
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
