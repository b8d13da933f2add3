import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// Answers a fetch inside one read transaction.
///
/// The plan: an identifier filter at the top of the predicate becomes lookups by key; otherwise an
/// equality or range comparison with a constant on a property that has a single-property index or
/// unique constraint walks that database; otherwise the entity's records are scanned in key order.
/// Every candidate is decoded once and tested with the core's evaluator (the whole predicate, so the
/// index only narrows), and snapshots are built only for the records returned.
struct LMDBQuery {
    let records: LMDBRecords
    let schema: Schema

    /// The matching records in the contract's order, windowed.
    func matching(_ descriptor: FetchDescriptor, _ entity: EntitySchema) throws -> [(key: Int64, record: LMDBRecord)] {
        let reader = LMDBPredicateReader(records: records)
        let evaluator = PredicateEvaluator(schema: schema, reader: reader)
        let (candidates, rest) = try plan(descriptor.predicate, entity, reader)
        let test = try rest.map { try evaluator.compile($0, for: entity) }
        let limit = descriptor.fetchLimit ?? Int.max
        let offset = descriptor.fetchOffset
        defer { _ = reader }
        if descriptor.sortBy.isEmpty {
            var result: [(key: Int64, record: LMDBRecord)] = []
            var skipped = 0
            guard limit > 0 else { return [] }
            try visit(entity, candidates) { key, record in
                if let test, !test(LMDBKeyedRecord(key: key, record: record, entity: entity)) { return true }
                if skipped < offset { skipped += 1; return true }
                result.append((key, record))
                return result.count < limit
            }
            if let error = reader.failure.error { throw error }
            return result
        }
        let getters = try descriptor.sortBy.map { try evaluator.sortGetter($0, entity) }
        var rows: [(key: Int64, values: [Value], row: LMDBRecord)] = []
        try visit(entity, candidates) { key, record in
            let keyed = LMDBKeyedRecord(key: key, record: record, entity: entity)
            if let test, !test(keyed) { return true }
            rows.append((key, getters.map { $0(keyed) }, record))
            return true
        }
        if let error = reader.failure.error { throw error }
        return descriptor.orderedWindow(&rows).map { ($0.key, $0.row) }
    }

