import CLMDB
import Foundation
@_spi(StrataEngine) import Strata

/// A decoded record with its key and entity, as the predicate evaluator sees it.
struct LMDBKeyedRecord {
    let key: Int64
    let record: LMDBRecord
    let entity: EntitySchema
}

/// Reads LMDB records for the core's `PredicateEvaluator` inside one read transaction: attributes
/// and to-ones from the decoded record, to-many membership with one lookup, paths through to-ones
/// with one `mdb_get` each.
///
/// The evaluator's reader cannot throw, so a damaged record met along a path is kept in `failure`
/// and the query throws it once evaluation ends.
struct LMDBPredicateReader: PredicateReader {
    final class Failure {
        var error: (any Error)?
    }

    let records: LMDBRecords
    let failure = Failure()

    func attribute(_ r: LMDBKeyedRecord, _ index: Int) -> Value { r.record.attributes[index] }
    func toOne(_ r: LMDBKeyedRecord, _ index: Int) -> Int64? { r.record.toOne[index] }
    func toMany(_ r: LMDBKeyedRecord, _ index: Int, contains key: Int64) -> Bool {
        do {
            return try records.holds(r.entity, r.key, index, key)
        } catch {
            failure.error = error
            return false
        }
    }
    func forEachTarget(_ r: LMDBKeyedRecord, _ index: Int, _ body: (Int64) -> Bool) {
        do {
            try records.forEachTarget(r.entity, r.key, index) { body($0) }
        } catch {
            failure.error = error
        }
    }
    func targetCount(_ r: LMDBKeyedRecord, _ index: Int) -> Int {
        do {
            return try records.count(r.entity, r.key, index)
        } catch {
            failure.error = error
            return 0
        }
    }
    func key(of r: LMDBKeyedRecord) -> Int64 { r.key }
    func key(for identifier: PersistentIdentifier, in entity: EntitySchema) -> Int64? {
        guard !identifier.isTemporary, identifier.storeIdentifier == records.storeIdentifier, identifier.entityName == entity.name else { return nil }
        return identifier.primaryKey
    }
    func record(_ entity: EntitySchema, _ key: Int64) -> LMDBKeyedRecord? {
        do {
            return try records.record(entity, key).map { LMDBKeyedRecord(key: key, record: $0, entity: entity) }
        } catch {
            failure.error = error
            return nil
        }
    }
}
