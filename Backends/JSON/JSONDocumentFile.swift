import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The store document: one JSON object holding every record, written whole and atomically.
///
/// ```json
/// {"format": "strata-json", "version": 2, "schemaFingerprint": "…", "schema": ["entity Item", …],
///  "storeIdentifier": "…", "journalSequence": 12,
///  "entities": {"Item": {"nextKey": 101, "records": [{"@id": 1, "name": "…", "owner": 1}, …]}},
///  "checksum": "<FNV-1a of every byte before this member>"}
/// ```
/// Version 1 had neither `schema` nor `checksum`; it is still read, and the first save rewrites it
/// as version 2. `schemaRecord` (the `RecordedSchema`: declaration and version, on one line after
/// `schema`) came later within version 2: a document without it is a legacy store whose record the
/// first open for writing adds. Version 3 differs from version 2 in one promise: the journal beside
/// it starts with its header line (`Journal`), so an emptied journal is damage; a version 2 store's
/// first save folds and gives its journal the header (`JournaledDocumentFiles.fold`).
enum JSONDocumentFile {
    static let format = "strata-json"
    static let version: Int64 = 3
    /// The first version whose journal starts with a header line.
    static let journalHeaderVersion: Int64 = 3

    /// What a document holds besides its records.
    struct Header {
        var version: Int64
        var journalSequence: Int64
    }

    /// The document text for `state`, one record per line so diffs stay readable, sealed with its checksum.
    static func encode(_ state: StoreState, journalSequence: Int64, version: Int64 = version) -> [UInt8] {
        var w = JSONWriter()
        w.raw("{\n\"format\": \"\(format)\",\n\"version\": \(version),\n\"schemaFingerprint\": ")
        w.string(state.schema.fingerprint)
        w.raw(",\n\"schema\": [")
        for (n, line) in state.schema.canonicalDescription.enumerated() {
            w.raw(n == 0 ? "\n" : ",\n")
            w.string(line)
        }
        w.raw("\n],\n\"schemaRecord\": ")
        w.raw(String(decoding: RecordedSchema.encoded(state.schema), as: UTF8.self))
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
        w.raw("\n},\n")
        return DocumentSeal.json.seal(w.bytes)
    }

    /// The schema a document records, read from its header without reading its records (the
    /// `schemaRecord` line), or from the whole document for one written before records.
    static func recordedSchema(_ bytes: [UInt8], file: String) throws -> RecordedSchema {
        let marker = Array("\n\"schemaRecord\": ".utf8)
        let limit = bytes.firstRange(of: Array("\n\"entities\": ".utf8))?.lowerBound ?? bytes.count
        if let found = bytes[..<limit].firstRange(of: marker) {
            var end = bytes[found.upperBound...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            while end > found.upperBound, bytes[end - 1] == UInt8(ascii: ",") || bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            return try RecordedSchema(decoding: Array(bytes[found.upperBound..<end]), file: file)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            throw notJSON(error, file: file)
        }
        guard case .string(let fingerprint)? = json["schemaFingerprint"] else {
            throw StrataError(.corruptStore, "The file is JSON but not a Strata store (no schema fingerprint).", file: file)
        }
        var stored: [String]?
        if case .array(let lines)? = json["schema"] { stored = lines.compactMap { if case .string(let s) = $0 { s } else { nil } } }
        return RecordedSchema(legacyFingerprint: fingerprint, canonicalDescription: stored)
    }

    /// Whether the bytes end like a sealed (version 2 or later) document, whatever their checksum.
    static func looksSealed(_ bytes: [UInt8]) -> Bool {
        let trail = Array(DocumentSeal.json.trail.utf8), lead = Array(DocumentSeal.json.lead.utf8)
        let start = bytes.count - trail.count - 16 - lead.count
        return start >= 0 && bytes[start..<(start + lead.count)].elementsEqual(lead)
    }

    /// Reads a document into a state; every damage is a `corruptStore` naming the file and offset.
    static func decode(_ bytes: [UInt8], schema: Schema, file: String) throws -> (StoreState, Header) {
        guard !bytes.isEmpty else {
            throw StrataError.emptyStoreFile(file)
        }
        let sealed = looksSealed(bytes)
        if sealed {
            let content = try DocumentSeal.json.content(of: bytes, file: file)
            // The fast path for what this version writes; anything else, damage included, is read
            // (and reported) by the full parser below.
            if let (state, v, sequence) = JSONDocumentReader.read(content, schema: schema) {
                return (state, Header(version: v, journalSequence: sequence))
            }
        }
        return try decodeTree(bytes, sealed: sealed, schema: schema, file: file)
    }

    /// The error for a document that is not JSON where `error` says.
    static func notJSON(_ error: JSONSyntaxError, file: String) -> StrataError {
        StrataError(.corruptStore, "The store file is not valid JSON at byte \(error.offset): \(error.reason). It may be truncated or edited; restore it from a backup.", file: file, offset: error.offset)
    }

    /// `decode` through `JSONParser`'s value tree: every valid document, every error message.
    static func decodeTree(_ bytes: [UInt8], sealed: Bool, schema: Schema, file: String) throws -> (StoreState, Header) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            throw notJSON(error, file: file)
        }
        guard case .string(format)? = json["format"] else {
            throw StrataError(.corruptStore, "The file is JSON but not a Strata store (no \"format\": \"\(format)\").", file: file)
        }
        guard case .int(let v)? = json["version"], v >= 1 else {
            throw StrataError(.corruptStore, "The store file has no valid format version.", file: file)
        }
        guard v <= version else {
            throw StrataError.newerFormat(v, readsUpTo: version, file: file)
        }
        // Version 1 had no checksum; a later document without its seal (or a version 1 document with
        // members only later versions write) is damage, not an old store.
        guard sealed == (v >= 2), v >= 2 || (json["checksum"] == nil && json["schema"] == nil) else {
            throw StrataError(.corruptStore, "The store file does not end with the checksum its format version \(v) requires; it was damaged or truncated.", file: file)
        }
        guard case .string(let fingerprint)? = json["schemaFingerprint"], case .string(let identifier)? = json["storeIdentifier"],
            case .int(let sequence)? = json["journalSequence"], sequence >= 0, case .object(let entities)? = json["entities"]
        else { throw StrataError(.corruptStore, "The store file lacks its header fields.", file: file) }
        guard fingerprint == schema.fingerprint else {
            var stored: [String]?
            if case .array(let lines)? = json["schema"] { stored = lines.compactMap { if case .string(let s) = $0 { s } else { nil } } }
            throw schema.mismatch(storedFingerprint: fingerprint, storedDescription: stored, file: file)
        }
        var state = StoreState(schema: schema, storeIdentifier: identifier)
        var seen = Set<String>()
        for (name, body) in entities {
            guard let entity = schema.entity(named: name), seen.insert(name).inserted else {
                throw StrataError(.corruptStore, "The store file holds entity '\(name)' twice or one the schema does not declare.", entity: name, file: file)
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
        return (state, Header(version: v, journalSequence: sequence))
    }
}
