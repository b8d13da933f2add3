import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport

/// The manifest of a CSV store: which file is current for every table, with its checksum, the key
/// counters and the schema. Replacing it is the commit point of a save.
///
/// Version 2 adds `schema` (to explain a mismatch), `checksums` (of every table it names) and its own
/// sealed `checksum`; version 3 names chunk files (`Item@0`, see `CSVChunks`) instead of whole
/// tables; `schemaRecord` (the `RecordedSchema`: declaration and version) came later within
/// version 3, and the first open for writing adds it to a version-3 manifest without it. Versions 1
/// and 2 are read, and a writer's first save rewrites every table and the
/// manifest as version 3.
struct CSVManifest: Equatable {
    static let format = "strata-csv"
    static let version = 3
    static let seal = DocumentSeal(lead: "  \"checksum\": \"", trail: "\"\n}\n")

    var version = CSVManifest.version
    var storeIdentifier: String
    var fingerprint: String
    var schema: [String]?
    /// The schema record (`RecordedSchema.encoded()`); `nil` in a manifest written before records.
    var record: [UInt8]?
    var generation: Int64
    /// Chunk name (`Item@0`; version 1 and 2: the table name) → file name. A chunk or table
    /// without a file is empty.
    var files: [String: String]
    /// File name → checksum of its bytes (version 2).
    var checksums: [String: String]
    var nextKeys: [String: Int64]

    func encoded() -> [UInt8] {
        func json(_ s: String) -> String {
            var w = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": w += "\\\""
                case "\\": w += "\\\\"
                case _ where scalar.value < 0x20: w += String(format: "\\u%04x", scalar.value)
                default: w.unicodeScalars.append(scalar)
                }
            }
            return w + "\""
        }
        func object(_ pairs: [(String, String)]) -> String {
            pairs.sorted { $0.0 < $1.0 }.map { "\n    \(json($0.0)): \($0.1)" }.joined(separator: ",") + "\n  }"
        }
        var text = "{\n  \"format\": \"\(Self.format)\",\n  \"version\": \(Self.version),\n"
        text += "  \"schemaFingerprint\": \(json(fingerprint)),\n"
        text += "  \"schema\": [" + (schema ?? []).map { "\n    " + json($0) }.joined(separator: ",") + "\n  ],\n"
        if let record { text += "  \"schemaRecord\": " + String(decoding: record, as: UTF8.self) + ",\n" }
        text += "  \"storeIdentifier\": \(json(storeIdentifier)),\n  \"generation\": \(generation),\n"
        text += "  \"files\": {" + object(files.map { ($0.key, json($0.value)) }) + ",\n"
        text += "  \"checksums\": {" + object(checksums.map { ($0.key, json($0.value)) }) + ",\n"
        text += "  \"nextKeys\": {" + object(nextKeys.map { ($0.key, String($0.value)) }) + ",\n"
        return Self.seal.seal(Array(text.utf8))
    }

    /// Whether JSON text nests deeper than `limit` (checked before handing it to a recursive parser).
    static func nestsTooDeep(_ bytes: [UInt8], limit: Int = 16) -> Bool {
        var depth = 0, inString = false, escaped = false
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") {
                depth += 1
                if depth > limit { return true }
            } else if b == UInt8(ascii: "]") || b == UInt8(ascii: "}") {
                depth -= 1
            }
        }
        return false
    }

    /// Reads a manifest; every damage is `corruptStore` naming the file.
    static func decode(_ bytes: [UInt8], file path: String) throws -> CSVManifest {
        let trail = Array(seal.trail.utf8), lead = Array(seal.lead.utf8)
        let start = bytes.count - trail.count - 16 - lead.count
        let sealed = start >= 0 && bytes[start..<(start + lead.count)].elementsEqual(lead)
        if sealed { _ = try seal.content(of: bytes, file: path) }
        guard !nestsTooDeep(bytes), let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw StrataError(.corruptStore, "The manifest is not readable JSON; the folder is not a usable CSV store.", file: path)
        }
        guard object["format"] as? String == Self.format else {
            throw StrataError(.corruptStore, "The manifest is not a Strata CSV manifest.", file: path)
        }
        guard let version = object["version"] as? Int, version >= 1 else { throw StrataError(.corruptStore, "The manifest has no valid format version.", file: path) }
        guard version <= Self.version else {
            throw StrataError.newerFormat(version, readsUpTo: Self.version, file: path)
        }
        guard sealed == (version >= 2), version >= 2 || (object["checksum"] == nil && object["checksums"] == nil) else {
            throw StrataError(.corruptStore, "The manifest does not end with the checksum its format version \(version) requires; it was damaged or truncated.", file: path)
        }
        guard let identifier = object["storeIdentifier"] as? String, let fingerprint = object["schemaFingerprint"] as? String,
            let generation = (object["generation"] as? NSNumber)?.int64Value, let files = object["files"] as? [String: String],
            let next = object["nextKeys"] as? [String: NSNumber]
        else { throw StrataError(.corruptStore, "The manifest lacks fields.", file: path) }
        let checksums = object["checksums"] as? [String: String] ?? [:]
        if version >= 2, let missing = files.values.first(where: { checksums[$0] == nil }) {
            throw StrataError(.corruptStore, "The manifest names \(missing) without its checksum.", file: path)
        }
        let record = try object["schemaRecord"].map { Array(try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])) }
        return CSVManifest(
            version: version, storeIdentifier: identifier, fingerprint: fingerprint, schema: object["schema"] as? [String], record: record,
            generation: generation, files: files, checksums: checksums, nextKeys: next.mapValues(\.int64Value))
    }

    /// The schema this manifest records; a legacy record (fingerprint and description) for one
    /// written before records.
    ///
    /// - Throws: `corruptStore` for a record that does not read or does not match the fingerprint.
    func recorded(file: String) throws -> RecordedSchema {
        guard let record else { return RecordedSchema(legacyFingerprint: fingerprint, canonicalDescription: schema) }
        let recorded = try RecordedSchema(decoding: record, file: file)
        guard recorded.fingerprint == fingerprint else {
            throw StrataError(.corruptStore, "The manifest's schema record (fingerprint \(recorded.fingerprint)) does not match its schemaFingerprint \(fingerprint).", file: file)
        }
        return recorded
    }
}
