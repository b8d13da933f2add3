/// Computes a schema's fingerprint: FNV-1a (two 64-bit lanes) over a canonical text of the declaration.
///
/// The canonical text lists every entity, property, type, optionality, default, relationship shape,
/// delete rule, bound, constraint and index in declaration order, so any change that alters how data
/// is stored or validated changes the fingerprint. A property's hash modifier (SwiftData's
/// `hashModifier:`) ends its line as `hash="…"` only when set, so a schema without modifiers keeps
/// the fingerprint it had before modifiers existed and every store written then opens unchanged. It
/// does not depend on `Hasher` (which is seeded per process) nor on JSON key order.
enum SchemaFingerprint {
    /// The canonical text, one line per entity, property, constraint and index (no line ends).
    static func lines(_ entities: [Entity]) -> [String] {
        var lines: [String] = []
        for e in entities {
            lines.append("entity \(e.name)")
            for a in e.attributes {
                var line = " attr \(a.name) \(a.type.rawValue) opt=\(a.isOptional) uniq=\(a.isUnique) idx=\(a.isIndexed) def=\(a.defaultValue.map { String(reflecting: $0) } ?? "-")"
                mark(&line, a.hashModifier)
                lines.append(line)
            }
            for r in e.relationships {
                var line = " rel \(r.name) -> \(r.destination).\(r.inverse) many=\(r.isToMany) ord=\(r.isOrdered) opt=\(r.isOptional) rule=\(r.deleteRule.rawValue) min=\(r.minCount.map(String.init) ?? "-") max=\(r.maxCount.map(String.init) ?? "-")"
                mark(&line, r.hashModifier)
                lines.append(line)
            }
            for u in e.uniqueConstraints { lines.append(" unique \(u.properties.joined(separator: ","))") }
            for i in e.indexes { lines.append(" index \(i.properties.joined(separator: ","))") }
        }
        return lines
    }

    /// Ends a property's line with its hash modifier: nothing without one (the line, and so the
    /// fingerprint, of every schema written before modifiers existed; no work either, as schemas are
    /// fingerprinted on every open), ` hash="…"` with one, quoted and escaped so that no modifier can
    /// pass for another line or another field.
    private static func mark(_ line: inout String, _ hashModifier: String?) {
        if let hashModifier { line += " hash=" + String(reflecting: hashModifier) }
    }

    static func compute(_ entities: [Entity]) -> String {
        let text = "strata-schema-1\n" + lines(entities).map { $0 + "\n" }.joined()
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in text.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b &* 0x0000_0100_0000_01b3) ^ UInt64(byte)
        }
        return hex(a) + hex(b)
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