    /// Every record in key order as snapshots, windowed: a scan checks each record in its page and
    /// copies its bytes out (`LMDBSnapshot`).
    ///
    /// The loop is the scan's whole cost beside LMDB's own cursor (limit:
    /// Benchmarks/Thresholds/lmdb-scan.txt), so what does not change per record — the entity's
    /// record shape, whether it has to-many lists — is read once before it, and the
    /// window's offset is skipped before it.
    func scan(_ descriptor: FetchDescriptor, _ entity: EntitySchema) throws -> [LMDBSnapshot] {
        var result: [LMDBSnapshot] = []
        let limit = descriptor.fetchLimit ?? Int.max
        guard limit > 0 else { return [] }
        let dbi = records.layout.records[entity.index]
        // The result's size is known from the database's count: one allocation, no growth copies.
        var stat = MDB_stat()
        if mdb_stat(records.txn, dbi, &stat) == 0 { result.reserveCapacity(min(limit, max(0, Int(stat.ms_entries) - descriptor.fetchOffset))) }
        let context = records.context
        let shape = context.shapes[entity.index]
        let hasToMany = context.hasToMany[entity.index]
        var blocks = LMDBBlocks(context, exact: false)
        try records.withCursor(dbi) { cursor in
            var k = MDB_val(), data = MDB_val()
            var rc = mdb_cursor_get(cursor, &k, &data, MDB_FIRST)
            var skipped = 0
            while rc == 0, skipped < descriptor.fetchOffset {
                skipped += 1
                rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT)
            }
            while rc == 0 {
                guard k.mv_size == 8 else {
                    throw badKey(entity, size: k.mv_size, file: records.file)
                }
                let key = LMDBKeyCodec.readBigEndian(k.mv_data)
                let bytes = data.bytes
                let links = try LMDBRecordCodec.quickCheck(bytes, key: key, shape: shape) ?? LMDBRecordCodec.check(bytes, shape, key: key, file: records.file)
                if hasToMany || bytes.count > UInt32.max {
                    result.append(try records.snapshot(entity, key, bytes, links: links, into: &blocks))
                } else {
                    let (block, offset) = blocks.append(bytes, shape)
                    result.append(LMDBSnapshot(key: key, block: block, at: offset, count: bytes.count, links: links, relationships: nil))
                }
                if result.count == limit { return }
                rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try lmdbCheck(rc, "scan \(entity.name)") }
        }
        return result
    }

    /// How many records match, window applied; without a predicate, one `mdb_stat`.
    func count(_ descriptor: FetchDescriptor, _ entity: EntitySchema) throws -> Int {
        guard descriptor.predicate == nil else { return try matching(descriptor, entity).count }
        var stat = MDB_stat()
        try lmdbCheck(mdb_stat(records.txn, records.layout.records[entity.index], &stat), "mdb_stat")
        return min(max(0, Int(stat.ms_entries) - descriptor.fetchOffset), descriptor.fetchLimit ?? .max)
    }

    /// Visits candidates (or every record, in key order) with their decoded records.
    private func visit(_ entity: EntitySchema, _ candidates: [Int64]?, _ body: (Int64, LMDBRecord) throws -> Bool) throws {
        if let candidates {
            for key in candidates {
                if let record = try records.record(entity, key), !(try body(key, record)) { return }
            }
            return
        }
        let shape = records.context.shapes[entity.index]
        try records.withCursor(records.layout.records[entity.index]) { cursor in
            var k = MDB_val(), data = MDB_val()
            var rc = mdb_cursor_get(cursor, &k, &data, MDB_FIRST)
            while rc == 0 {
                guard k.mv_size == 8 else {
                    throw badKey(entity, size: k.mv_size, file: records.file)
                }
                let key = LMDBKeyCodec.readBigEndian(k.mv_data)
                let record = try LMDBRecordCodec.decode(data.bytes, shape, key: key, file: records.file)
                guard try body(key, record) else { return }
                rc = mdb_cursor_get(cursor, &k, &data, MDB_NEXT)
            }
            if rc != MDB_NOTFOUND { try lmdbCheck(rc, "scan \(entity.name)") }
        }
    }

    /// Candidate keys (ascending) from identifiers or an index, and the predicate left to test.
    /// The error for a record key that is not 8 bytes.
    private func badKey(_ entity: EntitySchema, size: Int, file: String) -> StrataError {
        StrataError(.corruptStore, "'\(entity.name)' holds a \(size)-byte key; restore the environment from a backup.", entity: entity.name, file: file)
    }

    private func plan(_ predicate: FetchPredicate?, _ entity: EntitySchema, _ reader: LMDBPredicateReader) throws -> ([Int64]?, FetchPredicate?) {
        guard let predicate else { return (nil, nil) }
        func keys(_ ids: [PersistentIdentifier]) -> [Int64] {
            Array(Set(ids.compactMap { reader.key(for: $0, in: entity) })).sorted()
        }
        let parts: [FetchPredicate]
        switch predicate {
        case .identifierIn(let ids): return (keys(ids), nil)
        case .and(let list): parts = list
        default: parts = [predicate]
        }
        if let i = parts.firstIndex(where: { if case .identifierIn = $0 { true } else { false } }), case .identifierIn(let ids) = parts[i] {
            var rest = parts
            rest.remove(at: i)
            return (keys(ids), .and(rest))
        }
        for part in parts {
            guard case .compare(let path, let op, let given) = part, op != .notEqual, path.components.count == 1,
                let attribute = entity.attributeIndex(path.components[0])
            else { continue }
            var value = given
            if entity.attributeTypes[attribute] == .double, case .int(let n) = given { value = .double(Double(n)) }
            guard value.type == entity.attributeTypes[attribute], let bound = LMDBKeyCodec.valueKey([value]) else { continue }
            let single: [PropertyReference] = [.attribute(attribute)]
            let dbi: MDB_dbi
            if let i = entity.indexes.firstIndex(of: single) {
                dbi = records.layout.indexes[entity.index][i]
            } else if let c = entity.uniqueConstraints.firstIndex(of: single) {
                dbi = records.layout.uniques[entity.index][c]
            } else {
                continue
            }
            return (try walk(dbi, op, bound).sorted(), predicate)
        }
        return (nil, predicate)
    }

    /// The keys filed in an index under values `op bound` (a superset where keys were cut).
    private func walk(_ dbi: MDB_dbi, _ op: ComparisonOperator, _ bound: [UInt8]) throws -> [Int64] {
        var result: [Int64] = []
        try records.withCursor(dbi) { cursor in
            try bound.withUnsafeBytes { raw in
                var k = MDB_val(mv_size: raw.count, mv_data: UnsafeMutableRawPointer(mutating: raw.baseAddress))
                var data = MDB_val()
                func compare(_ key: MDB_val) -> Int32 {
                    let n = min(key.mv_size, raw.count)
                    let c = n == 0 ? 0 : memcmp(key.mv_data!, raw.baseAddress!, n)
                    return c != 0 ? c : Int32(key.mv_size) - Int32(raw.count)
                }
                var rc: Int32
                switch op {
                case .equal: rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_KEY)
                case .greater, .greaterOrEqual: rc = mdb_cursor_get(cursor, &k, &data, MDB_SET_RANGE)
                default: rc = mdb_cursor_get(cursor, &k, &data, MDB_FIRST)
                }
                while rc == 0 {
                    if op == .less || op == .lessOrEqual, compare(k) > 0 { return }
                    if data.mv_size == 8 { result.append(LMDBKeyCodec.readBigEndian(data.mv_data)) }
                    rc = mdb_cursor_get(cursor, &k, &data, op == .equal ? MDB_NEXT_DUP : MDB_NEXT)
                }
                if rc != MDB_NOTFOUND { try lmdbCheck(rc, "walk an index") }
            }
        }
        return result
    }
}
