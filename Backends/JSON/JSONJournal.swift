import Foundation
import Strata

/// The append-only change journal beside the document: one line per save.
///
/// A line is `<16 hex digits> <json>\n`; the digits are an FNV-1a checksum of the JSON bytes. The
/// JSON is `{"seq": n, "next": {"Entity": key}, "put": {"Entity": [records]}, "delete": {"Entity":
/// [keys]}}`. A save appends its line and syncs it before it returns, so only the last line can be
/// torn by a crash; a torn last line is a save that never returned and is ignored. A damaged line
/// followed by good ones is corruption.
enum JSONJournal {
    static func checksum(_ bytes: some Sequence<UInt8>) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The line recording one save.
    static func line(sequence: Int64, commit: CommitContext) -> [UInt8] {
        let schema = commit.next.schema
        var w = JSONWriter()
        w.raw("{\"seq\":\(sequence),\"next\":{")
        var firstEntity = true
        for entity in schema.entities where !commit.changes.inserted[entity.index].isEmpty {
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
        return Array((checksum(w.bytes) + " ").utf8) + w.bytes + [0x0A]
    }

    /// Applies the journal's lines after `sequence` to `state`; returns the last sequence applied.
    static func replay(_ data: Data, into state: inout StoreState, after sequence: Int64, file: String) throws -> Int64 {
        let bytes = [UInt8](data)
        var last = sequence
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else { break }  // torn last line: a save that never returned
            let line = bytes[start..<end]
            let lineStart = start
            start = end + 1
            func corrupt(_ why: String) -> StrataError {
                StrataError(.corruptStore, "The journal is damaged at byte \(lineStart) (\(why)); restore the store from a backup.", file: file, offset: lineStart)
            }
            guard line.count > 17, line[line.startIndex + 16] == 0x20 else {
                if start >= bytes.count { break }
                throw corrupt("a line without its checksum")
            }
            let body = line[(line.startIndex + 17)...]
            guard String(decoding: line.prefix(16), as: UTF8.self) == checksum(body) else {
                if start >= bytes.count { break }  // the last line, torn
                throw corrupt("a checksum mismatch")
            }
            let json: JSONValue
            do { json = try JSONParser.parse(Data(body)) } catch { throw corrupt("unreadable JSON") }
            guard case .int(let seq)? = json["seq"] else { throw corrupt("no sequence number") }
            guard seq > last else { continue }  // already folded into the document
            try apply(json, to: &state, file: file)
            last = seq
        }
        return last
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
                for case .int(let k) in items { state.unload(e, key: k) }
            }
        }
        if case .object(let puts)? = json["put"] {
            for (name, records) in puts {
                let e = try entity(name)
                guard case .array(let items) = records else { continue }
                for item in items {
                    let (key, record) = try JSONRecordCodec.readRecord(item, e, file: file)
                    state.unload(e, key: key)
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
