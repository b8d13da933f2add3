import Foundation
@_spi(StrataEngine) import Strata

/// Which files and columns a schema becomes; `docs/formats/csv.md` describes the result.
///
/// One file per entity: `@id`, the attributes, one column per to-one relationship (the target's
/// key) and `<relationship>__order` beside a to-one whose inverse is an ordered to-many. A to-many
/// whose inverse is to-one is not written: it is the rows pointing back. One file per many-to-many:
/// pairs of keys, with order columns for ordered sides.
struct CSVLayout {
    let schema: Schema

    struct Pair {
        let name: String
        let left: (entity: EntitySchema, relationship: Int)
        let right: (entity: EntitySchema, relationship: Int)
        /// A relationship that is its own inverse (`Member.friends`): each edge is two rows, one
        /// per direction, and the right column is named `<Entity>.<rel>__mirror` (columns are found
        /// by name, so the two must differ).
        var isSymmetric: Bool { left.entity.index == right.entity.index && left.relationship == right.relationship }
        var header: [String] {
            var h = ["\(left.entity.name).\(left.entity.relationships[left.relationship].name)", "\(right.entity.name).\(right.entity.relationships[right.relationship].name)"]
            if isSymmetric { h[1] += "__mirror" }
            if left.entity.relationships[left.relationship].isOrdered { h.append(h[0] + "__order") }
            if right.entity.relationships[right.relationship].isOrdered { h.append(h[1] + "__order") }
            return h
        }
    }
    let pairs: [Pair]

    init(schema: Schema) {
        self.schema = schema
        var pairs: [Pair] = []
        var seen = Set<String>()
        for entity in schema.entities {
            for (r, relationship) in entity.relationships.enumerated() where relationship.isToMany {
                let destination = schema.entities[entity.destinationIndices[r]]
                let inverse = entity.inverseIndices[r]
                guard destination.relationships[inverse].isToMany else { continue }
                let mine = "\(entity.name).\(relationship.name)", other = "\(destination.name).\(destination.relationships[inverse].name)"
                let name = min(mine, other) + "+" + max(mine, other)
                guard seen.insert(name).inserted else { continue }
                let leftIsMine = mine <= other
                pairs.append(Pair(
                    name: name, left: leftIsMine ? (entity, r) : (destination, inverse), right: leftIsMine ? (destination, inverse) : (entity, r)))
            }
        }
        self.pairs = pairs
    }

    /// The to-one relationships written as columns, and whether each has an order column.
    func toOneColumns(_ entity: EntitySchema) -> [(relationship: Int, ordered: Bool)] {
        entity.relationships.enumerated().filter { !$0.element.isToMany }.map { r, _ in
            let destination = schema.entities[entity.destinationIndices[r]]
            return (r, destination.relationships[entity.inverseIndices[r]].isOrdered)
        }
    }

    func header(_ entity: EntitySchema) -> [String] {
        var header = ["@id"] + entity.attributes.map(\.name)
        for (r, ordered) in toOneColumns(entity) {
            header.append(entity.relationships[r].name)
            if ordered { header.append(entity.relationships[r].name + "__order") }
        }
        return header
    }

    /// Visits the records of `entity` in `chunk`, in key order.
    private func forEach(_ entity: EntitySchema, in chunk: Int64, of state: StoreState, _ body: (Int64, StoredRecord) -> Void) {
        for key in CSVChunks.range(chunk) {
            if let record = state.record(entity, key) { body(key, record) }
        }
    }

    /// The file of an entity's records in `chunk`, or `nil` if it holds none.
    func rows(_ entity: EntitySchema, chunk: Int64, in state: StoreState) -> [UInt8]? {
        var w = CSVWriter()
        w.row(header(entity).map { CSVField(text: $0, quoted: false) })
        let columns = toOneColumns(entity)
        var any = false
        forEach(entity, in: chunk, of: state) { key, record in
            any = true
            var fields: [CSVField?] = [CSVField(text: String(key), quoted: false)]
            fields += record.attributes.map(CSVFieldCodec.encode)
            for (r, ordered) in columns {
                guard case .one(let target) = record.links[r] else { continue }
                fields.append(target.map { CSVField(text: String($0), quoted: false) })
                if ordered {
                    var position: Int?
                    if let target, let parent = state.record(schema.entities[entity.destinationIndices[r]], target),
                        case .many(let list) = parent.links[entity.inverseIndices[r]] {
                        position = list.firstIndex(of: key)
                    }
                    fields.append(position.map { CSVField(text: String($0), quoted: false) })
                }
            }
            w.row(fields)
        }
        return any ? w.bytes : nil
    }

    /// The file of a many-to-many relationship's pairs whose left key is in `chunk`, or `nil` if
    /// there are none.
    func rows(_ pair: Pair, chunk: Int64, in state: StoreState) -> [UInt8]? {
        var w = CSVWriter()
        var any = false
        w.row(pair.header.map { CSVField(text: $0, quoted: false) })
        let leftOrdered = pair.left.entity.relationships[pair.left.relationship].isOrdered
        let rightOrdered = pair.right.entity.relationships[pair.right.relationship].isOrdered
        forEach(pair.left.entity, in: chunk, of: state) { key, record in
            guard case .many(let targets) = record.links[pair.left.relationship] else { return }
            for (position, target) in targets.enumerated() {
                any = true
                var fields: [CSVField?] = [CSVField(text: String(key), quoted: false), CSVField(text: String(target), quoted: false)]
                if leftOrdered { fields.append(CSVField(text: String(position), quoted: false)) }
                if rightOrdered {
                    var other: Int?
                    if let b = state.record(pair.right.entity, target), case .many(let back) = b.links[pair.right.relationship] { other = back.firstIndex(of: key) }
                    fields.append(other.map { CSVField(text: String($0), quoted: false) })
                }
                w.row(fields)
            }
        }
        return any ? w.bytes : nil
    }
}
