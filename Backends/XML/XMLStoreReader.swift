import Foundation
@_spi(StrataEngine) import Strata

/// Builds a store state from the SAX events of a store document or a journal entry, as they come:
/// nothing of the file is kept but the records.
///
/// One handler reads both shapes (`docs/formats/xml.md`): the document `<strata-store>` with its
/// `<schema>`, `<entity>` elements holding `<record>`s and the `<checksum>`; and a journal entry
/// `<save seq="…">` holding `<delete>`, `<put>` and `<next>` elements, applied in order. Anything
/// else — an unknown element, an element in the wrong place, a missing or malformed field, a value
/// of the wrong type — is `corruptStore`.
///
/// Its mutable state is `@exclusivity(unchecked)`: the SAX callbacks touch it once or more per
/// element, run checks cost a third of a reopen (callgrind), and one parse runs on one thread with
/// no overlapping access (the callbacks never re-enter). Nothing outside the parse reaches it.
final class XMLStoreReader {
    /// What the root element said.
    struct Header {
        var version: Int64 = 0
        var fingerprint = ""
        var storeIdentifier = ""
        var journalSequence: Int64 = 0
        var sequence: Int64?
    }

    private enum Element {
        case document, schema, schemaLine(base64: Bool), entity, checksum
        case save, put, delete, next
        case record, value(Int, base64: Bool), toOne(Int), toMany(Int)
    }

    #if !STRATA_INTERNAL_CHECKS  // debug builds check exclusivity here (docs/architecture.md, "Internal checks")
    @exclusivity(unchecked)
    #endif
    private(set) var header = Header()
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private(set) var state: StoreState
    private let expectJournal: Bool
    private let codecs: [XMLRecordCodec]
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var stack: [Element] = []
    private let buffer = XMLTextBuffer()
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var collecting = false
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var schemaLines: [String] = []
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var sawSchema = false
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var entity: XMLRecordCodec?
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var key: Int64 = 0
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var attributes: [Value] = []
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var links: [Link] = []
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var filled: [Bool] = []
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var nextAttribute = 0
    /// Per entity and attribute, the last string read: a value repeated from one record to the
    /// next (a category, a status, a shared note) shares that string's storage instead of being
    /// validated and allocated again. One comparison of bytes when it is not repeated.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var recentStrings: [[String?]]
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var nextRelationship = 0

    /// The journal sequence the document holds: entries at or below it are checked, not applied.
    private let folded: Int64
    /// The sequence of the last journal entry read, and of the last one applied.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var lastRead: Int64?
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private(set) var lastSequence: Int64
    /// Whether the entry being read was folded into the document already.
    #if !STRATA_INTERNAL_CHECKS
    @exclusivity(unchecked)
    #endif
    private var skipping = false

    /// A reader that loads a document into a new state (`state` nil), or applies journal entries to
    /// `state` (one parse per entry) when their sequence numbers follow `folded`.
    init(schema: Schema, codecs: [XMLRecordCodec], applyingTo state: StoreState?, after folded: Int64 = 0) {
        self.codecs = codecs
        self.expectJournal = state != nil
        self.state = state ?? StoreState(schema: schema, storeIdentifier: "")
        self.folded = folded
        self.lastSequence = folded
        self.recentStrings = schema.entities.map { Array(repeating: nil, count: $0.attributes.count) }
        stack.reserveCapacity(8)
    }

    /// The state read, handed over so that the caller holds the only copy (no copy on its next write).
    func takeState() -> StoreState {
        let taken = state
        state = StoreState(schema: taken.schema, storeIdentifier: "")
        return taken
    }

    /// Checks an entry's sequence number: one above the entry before, and the first one applied one
    /// above the document's.
    private func beginEntry(_ seq: Int64) throws {
        if let lastRead, seq != lastRead &+ 1 {
            throw corrupt("has sequence \(seq) after \(lastRead): journal lines are missing, repeated or out of order")
        }
        lastRead = seq
        skipping = seq <= folded
        guard !skipping else { return }
        guard seq == lastSequence &+ 1 else { throw corrupt("has sequence \(seq) after the document's \(lastSequence): journal lines are missing") }
        lastSequence = seq
    }

    private func corrupt(_ what: String) -> StrataError {
        StrataError(.corruptStore, "The file \(what); it is damaged or not a Strata XML store. Restore it from a backup.", entity: entity?.entity.name)
    }

    private func integer(_ attributes: XMLAttributes, _ name: StaticString, in element: String) throws -> Int64 {
        guard let bytes = attributes[name], let n = XMLRecordCodec.readInt(bytes) else { throw corrupt("has <\(element)> without an integer \(name)") }
        return n
    }

