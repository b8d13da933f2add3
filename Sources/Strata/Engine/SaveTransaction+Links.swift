/// How a save keeps both sides of every relationship in agreement: an insert's or update's links
/// applied as edge additions and removals on the records they name.
extension SaveTransaction {
    /// Records that a write changed the links of `key` (or, from `writeUpdates`, its attributes).
    /// An insert's links were kept by `keepSentLinks` before they changed.
    mutating func markTouched(_ entity: Int, _ key: Int64) {
        if key < base.tables[entity].nextPrimaryKey { changes.updated[entity].insert(key) }
    }

    /// Before the first change to the links of a record this save inserts: keeps the links it was
    /// written with (what the request sent), so the result can tell whether they came back changed.
    mutating func keepSentLinks(_ entity: Int, _ key: Int64) {
        let first = base.tables[entity].nextPrimaryKey
        guard key >= first, key - first < Int64(insertLinksChanged[entity].count), !insertLinksChanged[entity][Int(key - first)],
            let record = work.tables[entity].records[key] else { return }
        insertLinksChanged[entity][Int(key - first)] = true
        sentByChangedInserts.append((entity, key, record.links))
    }

    func link(_ entity: Int, _ key: Int64, _ relationship: Int) -> Link? {
        work.tables[entity].records[key]?.links[relationship]
    }

    mutating func setLink(_ entity: Int, _ key: Int64, _ relationship: Int, _ link: Link) {
        flushPendingAppends()
        keepSentLinks(entity, key)
        work.tables[entity].records.modify(key) { $0.links[relationship] = link }
        if case .one = link, key >= base.tables[entity].nextPrimaryKey { insertedToOneMoved = true }
        markTouched(entity, key)
    }

    /// Applies what a written record changed in one relationship, compared with the stored record
    /// (an insert starts empty), as edge additions and removals that keep both sides in agreement.
    ///
    /// Comparing with the stored record, not with what earlier writes of this save did, means a
    /// record that merely repeats a value does not undo a change another record of the save made;
    /// only real changes are applied, in request order.
    mutating func applyLink(_ w: Written, _ r: Int) throws {
        let sent = w.sent[r]
        if w.isInsert { return applyInsertLink(w.entity, w.key, w.sent[r], r) }
        let stored = base.tables[w.entity.index].records[w.key]!.links[r]
        guard stored != sent else { return }
        let e = w.entity.index
        let destination = w.entity.destinationIndices[r]
        let inverse = w.entity.inverseIndices[r]
        switch (stored, sent) {
        case (.one(let old), .one(let new)):
            if let old { unlink(e, w.key, r, destination, old, inverse) }
            if let new {
                try requireExists(destination, new, referencedBy: w.entity, w.key, r)
                attach(e, w.key, r, to: new, source: destination, sourceRelationship: inverse)
                attach(destination, new, inverse, to: w.key, source: e, sourceRelationship: r)
            }
        case (.many(let old), .many(let new)):
            let oldSet = old.isEmpty ? [] : Set(old)
            let newSet = old.isEmpty ? [] : Set(new)
            for target in old where !newSet.contains(target) { unlink(e, w.key, r, destination, target, inverse) }
            for target in new where !oldSet.contains(target) {
                try requireExists(destination, target, referencedBy: w.entity, w.key, r)
                attach(e, w.key, r, to: target, source: destination, sourceRelationship: inverse)
                attach(destination, target, inverse, to: w.key, source: e, sourceRelationship: r)
            }
            if w.entity.relationships[r].isOrdered { reorder(e, w.key, r, as: new) }
        default:
            break
        }
    }

    /// Applies relationship `r` of an insert: it was written with its own side already (it had
    /// nothing before), so only the targets' sides change, taking a to-one target from its previous
    /// holder if needed. Its targets exist: a permanent one was checked against the stored records
    /// when converted (a new record may only name stored ones), a temporary one is an insert of
    /// this save, written by now, and deletes come later.
    mutating func applyInsertLink(_ entity: EntitySchema, _ key: Int64, _ sent: Link, _ r: Int) {
        let destination = entity.destinationIndices[r]
        let inverse = entity.inverseIndices[r]
        switch sent {
        case .one(let target?):
            // An earlier write of the save may have moved the insert away; this later one wins.
            if insertedToOneMoved { attach(entity.index, key, r, to: target, source: destination, sourceRelationship: inverse) }
            attach(destination, target, inverse, to: key, source: entity.index, sourceRelationship: r)
        case .many(let targets):
            for target in targets { attach(destination, target, inverse, to: key, source: entity.index, sourceRelationship: r) }
        default:
            break
        }
    }

