import Foundation
@_spi(StrataEngine) import Strata
import Synchronization

/// What a case body works with: the store under test on a fresh location, and small helpers that
/// keep each case a few readable lines.
///
/// Every helper that checks something throws `CaseFailure` with a message naming the expectation and
/// what the store did, so a failing case explains itself in the report.
final class CaseContext: @unchecked Sendable {
    let schema = FixtureDomain.schema
    let directory: URL
    private let openAt: (URL, Schema) throws -> any SuiteStore
    private var current: (any SuiteStore)?
    private(set) var otherDirectories: [URL] = []
    /// Applies a migration to the store at a location (`Store.migrateStore`), for migration cases.
    var migrateAt: ((URL, SchemaMigration) throws -> Void)?
    /// Reads the schema recorded at a location (`Store.recordedSchema`), for migration cases.
    var recordedAt: ((URL) throws -> RecordedSchema?)?
    /// Runs a whole staged migration path in the backend's atomic step (`StateMigratable`):
    /// location, source, destination, rewrite. `nil` when the backend does not adopt it.
    var stagedMigrateAt: ((URL, Schema, Schema, (StoreState) throws -> StoreState) throws -> Void)?

    init(directory: URL, open: @escaping (URL, Schema) throws -> any SuiteStore) throws {
        self.directory = directory
        self.openAt = open
        self.current = try open(directory, FixtureDomain.schema)
    }

    /// The store under test.
    var store: any SuiteStore { current! }

    /// Releases the store and opens it again at the same location.
    func reopen() throws {
        current = nil
        current = try openAt(directory, schema)
    }

    /// Releases the store and opens the same location with another schema (for mismatch cases).
    func reopen(with other: Schema) throws -> any SuiteStore {
        current = nil
        return try openAt(directory, other)
    }

    /// Opens a second, independent store of the same backend on its own fresh location.
    func openOther() throws -> any SuiteStore {
        let other = directory.deletingLastPathComponent().appendingPathComponent(directory.lastPathComponent + "-other-\(otherDirectories.count)")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        otherDirectories.append(other)
        return try openAt(other, schema)
    }

    /// Opens a second store on the location of the store under test while that one stays open (the
    /// contract's rule on two instances of one location).
    func openSameLocation() throws -> any SuiteStore { try openAt(directory, schema) }

    func close() { current = nil }

    /// Closes the store, migrates its location from the fixture schema to `destination` (by
    /// lightweight inference, through the backend's `migrateStore`) and opens it at `destination`.
    @discardableResult
    func migrate(to destination: Schema) throws -> SchemaMigration {
        let migration = try SchemaMigration.lightweight(from: schema, to: destination)
        guard let migrateAt else { throw CaseFailure(message: "The harness has no migration hook.") }
        current = nil
        try migrateAt(directory, migration)
        current = try openAt(directory, destination)
        return migration
    }

    /// Runs `rewrite` as a whole staged path from the fixture schema to `destination` in the
    /// backend's atomic step (`stagedMigrateAt`) and opens the result; after an error the store
    /// is opened again at the fixture schema and the error rethrown.
    func migrateStaged(to destination: Schema, rewrite: (StoreState) throws -> StoreState) throws {
        guard let stagedMigrateAt else { throw CaseFailure(message: "The backend does not take a whole staged path (StateMigratable).") }
        current = nil
        do {
            try stagedMigrateAt(directory, schema, destination, rewrite)
        } catch {
            current = try openAt(directory, schema)
            throw error
        }
        current = try openAt(directory, destination)
    }

    /// The schema recorded at the store's location.
    func recordedSchema() throws -> RecordedSchema? {
        guard let recordedAt else { throw CaseFailure(message: "The harness has no recorded-schema hook.") }
        return try recordedAt(directory)
    }

    // MARK: Readable names