    private func entityNamed(_ attributes: XMLAttributes, in element: String) throws -> XMLRecordCodec {
        guard let bytes = attributes["entity"] ?? attributes["name"] else { throw corrupt("has <\(element)> without its entity name") }
        guard let codec = codecs.first(where: { $0.entity.name.utf8.elementsEqual(bytes) }) else {
            throw StrataError(.corruptStore, "The file names entity '\(bytes.string)', which the schema does not declare.", entity: bytes.string)
        }
        return codec
    }

    func start(_ name: XMLName, _ attributes: XMLAttributes) throws {
        let element: Element
        switch stack.last {
        case nil:
            if name.spells("strata-store"), !expectJournal {
                guard attributes["format"]?.spells("strata-xml") == true else { throw corrupt("is XML but its root is not a Strata store (format=\"strata-xml\")") }
                header.version = try integer(attributes, "version", in: "strata-store")
                guard header.version >= 1 else { throw corrupt("has format version \(header.version)") }
                guard header.version <= XMLDocumentFile.version else {
                    throw StrataError.newerFormat(header.version, readsUpTo: XMLDocumentFile.version, file: nil)
                }
                guard let fingerprint = attributes["schemaFingerprint"], let identifier = attributes["storeIdentifier"] else { throw corrupt("lacks the schema fingerprint or store identifier") }
                header.fingerprint = fingerprint.string
                header.storeIdentifier = identifier.string
                state = StoreState(schema: state.schema, storeIdentifier: header.storeIdentifier)
                header.journalSequence = try integer(attributes, "journalSequence", in: "strata-store")
                guard header.journalSequence >= 0 else { throw corrupt("has a negative journal sequence") }
                element = .document
            } else if name.spells("save"), expectJournal {
                header.sequence = try integer(attributes, "seq", in: "save")
                try beginEntry(header.sequence!)
                element = .save
            } else {
                throw corrupt("has root element <\(name.string)>, not <\(expectJournal ? "save" : "strata-store")>")
            }
        case .document?:
            if name.spells("schema"), !sawSchema {
                element = .schema
            } else if name.spells("entity"), sawSchema {
                let codec = try entityNamed(attributes, in: "entity")
                let next = try integer(attributes, "nextKey", in: "entity")
                state.setNextPrimaryKey(codec.entity, atLeast: next)
                entity = codec
                element = .entity
            } else if name.spells("checksum"), sawSchema {
                element = .checksum
            } else {
                throw corrupt("has <\(name.string)> where <schema>, <entity> or <checksum> belongs")
            }
        case .schema?:
            guard name.spells("line") else { throw corrupt("has <\(name.string)> inside <schema>") }
            element = .schemaLine(base64: attributes["encoding"]?.spells("base64") == true)
        case .entity?, .put?:
            guard name.spells("record"), let codec = entity else { throw corrupt("has <\(name.string)> where a <record> belongs") }
            key = try integer(attributes, "id", in: "record")
            resetRecord(codec)
            element = .record
        case .save?:
            if name.spells("put") {
                entity = try entityNamed(attributes, in: "put")
                element = .put
            } else if name.spells("delete") {
                entity = try entityNamed(attributes, in: "delete")
                element = .delete
            } else if name.spells("next") {
                let codec = try entityNamed(attributes, in: "next")
                let next = try integer(attributes, "key", in: "next")
                if !skipping { state.setNextPrimaryKey(codec.entity, atLeast: next) }
                element = .next
            } else {
                throw corrupt("has <\(name.string)> inside <save>")
            }
        case .record?:
            guard let codec = entity, let propertyName = attributes["name"] else { throw corrupt("has <\(name.string)> without a name in record \(key)") }
            if name.spells("value"), let i = codec.attributeIndex(propertyName, expected: nextAttribute), !filled[i] {
                let encoding = attributes["encoding"]
                guard encoding == nil || encoding!.spells("base64") else { throw corrupt("has an unknown encoding in record \(key)") }
                filled[i] = true
                nextAttribute = i + 1
                element = .value(i, base64: encoding != nil)
            } else if name.spells("to-one") || name.spells("to-many"), let r = codec.relationshipIndex(propertyName, expected: nextRelationship),
                !filled[codec.attributeNames.count + r], codec.entity.relationships[r].isToMany == name.spells("to-many")
            {
                filled[codec.attributeNames.count + r] = true
                nextRelationship = r + 1
                element = name.spells("to-many") ? .toMany(r) : .toOne(r)
            } else {
                throw corrupt("has <\(name.string) name=\"\(propertyName.string)\"> in record \(key) of '\(codec.entity.name)', which is unknown, repeated or of the wrong kind")
            }
        default:
            throw corrupt("has <\(name.string)> inside an element that holds only text")
        }
        stack.append(element)
        buffer.removeAll()
        switch element {
        case .schemaLine, .checksum, .value, .toOne, .toMany, .delete: collecting = true
        default: collecting = false
        }
    }

