/// Explaining a `schemaMismatch`: what differs between the schema a store was written with and the
/// one it is opened with.
///
/// A store keeps `canonicalDescription` beside the fingerprint; on a mismatch it calls
/// `mismatch(storedFingerprint:storedDescription:file:)`, whose message lists entities and properties
/// added, removed or changed, so the user sees at once which declaration to fix or migrate.
extension Schema {
    /// The schema as text, one line per entity, attribute, relationship, unique constraint and index,
    /// in declaration order: what the fingerprint hashes. Stores save it to explain mismatches.
    public var canonicalDescription: [String] { SchemaFingerprint.lines(entities.map(\.declaration)) }

    /// What differs from a stored schema's `canonicalDescription`, one readable line per difference:
    /// `entity Tag: only in the store`, `Book.pages: attribute only in this schema`,
    /// `Book.title: changed from "string opt=false …" to "int opt=false …"`.
    public func differences(fromStored stored: [String]) -> [String] {
        typealias Entry = (name: String, properties: [(key: String, line: String)])
        func parse(_ lines: [String]) -> [Entry] {
            var entries: [Entry] = []
            for line in lines {
                if line.hasPrefix("entity ") {
                    entries.append((String(line.dropFirst(7)), []))
                } else if !entries.isEmpty {
                    let words = line.split(separator: " ", maxSplits: 2)
                    let key = words.prefix(2).joined(separator: " ")
                    entries[entries.count - 1].properties.append((key, words.count > 2 ? String(words[2]) : ""))
                }
            }
            return entries
        }
        let kinds = ["attr": "attribute", "rel": "relationship", "unique": "unique constraint", "index": "index"]
        func label(_ entity: String, _ key: String) -> String {
            let words = key.split(separator: " ", maxSplits: 1)
            return "\(entity).\(words.count > 1 ? String(words[1]) : key): \(kinds[String(words[0])] ?? String(words[0]))"
        }
        let old = parse(stored), new = parse(canonicalDescription)
        var result: [String] = []
        for entity in old where !new.contains(where: { $0.name == entity.name }) { result.append("entity \(entity.name): only in the store") }
        for entity in new where !old.contains(where: { $0.name == entity.name }) { result.append("entity \(entity.name): only in this schema") }
        for entity in new {
            guard let before = old.first(where: { $0.name == entity.name }) else { continue }
            for p in before.properties where !entity.properties.contains(where: { $0.key == p.key }) {
                result.append("\(label(entity.name, p.key)) only in the store")
            }
            for p in entity.properties {
                guard let was = before.properties.first(where: { $0.key == p.key }) else {
                    result.append("\(label(entity.name, p.key)) only in this schema")
                    continue
                }
                if was.line != p.line { result.append("\(label(entity.name, p.key)) changed from \"\(was.line)\" to \"\(p.line)\"") }
            }
            if result.isEmpty, before.properties.map(\.key) != entity.properties.map(\.key) { result.append("entity \(entity.name): properties declared in another order") }
        }
        if result.isEmpty, old.map(\.name) != new.map(\.name) { result.append("entities declared in another order") }
        return result
    }

    /// The `schemaMismatch` error for a store written with another schema, listing the differences
    /// when the store kept its schema's description (older stores kept only the fingerprint).
    public func mismatch(storedFingerprint: String, storedDescription: [String]?, file: String? = nil) -> StrataError {
        var message = "The store holds data of another schema (fingerprint \(storedFingerprint), this schema's is \(fingerprint))"
        if let storedDescription {
            let differences = differences(fromStored: storedDescription)
            message += differences.isEmpty ? "" : ": " + differences.joined(separator: "; ")
        }
        message += ". Open it with the schema it was written with, or migrate it."
        return StrataError(.schemaMismatch, message, file: file)
    }
}
