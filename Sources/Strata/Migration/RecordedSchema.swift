import Foundation

/// What a store records about the schema its data was written with: the full declaration, its
/// version and its fingerprint. Every built-in backend keeps it (a table row in SQLite, a key in
/// LMDB, the document or manifest of JSON, XML and CSV, the registry entry of the memory store), so
/// a store describes itself: `strata schema` prints it, `strata dump` reads any store without
/// being told its schema, and migration knows where it starts.
///
/// Stores written before schemas were recorded in full (Strata before issue 26) kept only the
/// fingerprint, sometimes with `Schema.canonicalDescription`: `schema` is then `nil` and
/// `isLegacy` is true. Such a store is upgraded once, when it is opened for writing with a schema
/// whose fingerprint matches: the full record is written then.
///
/// The encoded form (`encoded()`) is JSON with sorted keys:
/// `{"entities":[…],"fingerprint":"…","format":1,"version":"2.0.0"}`; `entities` is `Schema`'s
/// `Codable` form (the entity declarations). A declaration holding a hash modifier (SwiftData's
/// `hashModifier:`) is written as format 2, every other one as format 1, byte for byte as before.
public struct RecordedSchema: Sendable, Hashable, CustomStringConvertible {
    /// The recorded schema, with `version` set; `nil` for a legacy store that kept only the
    /// fingerprint.
    public var schema: Schema?
    /// The recorded version, or `nil` for a store recorded before versions existed.
    public var version: Schema.Version?
    /// The fingerprint of the recorded schema (always present).
    public var fingerprint: String
    /// The canonical description a legacy store kept beside its fingerprint, if any (used to
    /// explain a mismatch); `schema.canonicalDescription` otherwise.
    public var canonicalDescription: [String]?

    /// The newest format of the encoded record this code reads and writes.
    ///
    /// 2 is written only when a property of the declaration has a hash modifier (`Attribute` and
    /// `Relationship.hashModifier`), which format 1 does not know: a Strata that reads up to 1 would
    /// drop the modifiers while decoding, find a fingerprint other than the recorded one and call the
    /// store damaged. Format 2 makes it refuse the store as newer ("Upgrade Strata") instead, and a
    /// record without modifiers stays format 1, readable by that Strata (docs/architecture.md, "Migrations").
    public static let format = 2

    /// The format `encoded()` writes for this record: 2 when its declaration holds a hash modifier, 1 otherwise.
    var encodedFormat: Int {
        guard let schema else { return 1 }
        let marked = schema.entities.contains { e in
            e.declaration.attributes.contains { $0.hashModifier != nil } || e.declaration.relationships.contains { $0.hashModifier != nil }
        }
        return marked ? 2 : 1
    }

    /// The record of a store written now with `schema` (its version included).
    public init(_ schema: Schema) {
        self.schema = schema
        self.version = schema.version
        self.fingerprint = schema.fingerprint
        self.canonicalDescription = schema.canonicalDescription
    }

    /// The record of a legacy store: a fingerprint, perhaps a canonical description, no
    /// declaration, no version.
    public init(legacyFingerprint: String, canonicalDescription: [String]?) {
        self.schema = nil
        self.version = nil
        self.fingerprint = legacyFingerprint
        self.canonicalDescription = canonicalDescription
    }

    /// Whether the store recorded only a fingerprint (written before issue 26).
    public var isLegacy: Bool { schema == nil }

    /// The record's JSON bytes (sorted keys, no whitespace): what stores write.
    public func encoded() -> [UInt8] {
        var object: [String: Any] = ["format": encodedFormat, "fingerprint": fingerprint]
        if let version { object["version"] = version.description }
        if let schema, let data = try? JSONEncoder().encode(schema), let entities = try? JSONSerialization.jsonObject(with: data) {
            object["entities"] = entities
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Array(data)
    }

    /// Reads bytes written by `encoded()`.
    ///
    /// - Throws: `corruptStore` naming `file` for bytes that are not such a record or whose
    ///   declaration does not match its fingerprint; `unsupported` for a newer record format.
    public init(decoding bytes: [UInt8], file: String? = nil) throws {
        func damaged(_ why: String) -> StrataError {
            StrataError(.corruptStore, "The store's recorded schema is unreadable (\(why)); restore the store from a backup.", file: file)
        }
        // One decoding pass over the bytes, not JSONSerialization and back: the record is read
        // on every open (limit: Benchmarks/Thresholds/sqlite-reopen.txt and the other reopens).
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(bytes))
        } catch Envelope.Failure.newerFormat(let format) {
            throw StrataError(.unsupported, "The store's schema record is of format \(format); this Strata reads up to \(Self.format). Upgrade Strata.", file: file)
        } catch Envelope.Failure.missing(let what) {
            throw damaged("no \(what)")
        } catch Envelope.Failure.entities(let error) {
            throw damaged("the declaration does not decode: \(error)")
        } catch {
            throw damaged("not a JSON object")
        }
        self.fingerprint = envelope.fingerprint
        if let text = envelope.version {
            guard let version = Schema.Version(text) else { throw damaged("version '\(text)'") }
            self.version = version
        } else {
            self.version = nil
        }
        if var schema = envelope.entities {
            guard schema.fingerprint == fingerprint else { throw damaged("the declaration's fingerprint \(schema.fingerprint) is not the recorded \(fingerprint)") }
            if let version { schema.version = version }
            self.schema = schema
            self.canonicalDescription = schema.canonicalDescription
        } else {
            self.schema = nil
            self.canonicalDescription = nil
        }
    }

    /// The encoded record's shape, read in one pass: the format first, so that a newer format is
    /// refused before its entities are interpreted.
    private struct Envelope: Decodable {
        enum Failure: Error {
            case newerFormat(Int)
            case missing(String)
            case entities(any Error)
        }
        enum Key: String, CodingKey { case format, fingerprint, version, entities }

        var fingerprint: String
        var version: String?
        var entities: Schema?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            guard let format = try? container.decode(Int.self, forKey: .format) else { throw Failure.missing("format") }
            guard format <= RecordedSchema.format else { throw Failure.newerFormat(format) }
            guard let fingerprint = try? container.decode(String.self, forKey: .fingerprint) else { throw Failure.missing("fingerprint") }
            self.fingerprint = fingerprint
            self.version = try? container.decodeIfPresent(String.self, forKey: .version)
            do { entities = try container.decodeIfPresent(Schema.self, forKey: .entities) } catch { throw Failure.entities(error) }
        }
    }

    /// One line per entity and property (the canonical description), headed by the version and
    /// fingerprint: what `strata schema` prints.
    public var description: String {
        var lines = ["version \(version?.description ?? "(none recorded)")", "fingerprint \(fingerprint)"]
        if isLegacy { lines.append("(recorded by an older Strata: fingerprint only; upgraded on the next open for writing with a matching schema)") }
        lines += canonicalDescription ?? []
        return lines.joined(separator: "\n")
    }
}

extension Schema.Version {
    /// Parses `major.minor.patch`; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let a = parts[0], let b = parts[1], let c = parts[2], a >= 0, b >= 0, c >= 0 else { return nil }
        self.init(a, b, c)
    }
}
