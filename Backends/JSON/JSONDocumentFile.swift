import Foundation
import Strata

/// The store document: one JSON object holding every record, written whole and atomically.
///
/// ```json
/// {"format": "strata-json", "version": 1, "schemaFingerprint": "…", "storeIdentifier": "…",
///  "journalSequence": 12,
///  "entities": {"Item": {"nextKey": 101, "records": [{"@id": 1, "name": "…", "owner": 1}, …]}}}
/// ```
enum JSONDocumentFile {
    static let format = "strata-json"
    static let version: Int64 = 1

    /// The document text for `state`, one record per line so diffs stay readable.
    static func encode(_ state: StoreState, journalSequence: Int64) -> [UInt8] {
        var w = JSONWriter()
        w.raw("{\n\"format\": \"\(format)\",\n\"version\": \(version),\n\"schemaFingerprint\": ")
        w.string(state.schema.fingerprint)
        w.raw(",\n\"storeIdentifier\": ")
        w.string(state.storeIdentifier)
        w.raw(",\n\"journalSequence\": \(journalSequence),\n\"entities\": {")
        for (n, entity) in state.schema.entities.enumerated() {
            w.raw(n == 0 ? "\n" : ",\n")
            w.string(entity.name)
            w.raw(": {\"nextKey\": \(state.nextPrimaryKey(entity)), \"records\": [")
            var first = true
            state.forEachRecord(entity) { key, record in
                w.raw(first ? "\n" : ",\n")
                first = false
                JSONRecordCodec.writeRecord(entity, key, record, to: &w)
                return true
            }
            w.raw(first ? "]}" : "\n]}")
        }
        w.raw("\n}\n}\n")
        return w.bytes
    }

    /// Reads a document into a state; every damage is a `corruptStore` naming the file and offset.
    static func decode(_ data: Data, schema: Schema, file: String) throws -> (StoreState, journalSequence: Int64) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(data)
        } catch let error as JSONSyntaxError {
            throw StrataError(.corruptStore, "The store file is not valid JSON at byte \(error.offset): \(error.reason). It may be truncated or edited; restore it from a backup.", file: file, offset: error.offset)
        }
        guard case .string(format)? = json["format"] else {
            throw StrataError(.corruptStore, "The file is JSON but not a Strata store (no \"format\": \"\(format)\").", file: file)
        }
        guard case .int(let v)? = json["version"], v <= version else {
            throw StrataError(.unsupported, "The store was written by a newer Strata (format version \(json["version"].map { "\($0)" } ?? "?")); upgrade Strata.", file: file)
        }
        guard case .string(let fingerprint)? = json["schemaFingerprint"], case .string(let identifier)? = json["storeIdentifier"],
            case .int(let sequence)? = json["journalSequence"], case .object(let entities)? = json["entities"]
        else { throw StrataError(.corruptStore, "The store file lacks its header fields.", file: file) }
        guard fingerprint == schema.fingerprint else {
            throw StrataError(.schemaMismatch, "The store holds data of schema \(fingerprint), not \(schema.fingerprint). Open it with the schema it was written with.", file: file)
        }
        var state = StoreState(schema: schema, storeIdentifier: identifier)
        for (name, body) in entities {
            guard let entity = schema.entity(named: name) else {
                throw StrataError(.corruptStore, "The store file holds entity '\(name)', which the schema does not declare.", entity: name, file: file)
            }
            guard case .int(let next)? = body["nextKey"], case .array(let records)? = body["records"] else {
                throw StrataError(.corruptStore, "Entity '\(name)' in the store file lacks \"nextKey\" or \"records\".", entity: name, file: file)
            }
            for record in records {
                let (key, stored) = try JSONRecordCodec.readRecord(record, entity, file: file)
                try state.load(entity, key: key, record: stored)
            }
            state.setNextPrimaryKey(entity, atLeast: next)
        }
        return (state, sequence)
    }
}
