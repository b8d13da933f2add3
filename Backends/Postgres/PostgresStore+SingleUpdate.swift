import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// A save that updates one record and changes none of its relationships, in one round trip.
///
/// Why: such a save (the model layer's most common one: one object's property set, then `save()`)
/// took two round trips through the shared save (`SQLSaveTransaction`): the first read the row
/// (`FOR UPDATE`) to learn whether it exists, which columns change and what its relationships hold;
/// the second wrote it and committed. A server round trip is the whole cost of such a save.
///
/// Here the checks the read served run on the server, inside the one pipeline: `BEGIN`, the write
/// lock, then
///
///     WITH u AS (UPDATE "T" SET <every attribute column> WHERE "_pk" = $k
///                AND <every to-one column> IS NOT DISTINCT FROM <the value sent>
///                AND (<the recorded schema fingerprint>) = <the opened one> RETURNING 1)
///     SELECT 1 / count(*) FROM u
///
/// then `NOTIFY` and `COMMIT`. An UPDATE that found no such row (the record is gone, a to-one
/// column holds something else than the snapshot sends, or another process migrated the store)
/// divides by zero: the server aborts the transaction, the pipeline skips the COMMIT, and nothing
/// is written. So does any other failure (a unique value taken, a column a migration renamed).
/// The save is then rolled back and run again the shared way, which finds and reports the fault
/// exactly as for any other save (`unknownIdentifier`, `uniqueConstraintViolation`,
/// `schemaMismatch`) or applies the relationship change. There is no read-then-write race: the
/// existence, relationship and schema checks and the write are one statement, under the row's lock
/// and after the store's write lock (READ COMMITTED: the statement's snapshot is taken after the
/// lock was granted, so it sees a migration that committed while the save waited). The schema
/// check rides in the UPDATE instead of a statement of its own (the shared way's guard): one
/// statement less for the server to parse, plan and run.
///
/// Writing every attribute column, not only those that differ, has the shared save's meaning: a
/// whole-snapshot update leaves the record holding the snapshot's values either way (a column
/// written with its stored value keeps its index entries: PostgreSQL compares them before
/// updating an index).
///
/// With history on, the same one round trip records the transaction (`recordingParameters`): the
/// statement also takes the next number and inserts the history row, whose old values the server
/// puts in (docs/formats/postgres.md, "One round trip for a one-record update").
///
/// Only where nothing else of the save needs the shared transaction: one updated snapshot, nothing
/// inserted or deleted, no `updatedProperties` (merging and conflict checks read the row), every
/// relationship of the entity a to-one stored in its own column (a to-many's targets are in other
/// rows), no required to-one sent empty, every value of the
/// snapshot's shape and of this store (`SaveValidation.checkValues`). Anything else, or a
/// connection found closed before the pipeline is sent, goes the shared way at once.
extension PostgresStore {
    /// Per entity, the one-round-trip UPDATE's SQL, or nil when an entity has a to-many
    /// relationship (its targets are stored in other rows). Its parameters: the attribute columns
    /// in table order, the key, the to-one columns, the opened schema fingerprint.
    static func singleUpdateStatements(for mapping: SQLMapping) -> [String?] {
        singleUpdateStatements(for: mapping, returningOld: false)
    }

    /// `singleUpdateStatements`, for a store that records history: one statement that also records
    /// the save's history transaction. `prior` reads the row as the statement's snapshot has it
    /// (every part of a statement reads that one snapshot, so the UPDATE's own write is not seen
    /// whichever part runs first), with its old values as one array in the form the history row
    /// keeps (`PostgresHistory.priorValue`); the UPDATE writes only that version of the row (the
    /// same `xmin`: a version another transaction committed since, which the UPDATE would otherwise
    /// follow, fails the condition, so the statement divides by zero and the save goes the shared
    /// way, which reads the row `FOR UPDATE`). When the old values differ from the values the
    /// UPDATE writes, the history row goes in, numbered by the sequence, with the client's
    /// transaction (three more parameters, `recordingParameters`: the author, the encoded
    /// transaction, and the written values as the same array in PostgreSQL's binary form, which the
    /// server compares with the old one's `array_send` bytes: one comparison, not one per column).
    /// The main query runs first: no row updated divides by zero before the history row's part
    /// runs, so a refused save records nothing and takes no number.
    ///
    ///     WITH prior AS (SELECT ARRAY[<old values>]::bytea[] AS "strata.prior", xmin AS "strata.xmin" FROM "T" WHERE "_pk" = $k),
    ///          u AS (UPDATE "T" SET … WHERE <checks> AND xmin = (SELECT "strata.xmin" FROM prior) RETURNING 1),
    ///          h AS (INSERT INTO "strata_history" ("token", "author", "transaction", "prior")
    ///                SELECT nextval('"strata_history_token"'), $a, $t, prior."strata.prior" FROM prior
    ///                WHERE array_send(prior."strata.prior") IS DISTINCT FROM $n)
    ///     SELECT 1 / count(*) FROM u
    ///
    /// The UPDATE joined a `FOR UPDATE` subquery before: the same outcome, with a larger plan for
    /// the server to start on every save; the counter row `history_last` (format 2) and a
    /// comparison per column cost the server about 55,000 and 30,000 instructions a save more
    /// (docs/history.md, "Cost"). (`prior`, not `old`: PostgreSQL 18 gives `old` in RETURNING a
    /// meaning of its own.)
    static func singleUpdateRecordingStatements(for mapping: SQLMapping) -> [String?] {
        singleUpdateStatements(for: mapping, returningOld: true)
    }