    /// Readable names of the records this case made, by temporary and permanent identifier, so a
    /// failure message says `Library "Central"` rather than only `p1`.
    /// Behind a lock: concurrency cases build records on several threads at once.
    private let names = Mutex<[PersistentIdentifier: String]>([:])

    /// `Entity "first text value"` of a record (its first string attribute: name, title, label…).
    static func readable(_ record: SuiteRecord) -> String {
        let text = zip(record.entity.attributes, record.attributes).first { $0.0.type == .string && !$0.1.isNull }.map { "\($0.1)" }
        let value = text ?? record.attributes.first.map { "\($0)" } ?? ""
        return "\(record.entity.name) \(value)"
    }

    /// A readable name for an identifier: the record's entity and first text value, then the id.
    func name(_ id: PersistentIdentifier?) -> String {
        guard let id else { return "nil" }
        if let known = names.withLock({ $0[id] }) { return "\(known) (\(id.isTemporary ? "new" : "p\(id.primaryKey)"))" }
        if !id.isTemporary, id.storeIdentifier == store.identifier, let record = try? find(id) {
            return "\(Self.readable(record)) (p\(id.primaryKey))"
        }
        return "\(id)"
    }

    /// Readable names of several identifiers.
    func names(_ ids: [PersistentIdentifier]) -> String { "[" + ids.map { name($0) }.joined(separator: ", ") + "]" }

    // MARK: Building and saving

    func entity(_ name: String) -> EntitySchema { schema.entity(named: name)! }

    /// A record to insert: temporary identifier, defaults, and the given values.
    func new(_ entityName: String, _ values: [String: Value] = [:], _ links: [String: RelationshipValue] = [:]) -> SuiteRecord {
        let entity = entity(entityName)
        var record = SuiteRecord(
            id: .temporary(entity: entityName), entity: entity,
            attributes: entity.attributes.map { $0.defaultValue ?? .null },
            relationships: entity.relationships.map(RelationshipValue.empty(for:)))
        for (name, value) in values {
            precondition(entity.attributeIndex(name) != nil, "fixture has no \(entityName).\(name)")
            record[name] = value
        }
        for (name, link) in links {
            record.relationships[entity.relationshipIndex(name)!] = link
        }
        let readable = Self.readable(record)
        names.withLock { $0[record.id] = readable }
        return record
    }

    @discardableResult
    func save(inserted: [SuiteRecord] = [], updated: [SuiteRecord] = [], deleted: [SuiteRecord] = [], properties: [PersistentIdentifier: UpdatedProperties] = [:]) throws -> SuiteSaveResult {
        try store.save(inserted: inserted, updated: updated, deleted: deleted, updatedProperties: properties)
    }

    /// Updates `record`, writing only the named properties (`expecting`: with the conflict check
    /// against the values `seen` holds).
    @discardableResult
    func savePartial(_ record: SuiteRecord, _ names: [String], expecting seen: SuiteRecord? = nil) throws -> SuiteSaveResult {
        let entity = record.entity
        var scope = try UpdatedProperties(names, of: entity)
        if let seen {
            scope.expectedAttributes = scope.attributes.map { seen.attributes[$0] }
            scope.expectedRelationships = scope.relationships.map { seen.relationships[$0] }
        }
        return try save(updated: [record], properties: [record.id: scope])
    }

    /// Inserts in one save and returns the permanent identifiers in the same order.
    @discardableResult
    func insert(_ records: SuiteRecord...) throws -> [PersistentIdentifier] { try insert(records) }

    @discardableResult
    func insert(_ records: [SuiteRecord]) throws -> [PersistentIdentifier] {
        let result = try save(inserted: records)
        return try records.map { record in
            guard let id = result.remapped[record.id] else {
                throw CaseFailure(message: "The save result has no permanent identifier for inserted \(record.id).")
            }
            let readable = Self.readable(record)
            names.withLock { $0[id] = readable }
            return id
        }
    }

