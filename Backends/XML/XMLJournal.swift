import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The append-only change journal beside the document: one line per save.
///
/// A line is `<16 hex digits> <save …>…</save>\n` (the shared `Journal` format: the digits are the
/// checksum of the XML). The XML is a small document of its own, valid against the same schema:
/// `<save seq="n">` holding `<delete entity="E">KEYS</delete>`, `<put entity="E"><record …/></put>`
/// and `<next entity="E" key="K"/>` for every key counter the save moved, applied in that order.
/// Line feeds in values are written `&#10;`, so an entry is one line. Sequence numbers are
/// consecutive, so a line dropped, repeated or moved is found.
enum XMLJournal {
    /// The line recording one save.
    static func line(sequence: Int64, commit: CommitContext, codecs: [XMLRecordCodec]) -> [UInt8] {
        var w = XMLWriter(singleLine: true, capacity: 256)
        w.raw("<save")
        w.attribute("seq", sequence)
        w.raw(">")
        for codec in codecs where !commit.changes.deleted[codec.entity.index].isEmpty {
            w.raw("<delete")
            w.attribute("entity", codec.entity.name)
            w.raw(">")
            w.raw(commit.changes.deleted[codec.entity.index].sorted().map(String.init).joined(separator: " "))
            w.raw("</delete>")
        }
        for codec in codecs {
            let keys = commit.changes.inserted[codec.entity.index] + commit.changes.updated[codec.entity.index].sorted()
            let records = keys.compactMap { key in commit.next.record(codec.entity, key).map { (key, $0) } }
            guard !records.isEmpty else { continue }
            w.raw("<put")
            w.attribute("entity", codec.entity.name)
            w.raw(">")
            for (key, record) in records { codec.write(key, record, to: &w) }
            w.raw("</put>")
        }
        for codec in codecs where commit.next.nextPrimaryKey(codec.entity) != commit.previous.nextPrimaryKey(codec.entity) {
            w.raw("<next")
            w.attribute("entity", codec.entity.name)
            w.attribute("key", commit.next.nextPrimaryKey(codec.entity))
            w.raw("/>")
        }
        w.raw("</save>")
        return Journal.line(w.bytes)
    }

    /// Applies the journal's lines after the document's `sequence` to `state`; returns the scan
    /// (where a writer appends next) and the last sequence number.
    ///
    /// Lines at or below `sequence` were folded into the document already (a crash between the
    /// document's rename and the journal's truncation leaves them) and are skipped; the first line
    /// after them must be `sequence + 1`, and every line the one before it plus one.
    static func replay(_ bytes: [UInt8], into state: inout StoreState, after sequence: Int64, codecs: [XMLRecordCodec], file: String) throws -> (Journal.Scan, Int64) {
        let scan = try Journal.scan(bytes, file: file)
        guard !scan.lines.isEmpty else { return (scan, sequence) }
        let reader = XMLStoreReader(schema: state.schema, codecs: codecs, applyingTo: state, after: sequence)
        state = StoreState(schema: state.schema, storeIdentifier: "")  // the reader holds the only copy now
        for line in scan.lines {
            do {
                try line.body.withUnsafeBytes { try XMLEventParser.parse($0, file: file, into: reader) }
            } catch var error as StrataError {
                error.offset = line.offset
                error.message = "The journal is damaged at byte \(line.offset): " + error.message
                throw error
            }
        }
        let last = reader.lastSequence
        state = reader.takeState()
        return (scan, last)
    }
}