    private static func singleUpdateStatements(for mapping: SQLMapping, returningOld: Bool) -> [String?] {
        let q = PostgresCatalog.quote
        return mapping.tables.map { table in
            var toOnes: [String] = []
            for storage in table.relationships {
                guard case .column(let column, _) = storage else { return nil }
                toOnes.append(column)
            }
            var sets: [String] = []
            for (i, column) in table.attributeColumns.enumerated() {
                sets.append(q(column))
                if let bits = table.bitsColumns[i] { sets.append(q(bits)) }
            }
            let assignments = sets.enumerated().map { "\($1) = $\($0 + 1)" }
            var conditions = ["\(q("_pk")) = $\(sets.count + 1)"]
            for (r, column) in toOnes.enumerated() { conditions.append("\(q(column)) IS NOT DISTINCT FROM $\(sets.count + 2 + r)") }
            // The fingerprint, the last parameter (`singleUpdate`).
            let fingerprint = sets.count + 2 + toOnes.count
            conditions.append("(\(SQLText.recordedFingerprint.sql)) = convert_from($\(fingerprint), 'UTF8')")
            // A table without attribute columns has nothing to set: the key set to itself.
            let set = assignments.isEmpty ? "\(q("_pk")) = \(q("_pk"))" : assignments.joined(separator: ", ")
            guard returningOld else {
                return "WITH u AS (UPDATE \(q(table.name)) SET \(set) WHERE \(conditions.joined(separator: " AND ")) RETURNING 1) SELECT 1 / count(*) FROM u"
            }
            // The row the UPDATE overwrites is the version read as it was: same `xmin`.
            conditions.append("xmin = (SELECT \(q("strata.xmin")) FROM prior)")
            // Per attribute, its old value as `PostgresHistory.priorValue` reads it; the client
            // sends the written values in the same form (`PostgresHistory.writtenValues`).
            var priors: [String] = []
            for (i, column) in table.attributeColumns.enumerated() {
                if let bits = table.bitsColumns[i] {
                    priors.append("coalesce(int8send(\(q(bits))), float8send(\(q(column))))")
                } else if PostgresDialect.columnType(table.entity.attributes[i].type) == PostgresDialect.integerType {
                    priors.append("int8send(\(q(column)))")
                } else {
                    priors.append(q(column))
                }
            }
            let old = "prior.\(q("strata.prior"))"
            return "WITH prior AS (SELECT ARRAY[\(priors.joined(separator: ", "))]::bytea[] AS \(q("strata.prior")), xmin AS \(q("strata.xmin")) FROM \(q(table.name)) WHERE \(q("_pk")) = $\(sets.count + 1)), "
                + "u AS (UPDATE \(q(table.name)) SET \(set) WHERE \(conditions.joined(separator: " AND ")) RETURNING 1), "
                + "h AS (INSERT INTO \(q(PostgresHistory.table)) (\(q("token")), \(q("author")), \(q("transaction")), \(q("prior"))) "
                + "SELECT nextval(\(PostgresHistory.nextNumberArgument)), $\(fingerprint + 1)::bytea, $\(fingerprint + 2)::bytea, \(old) FROM prior "
                + "WHERE array_send(\(old)) IS DISTINCT FROM $\(fingerprint + 3)::bytea) "
                + "SELECT 1 / count(*) FROM u"
        }
    }