    /// Deletes records by identifier.
    @discardableResult
    func delete(_ ids: PersistentIdentifier...) throws -> SuiteSaveResult {
        try save(deleted: try ids.map { try get($0) })
    }

    // MARK: Reading

    func fetch(_ entity: String, _ predicate: FetchPredicate? = nil, sort: [SortKey] = [], limit: Int? = nil, offset: Int = 0) throws -> [SuiteRecord] {
        try store.fetch(FetchDescriptor(entity: entity, predicate: predicate, sortBy: sort, fetchLimit: limit, fetchOffset: offset))
    }

    func find(_ id: PersistentIdentifier) throws -> SuiteRecord? {
        try store.fetch(FetchDescriptor(entity: id.entityName, predicate: .identifierIn([id]))).first
    }

    func get(_ id: PersistentIdentifier) throws -> SuiteRecord {
        guard let record = try find(id) else { throw CaseFailure(message: "Expected \(id) to exist, but a fetch by identifier found nothing.") }
        return record
    }

    func count(_ entity: String, _ predicate: FetchPredicate? = nil) throws -> Int {
        try store.fetchCount(FetchDescriptor(entity: entity, predicate: predicate))
    }

    /// Every record of every entity, unordered relationships sorted: compare before and after.
    func everything() throws -> [SuiteRecord] {
        try schema.entities.flatMap { try fetch($0.name) }.map(\.normalized)
    }

    // MARK: Expectations

    func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CaseFailure(message: message()) }
    }

    func checkEqual<T: Equatable>(_ actual: T, _ expected: T, _ what: String) throws {
        if actual != expected { throw CaseFailure(message: "\(what): expected \(expected), got \(actual).") }
    }

    /// Compares identifiers, naming the records by their readable fields in the message.
    func checkEqual(_ actual: PersistentIdentifier?, _ expected: PersistentIdentifier?, _ what: String) throws {
        if actual != expected { throw CaseFailure(message: "\(what): expected \(name(expected)), got \(name(actual)).") }
    }

    /// Compares lists of identifiers, naming the records by their readable fields in the message.
    func checkEqual(_ actual: [PersistentIdentifier], _ expected: [PersistentIdentifier], _ what: String) throws {
        if actual != expected { throw CaseFailure(message: "\(what): expected \(names(expected)), got \(names(actual)).") }
    }

    /// Runs `body` and requires it to fail with `code`; returns the error for further checks.
    @discardableResult
    func expectError(_ code: StrataError.Code, _ what: String, _ body: () throws -> Void) throws -> StrataError {
        do {
            try body()
        } catch let error as StrataError {
            guard error.code == code else {
                throw CaseFailure(message: "\(what): expected a \(code.rawValue) error, got \(error.code.rawValue) naming \(names(error.identifiers)): \(error.message)")
            }
            return error
        } catch let failure as CaseFailure {
            throw failure
        } catch {
            throw CaseFailure(message: "\(what): expected a StrataError \(code.rawValue), got \(type(of: error)): \(error)")
        }
        throw CaseFailure(message: "\(what): expected a \(code.rawValue) error, but it succeeded.")
    }

    /// Requires a failed operation to have changed nothing, now and after reopen.
    func expectUnchanged(_ before: [SuiteRecord], _ what: String) throws {
        let now = try everything()
        try check(now == before, "\(what): the store changed after a failed save (\(diff(before, now))).")
        if store.capabilities.contains(.persistence) {
            try reopen()
            let reopened = try everything()
            try check(reopened == before, "\(what): after reopen the store differs from before the failed save (\(diff(before, reopened))).")
        }
    }

    private func diff(_ before: [SuiteRecord], _ after: [SuiteRecord]) -> String {
        let gone = before.filter { !after.contains($0) }
        let added = after.filter { !before.contains($0) }
        return "missing or changed: \(gone.prefix(3).map(\.description)); new or changed: \(added.prefix(3).map(\.description))"
    }
}
