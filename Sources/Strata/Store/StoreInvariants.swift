/// The invariants every committed store state keeps, checked on the records a backend reads back
/// through its own read path: what `StoreState._checkInvariants()` checks for the shared engine, for
/// backends that keep their data in their own engines (SQLite, LMDB), which run it after every save
/// under `STRATA_INTERNAL_CHECKS` (docs/architecture.md, "Internal checks").
///
/// Written from the contract (docs/store-contract.md §2–§4), not from any backend's save code, so a
/// save that breaks one of them is caught whichever rule code did it:
/// - every record is its entity's, of this store, once, with one value per attribute and one
///   relationship value of the right kind (to-one or to-many) per relationship;
/// - both sides of every relationship agree: when a record names a target that exists, the target's
///   inverse names the record back (a to-one naming a record that does not exist is a `noAction`
///   delete's dangling reference, which the contract allows);
/// - a to-many never lists a record that does not exist, nor one record twice;
/// - every unique constraint holds: no two records share values for all its parts (compared as
///   `Value.uniqueKey`, so `nil` and NaN never collide and −0 is +0).
@_spi(StrataEngine) public enum StoreInvariants {
    /// The invariants `records` break, one sentence each; empty when every one holds.
    ///
    /// - Parameter records: every record of the store, per entity in the schema's order (one
    ///   consistent state: read them in one transaction).
    public static func violations(_ schema: Schema, storeIdentifier: String, records: [[DefaultSnapshot]]) -> [String] {
        var problems: [String] = []
        func fail(_ problem: String) { if problems.count < 20 { problems.append(problem) } }
        guard records.count == schema.entities.count else {
            return ["\(records.count) record lists for the schema's \(schema.entities.count) entities"]
        }
        // Per entity, each stored record by primary key.
        var stored: [[Int64: DefaultSnapshot]] = Array(repeating: [:], count: schema.entities.count)
        for entity in schema.entities {
            for record in records[entity.index] {
                let id = record.persistentIdentifier
                guard id.storeIdentifier == storeIdentifier, id.entityName == entity.name, !id.isTemporary else {
                    fail("\(entity.name): a record read back as \(id)")
                    continue
                }
                guard stored[entity.index][id.primaryKey] == nil else {
                    fail("\(entity.name) \(id.primaryKey) read back twice")
                    continue
                }
                stored[entity.index][id.primaryKey] = record
                if record.attributes.count != entity.attributes.count {
                    fail("\(entity.name) \(id.primaryKey): \(record.attributes.count) attribute values for \(entity.attributes.count) attributes")
                }
                if record.relationships.count != entity.relationships.count {
                    fail("\(entity.name) \(id.primaryKey): \(record.relationships.count) relationship values for \(entity.relationships.count) relationships")
                }
            }
        }
        /// Whether `holder`'s relationship `r` (of `entity`) names `key`.
        func names(_ holder: DefaultSnapshot, _ r: Int, _ key: Int64) -> Bool {
            holder.relationships.indices.contains(r) && holder.relationships[r].targets.contains { $0.primaryKey == key }
        }
        for entity in schema.entities {
            for (key, record) in stored[entity.index].sorted(by: { $0.key < $1.key }) where record.relationships.count == entity.relationships.count {
                for (r, relationship) in entity.relationships.enumerated() {
                    let value = record.relationships[r]
                    let label = "\(entity.name) \(key).\(relationship.name)"
                    let destination = schema.entities[entity.destinationIndices[r]]
                    let inverse = entity.inverseIndices[r]
                    switch value {
                    case .toOne where relationship.isToMany: fail("\(label): a to-one value for a to-many relationship")
                    case .toMany where !relationship.isToMany: fail("\(label): a to-many value for a to-one relationship")
                    default: break
                    }
                    var seen = Set<Int64>()
                    for target in value.targets {
                        guard target.storeIdentifier == storeIdentifier, target.entityName == destination.name, !target.isTemporary else {
                            fail("\(label) names \(target), not a \(destination.name) of this store")
                            continue
                        }
                        if !seen.insert(target.primaryKey).inserted { fail("\(label) lists \(destination.name) \(target.primaryKey) twice") }
                        guard let other = stored[destination.index][target.primaryKey] else {
                            if relationship.isToMany { fail("\(label) lists \(destination.name) \(target.primaryKey), which does not exist") }
                            continue
                        }
                        if !names(other, inverse, key) {
                            fail("\(label) names \(destination.name) \(target.primaryKey), whose \(relationship.inverse) does not name it back")
                        }
                    }
                }
            }
            for (c, parts) in entity.uniqueConstraints.enumerated() {
                var holders: [[Value]: Int64] = [:]
                for (key, record) in stored[entity.index].sorted(by: { $0.key < $1.key }) {
                    guard let values = uniqueValues(parts, record) else { continue }
                    if let holder = holders.updateValue(key, forKey: values) {
                        fail("\(entity.name) \(holder) and \(key) share the values of unique constraint \(c) (\(parts.map(entity.name(of:)).joined(separator: ", ")))")
                    }
                }
            }
        }
        return problems
    }

    /// The values of a unique constraint's parts as the contract compares them, or `nil` when any
    /// part is unset (`nil`, NaN or an empty to-one): such a record never collides.
    static func uniqueValues(_ parts: [PropertyReference], _ record: DefaultSnapshot) -> [Value]? {
        var values: [Value] = []
        for part in parts {
            let value: Value
            switch part {
            case .attribute(let i): value = record.attributes.indices.contains(i) ? record.attributes[i].uniqueKey : .null
            case .relationship(let r): value = (record.relationships.indices.contains(r) ? record.relationships[r].target : nil).map { .int($0.primaryKey) } ?? .null
            }
            if value.isNull { return nil }
            values.append(value)
        }
        return values
    }

    /// Stops the process when `violations` is not empty: a broken invariant after a save is a bug of
    /// Strata (never bad input), and carrying on would build on a damaged store.
    public static func require(_ violations: [String], after what: String, file: StaticString = #fileID, line: UInt = #line) {
        guard !violations.isEmpty else { return }
        preconditionFailure("Strata internal invariant after \(what): \(violations.joined(separator: "; "))", file: file, line: line)
    }
}
