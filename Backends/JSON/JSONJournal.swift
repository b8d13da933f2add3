import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The append-only change journal beside the document: one line per save.
///
/// A line is `<16 hex digits> <json>\n` (the shared `Journal` format: the digits are the checksum of
/// the JSON). The JSON is `{"seq": n, "next": {"Entity": key}, "put": {"Entity": [records]},
/// "delete": {"Entity": [keys]}}`. Sequence numbers are consecutive, so a line dropped, repeated or
/// moved is found; `next` holds every key counter the save moved (also when all its inserts were
/// deleted again by a cascade in the same save), so a key is never given out twice.
enum JSONJournal {
    /// The line recording one save.
    static func line(sequence: Int64, commit: CommitContext) -> [UInt8] {
        let schema = commit.next.schema
        var w = JSONWriter()
        w.raw("{\"seq\":\(sequence),\"next\":{")
        var firstEntity = true
        for entity in schema.entities where commit.next.nextPrimaryKey(entity) != commit.previous.nextPrimaryKey(entity) {
            w.raw(firstEntity ? "" : ",")
            firstEntity = false
            w.string(entity.name)
            w.raw(":\(commit.next.nextPrimaryKey(entity))")
        }
        w.raw("},\"put\":{")
        firstEntity = true
        for entity in schema.entities {
            let keys = commit.changes.inserted[entity.index] + commit.changes.updated[entity.index].sorted()
            guard !keys.isEmpty else { continue }
            w.raw(firstEntity ? "" : ",")
            firstEntity = false
            w.string(entity.name)
            w.raw(":[")
            var first = true
            for key in keys {
                guard let record = commit.next.record(entity, key) else { continue }
                w.raw(first ? "" : ",")
                first = false
                JSONRecordCodec.writeRecord(entity, key, record, to: &w)
            }
            w.raw("]")
        }
        w.raw("},\"delete\":{")
        firstEntity = true
        for entity in schema.entities where !commit.changes.deleted[entity.index].isEmpty {
            w.raw(firstEntity ? "" : ",")
            firstEntity = false
            w.string(entity.name)
            w.raw(":[" + commit.changes.deleted[entity.index].sorted().map(String.init).joined(separator: ",") + "]")
        }
        w.raw("}}")
        return Journal.line(w.bytes)
    }

    /// Applies the journal's lines after the document's `sequence` to `state`; returns the scan
    /// (where a writer appends next) and the last sequence number.
    ///
    /// Lines at or below `sequence` were folded into the document already (a crash between the
    /// document's rename and the journal's truncation leaves them) and are skipped; the first line
    /// after them must be `sequence + 1`, and every line the one before it plus one.
    static func replay(_ bytes: [UInt8], into state: inout StoreState, after sequence: Int64, file: String) throws -> (Journal.Scan, Int64) {
        let scan = try Journal.scan(bytes, file: file)
        var last = sequence
        var previous: Int64?
        for line in scan.lines {
            func corrupt(_ why: String) -> StrataError {
                StrataError.journalDamaged(at: line.offset, why, file: file)
            }
            let json: JSONValue
            do { json = try JSONParser.parse(Array(line.body)) } catch { throw corrupt("unreadable JSON") }
            guard case .int(let seq)? = json["seq"] else { throw corrupt("no sequence number") }
            if let previous, seq != previous + 1 { throw corrupt("sequence \(seq) follows \(previous): lines are missing, repeated or out of order") }
            previous = seq
            guard seq > sequence else { continue }  // already folded into the document
            guard seq == last + 1 else { throw corrupt("sequence \(seq) follows the document's \(last): lines are missing") }
            try apply(json, to: &state, file: file)
            last = seq
        }
        // Lines the document holds already are left only by a crash right after a fold, so they end
        // exactly at the document's sequence; a journal ending earlier is an older copy.
        if let previous, previous < sequence, let line = scan.lines.last {
            throw StrataError(.corruptStore, "The journal ends at sequence \(previous), before the document's \(sequence): it is older than the document (a stale copy). Restore the store from a backup.", file: file, offset: line.offset)
        }
        return (scan, last)
    }

    private static func apply(_ json: JSONValue, to state: inout StoreState, file: String) throws {
        let schema = state.schema
        func entity(_ name: String) throws -> EntitySchema {
            guard let e = schema.entity(named: name) else { throw StrataError(.corruptStore, "The journal names entity '\(name)', which the schema does not declare.", entity: name, file: file) }
            return e
        }
        if case .object(let deletes)? = json["delete"] {
            for (name, keys) in deletes {
                let e = try entity(name)
                guard case .array(let items) = keys else { continue }
                for case .int(let k) in items { try state.unload(e, key: k) }
            }
        }
        if case .object(let puts)? = json["put"] {
            for (name, records) in puts {
                let e = try entity(name)
                guard case .array(let items) = records else { continue }
                for item in items {
                    let (key, record) = try JSONRecordCodec.readRecord(item, e, file: file)
                    try state.unload(e, key: key)
                    try state.load(e, key: key, record: record)
                }
            }
        }
        if case .object(let next)? = json["next"] {
            for (name, value) in next {
                if case .int(let k) = value { state.setNextPrimaryKey(try entity(name), atLeast: k) }
            }
        }
    }
}