    /// Starts a record: fresh arrays of the right capacity (each record keeps its own), filled in
    /// `end` as values arrive — appended in schema order, the order files use — and padded with nil
    /// and empty links when the record ends.
    private func resetRecord(_ codec: XMLRecordCodec) {
        attributes = []
        attributes.reserveCapacity(codec.emptyAttributes.count)
        links = []
        links.reserveCapacity(codec.emptyLinks.count)
        let count = codec.emptyAttributes.count + codec.emptyLinks.count
        if filled.count == count {
            for i in filled.indices { filled[i] = false }
        } else {
            filled = Array(repeating: false, count: count)
        }
        nextAttribute = 0
        nextRelationship = 0
    }

    /// Puts attribute `i`'s value in place, padding the attributes before it with nil.
    private func setAttribute(_ i: Int, _ value: Value) {
        if i < attributes.count {
            attributes[i] = value
            return
        }
        while attributes.count < i { attributes.append(.null) }
        attributes.append(value)
    }

    /// Puts relationship `r`'s link in place, padding the relationships before it with empty links.
    private func setLink(_ r: Int, _ link: Link, _ codec: XMLRecordCodec) {
        if r < links.count {
            links[r] = link
            return
        }
        while links.count < r { links.append(codec.emptyLinks[links.count]) }
        links.append(link)
    }

    /// The string `bytes` spell for attribute `i` of entity `e`: the previous record's if it is the
    /// same bytes, else a new one (remembered for the next record).
    private func string(_ e: Int, _ i: Int, _ bytes: XMLBytes) -> String {
        if var last = recentStrings[e][i], last.utf8.count == bytes.count,
            last.withUTF8({ bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return last
        }
        let s = bytes.string
        recentStrings[e][i] = s
        return s
    }

    /// Character data of the current element; kept only in elements that hold text (the rest is
    /// the line breaks between elements).
    func text(_ bytes: XMLBytes) {
        if collecting { buffer.append(bytes) }
    }

    func end() throws {
        guard let element = stack.popLast() else { return }
        collecting = false
        switch element {
        case .schemaLine(let base64):
            guard case .string(let line)? = XMLRecordCodec.read(buffer.bytes, .string, base64: base64) else { throw corrupt("holds a schema line that is not base64") }
            schemaLines.append(line)
        case .schema:
            sawSchema = true
            guard header.fingerprint == state.schema.fingerprint else {
                throw state.schema.mismatch(storedFingerprint: header.fingerprint, storedDescription: schemaLines)
            }
        case .value(let i, let base64):
            if !base64, let codec = entity, codec.entity.attributeTypes[i] == .string {
                setAttribute(i, .string(string(codec.entity.index, i, buffer.bytes)))
                break
            }
            guard let codec = entity, let value = XMLRecordCodec.read(buffer.bytes, codec.entity.attributeTypes[i], base64: base64) else {
                throw corrupt("holds a value of the wrong type in '\(entity?.entity.attributes[i].name ?? "?")' of record \(key)")
            }
            setAttribute(i, value)
        case .toOne(let r):
            guard let codec = entity, let k = XMLRecordCodec.readInt(buffer.bytes) else { throw corrupt("holds a malformed key in '\(entity?.entity.relationships[r].name ?? "?")' of record \(key)") }
            setLink(r, .one(k), codec)
        case .toMany(let r):
            guard let codec = entity, let ks = XMLRecordCodec.readKeys(buffer.bytes) else { throw corrupt("holds a malformed key in '\(entity?.entity.relationships[r].name ?? "?")' of record \(key)") }
            setLink(r, .many(ks), codec)
        case .record:
            guard let codec = entity, !skipping else { return }
            while attributes.count < codec.emptyAttributes.count { attributes.append(.null) }
            while links.count < codec.emptyLinks.count { links.append(codec.emptyLinks[links.count]) }
            if expectJournal { try state.unload(codec.entity, key: key) }
            try state.load(codec.entity, key: key, record: StoredRecord(attributes: attributes, links: links))
        case .delete:
            guard let codec = entity, let keys = XMLRecordCodec.readKeys(buffer.bytes) else { throw corrupt("holds a malformed <delete>") }
            if !skipping { for k in keys { try state.unload(codec.entity, key: k) } }
        case .document:
            guard sawSchema else { throw corrupt("has no <schema>") }
        case .entity, .put:
            entity = nil
        case .checksum, .save, .next:
            break
        }
        buffer.removeAll()
    }
}