    /// Removes the edge between `key` (relationship `r`) and `target` (relationship `inverse`) on both sides.
    mutating func unlink(_ entity: Int, _ key: Int64, _ r: Int, _ destination: Int, _ target: Int64, _ inverse: Int) {
        detach(entity, key, r, from: target)
        detach(destination, target, inverse, from: key)
    }

    /// Puts an ordered list in the written order; members other writes of this save added follow.
    mutating func reorder(_ entity: Int, _ key: Int64, _ r: Int, as written: [Int64]) {
        flushPendingAppends()
        guard case .many(let current)? = link(entity, key, r), current != written else { return }
        let present = Set(current)
        let listed = Set(written)
        let ordered = written.filter { present.contains($0) } + current.filter { !listed.contains($0) }
        setLink(entity, key, r, .many(ordered))
    }

    /// `SaveRules.requireExists`, answered from the save's working state.
    func requireExists(_ entity: Int, _ key: Int64, referencedBy source: EntitySchema, _ sourceKey: Int64, _ r: Int) throws {
        try SaveRules.requireExists(entity, key, referencedBy: source, sourceKey, relationship: r, holds: { work.tables[entity].records.contains(key) }, client: { clientIdentifier($0, $1) })
    }

    /// Removes `source` from relationship `r` of record `key` (one side only).
    mutating func detach(_ entity: Int, _ key: Int64, _ r: Int, from source: Int64) {
        flushPendingAppends()
        guard let current = link(entity, key, r) else { return }
        switch current {
        case .one(let k) where k == source: setLink(entity, key, r, .one(nil))
        case .many(var ks):
            guard let i = ks.firstIndex(of: source) else { return }
            ks.remove(at: i)
            setLink(entity, key, r, .many(ks))
            membership[LinkSlot(entity: entity, key: key, relationship: r)]?.remove(source)
        default: break
        }
    }

    /// Adds `source` to relationship `r` of record `key` (one side only); if `r` is a to-one that held
    /// another record, that record loses `key` from its side (`sourceRelationship` of `sourceEntity`).
    mutating func attach(_ entity: Int, _ key: Int64, _ r: Int, to source: Int64, source sourceEntity: Int, sourceRelationship: Int) {
        guard entities[entity].relationshipIsToMany[r] else {
            flushPendingAppends()
            guard case .one(let k)? = link(entity, key, r), k != source else { return }
            if let previous = k { detach(sourceEntity, previous, sourceRelationship, from: key) }
            setLink(entity, key, r, .one(source))
            return
        }
        let slot = LinkSlot(entity: entity, key: key, relationship: r)
        // A record this save inserts is in no list yet unless a list the request wrote named it.
        let unlisted = !requestListsHoldInserts && source >= base.tables[sourceEntity].nextPrimaryKey
        if unlisted, membership.isEmpty {
            // Appended without a check: gather a run of appends to one list, write them at once.
            if pendingAppend != slot {
                flushPendingAppends()
                pendingAppend = slot
            }
            pendingKeys.append(source)
            return
        }
        flushPendingAppends()
        keepSentLinks(entity, key)
        var members: Set<Int64>? = membership.isEmpty ? nil : membership.removeValue(forKey: slot)
        var added = false
        work.tables[entity].records.modify(key) { record in
            guard case .many(var ks) = record.links[r] else { return }
            if !unlisted {
                if members == nil && ks.count >= 256 { members = Set(ks) }
                if let m = members { if m.contains(source) { return } } else if ks.contains(source) { return }
            }
            record.links[r] = .one(nil)  // drop the record's reference so the append does not copy
            ks.append(source)
            record.links[r] = .many(ks)
            members?.insert(source)
            added = true
        }
        if let members { membership[slot] = members }
        if added { markTouched(entity, key) }
    }

    /// Writes the gathered appends to one list (see `attach`): one change of the list's record
    /// instead of one per appended key. Anything else that reads or changes links flushes first,
    /// so no one sees the list without them.
    mutating func flushPendingAppends() {
        guard let slot = pendingAppend else { return }
        pendingAppend = nil
        keepSentLinks(slot.entity, slot.key)
        var added = false
        work.tables[slot.entity].records.modify(slot.key) { record in
            guard case .many(var ks) = record.links[slot.relationship] else { return }
            record.links[slot.relationship] = .one(nil)  // drop the record's reference so the append does not copy
            ks.append(contentsOf: pendingKeys)
            record.links[slot.relationship] = .many(ks)
            added = true
        }
        pendingKeys.removeAll(keepingCapacity: true)
        if added { markTouched(slot.entity, slot.key) }
    }
}