    /// The parameters of the one-round-trip UPDATE of `request`'s one updated snapshot, or nil when
    /// the save must go the shared way (see the extension's comment). With history on, the last
    /// three are the author, the save's transaction as the client knows it (`recordingParameters`)
    /// and the written values as the history row's array of old values would hold them.
    func singleUpdate(_ request: SaveRequest<DefaultSnapshot>) -> (sql: String, parameters: [SQLValue])? {
        guard request.updated.count == 1, request.inserted.isEmpty, request.deleted.isEmpty,
              request.updatedProperties.isEmpty else { return nil }
        let snapshot = request.updated[0]
        let id = snapshot.persistentIdentifier
        guard !id.isTemporary, id.storeIdentifier == identifier,
              let entity = try? SaveValidation.entity(of: id, given: snapshot.entity, in: mapping.schema.entities),
              let sql = (configuration.recordsHistory ? singleUpdateRecordingStatements : singleUpdateStatements)[entity.index],
              (try? SaveValidation.checkValues(snapshot.attributeValues, snapshot.relationshipValues, of: entity, identifier: id)) != nil
        else { return nil }
        let table = mapping.tables[entity.index]
        var parameters: [SQLValue] = []
        // The key, the fingerprint and, with history on, the author, the transaction and the values.
        parameters.reserveCapacity(table.attributeColumns.count * 2 + (configuration.recordsHistory ? 5 : 2) + entity.relationships.count)
        for (i, value) in snapshot.attributeValues.enumerated() {
            let (main, bits) = SQLValueCodec.encode(value)
            parameters.append(main)
            if table.bitsColumns[i] != nil { parameters.append(bits) }
        }
        parameters.append(.integer(id.primaryKey))
        for (r, value) in snapshot.relationshipValues.enumerated() {
            guard case .toOne(let target) = value else { return nil }
            guard let target else {
                // A required to-one sent empty fails validation: the shared save reports it.
                guard entity.relationships[r].isOptional else { return nil }
                parameters.append(.null)
                continue
            }
            let destination = schema.entities[entity.destinationIndices[r]]
            guard !target.isTemporary, target.storeIdentifier == identifier, target.entityName == destination.name else { return nil }
            parameters.append(.integer(target.primaryKey))
        }
        // The fingerprint the store was opened at (the writer's `openedFingerprint`).
        parameters.append(.text(mapping.schema.fingerprint))
        if configuration.recordsHistory {
            recordingParameters(snapshot, entity, author: request.author, into: &parameters)
            parameters.append(.blob(PostgresHistory.writtenValues(parameters, of: table)))
        }
        return (sql, parameters)
    }

    /// Appends the author and the save's transaction as the client knows it: one update change
    /// listing every attribute of the record with its new value and, as its old value, a
    /// placeholder of the attribute's type (`placeholder`), numbered 0. The server stores the
    /// row's old values beside it (`prior`), numbers it and leaves it out when no stored value
    /// changed; the reader puts the two together (`PostgresHistory.completed`). Encoded straight
    /// from the values (`HistoryRecorder.withEncodedUpdate`), with no change or transaction built.
    private func recordingParameters(_ snapshot: DefaultSnapshot, _ entity: EntitySchema, author: String?, into parameters: inout [SQLValue]) {
        parameters.append(author.map { .text($0) } ?? .null)
        HistoryRecorder.withEncodedUpdate(
            storeIdentifier: identifier, 0, author: author, entity, snapshot.persistentIdentifier.primaryKey,
            old: historyPlaceholders[entity.index], new: snapshot.attributeValues, listingEvery: true
        ) { parameters.append(.blob(Data($0))) }
    }

    /// Runs `update` (`singleUpdate`) in the transaction `beginWrite` left pending, with its
    /// COMMIT, in one round trip; its result, or nil when the server refused it (rolled back, so
    /// the caller runs the save the shared way). Throws when the connection was lost (the save
    /// applied whole or not at all: `storeUnavailable`).
    func savedInOneRoundTrip(_ update: (sql: String, parameters: [SQLValue]), _ request: SaveRequest<DefaultSnapshot>, on connection: PostgresConnection) throws -> SaveResult<DefaultSnapshot>? {
        // A connection the server closed since the last save (a restart, a terminated backend)
        // is found before anything is sent: the shared way then reconnects and runs the save.
        guard connection.isOpenAfterReading, connection.beginPending else { return nil }
        do {
            try connection.commitSingleUpdate(update.sql, update.parameters, notify: commitNotify)
        } catch let error as PostgresError where !error.isConnectionLost && connection.isAlive {
            _ = error  // the shared save finds and reports the fault
            try connection.rollback()
            try connection.beginWrite()
            return nil
        }
        #if STRATA_INTERNAL_CHECKS
        checkInvariantsAfterSave()  // PostgresStore+Invariants.swift
        #endif
        return SaveResult(storeIdentifier: identifier, remappedIdentifiers: [:], deletedIdentifiers: [], changedSnapshots: [:])
    }

    /// The old value the client writes for an attribute of `type` in a one-record update's
    /// transaction: the type's zero, short to encode, standing for the value the server keeps
    /// beside it (`prior`); it tells the reader the type to decode that value as, also when the
    /// new value is NULL.
    static func placeholder(_ type: AttributeType) -> Value {
        switch type {
        case .bool: .bool(false)
        case .int: .int(0)
        case .double: .double(0)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .string: .string("")
        case .data: .data(Data())
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .url: .url(URL(string: "x:")!)
        }
    }
}
