import Foundation
import GRDB
import StrataConformance

/// What the GRDB side needs of an item record, so that one workload runs both record styles
/// (`HandWrittenItem` and `CodableItem`): the workload's values and the two mutable fields.
protocol PeerItem: FetchableRecord, MutablePersistableRecord {
    var id: Int64? { get }
    var price: Double { get set }
    var category: Int { get }
    init(index: Int, owner: Int64)
}

/// What the GRDB side needs of an owner record.
protocol PeerOwner: FetchableRecord, MutablePersistableRecord {
    var id: Int64? { get }
    init(name: String)
}

/// The standard workload (docs/workload.md) through GRDB 7's record protocols and query interface,
/// as GRDB's documentation recommends writing it:
/// - one `DatabaseQueue` (the single-connection writer for a single-threaded program), WAL,
///   `synchronous = FULL` (the durability Strata's SQLite backend and the C baseline run at),
///   foreign keys on (GRDB's default), the cascade done by SQLite's `ON DELETE CASCADE`;
/// - hand-written records as GRDB's own "optimized record" benchmarks write them (positional
///   `init(row:)` over an explicit `databaseSelection`);
/// - every step that writes in one `write { }` transaction, every read step in one `read { }`;
/// - `insert`/`update(columns:)`/`deleteAll(keys:)` use GRDB's internal statement cache
///   (`internalCachedStatement` in GRDB/Record/MutablePersistableRecord+DAO.swift);
///   fetch-by-id uses `db.cachedStatement(sql:)`, the prepared statement GRDB's "Prepared
///   Statements" guide recommends for a query run many times (the query interface's
///   `fetchOne(db, key:)` compiles its SQL on every call);
/// - dates as `timeIntervalSinceReferenceDate` doubles, as Strata and the C baseline store them
///   (GRDB's default is ISO-8601 text, slower to write and read).
/// The tables are the backend's (`docs/formats/sqlite.md`) without the `__bits` companion columns
/// that only Strata needs (they keep NaN and −0 exact): the same names, keys, unique and category
/// indexes, foreign key and cascade.
enum GRDBWorkload {
    static func run<Owner: PeerOwner, Item: PeerItem>(_ owner: Owner.Type, _ item: Item.Type, records: Int, bracket: StandardWorkload.StepBracket?) throws -> [String: WorkloadReport.Figure] {
        func time<T>(_ step: String, _ body: () throws -> T) throws -> (T, Double) { try WorkloadTiming.time(step, bracket, body) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-peers-grdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("grdb.sqlite").path
        var configuration = Configuration()
        configuration.journalMode = .wal
        // GRDB sets `synchronous = NORMAL` when it turns WAL on, after `prepareDatabase`; FULL is set
        // on the open connection instead, and checked, so every save syncs as Strata's and C's do.
        func open() throws -> DatabaseQueue {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                guard try Int.fetchOne(db, sql: "PRAGMA synchronous") == 2, try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else {
                    throw WorkloadError("GRDB's connection is not at journal_mode = WAL, synchronous = FULL")
                }
            }
            return queue
        }
        var figures: [String: WorkloadReport.Figure] = [:]
        func record(_ step: String, _ value: Double, _ unit: String) { figures[step] = .init(value: value, unit: unit) }

        var queue: DatabaseQueue? = try open()
        try queue!.write { db in
            try db.create(table: "Owner") { t in
                t.autoIncrementedPrimaryKey("_pk")
                t.column("name", .text)
            }
            try db.create(table: "Item") { t in
                t.autoIncrementedPrimaryKey("_pk")
                t.column("name", .text).unique()
                t.column("category", .integer).indexed()
                t.column("price", .double)
                t.column("createdAt", .double)
                t.column("note", .text)
                t.column("owner", .integer).indexed().references("Owner", onDelete: .cascade, deferred: true)
            }
        }

        // 1. insert
        var ownerIDs: [Int64] = [], itemIDs: [Int64] = []
        var seconds: Double
        (_, seconds) = try time("insert") {
            try queue!.write { db in
                for o in 0..<records / 100 {
                    var owner = Owner(name: "owner-\(o)")
                    try owner.insert(db)
                    ownerIDs.append(owner.id!)
                    for i in o * 100..<(o + 1) * 100 {
                        var item = Item(index: i, owner: owner.id!)
                        try item.insert(db)
                        itemIDs.append(item.id!)
                    }
                }
            }
        }
        record("insert", Double(records / 100 + records) / seconds, "records/s")

        // 2. reopen
        queue = nil
        (queue, seconds) = try time("reopen") {
            let reopened = try open()
            _ = try reopened.read { db in try Owner.fetchCount(db) }
            return reopened
        }
        record("reopen", seconds * 1000, "ms")
        let q = queue!

        // 3. fetch-by-id: the store-level workload's probes.
        var rng = SeededGenerator(state: 42)
        let probes = (0..<10_000).map { _ in itemIDs[Int(rng.next() % UInt64(records))] }
        (_, seconds) = try time("fetch-by-id") {
            try q.read { db in
                let statement = try db.cachedStatement(sql: "SELECT \"_pk\", \"name\", \"category\", \"price\", \"createdAt\", \"note\", \"owner\" FROM \"Item\" WHERE \"_pk\" = ?")
                for id in probes {
                    guard try Item.fetchOne(statement, arguments: [id]) != nil else { throw WorkloadError("item \(id) not found") }
                }
            }
        }
        record("fetch-by-id", Double(probes.count) / seconds, "lookups/s")

        // 4. scan
        var scanned: [Item] = []
        (scanned, seconds) = try time("scan") { try q.read { db in try Item.fetchAll(db) } }
        guard scanned.count == records else { throw WorkloadError("scan returned \(scanned.count) items, expected \(records)") }
        record("scan", Double(records) / seconds, "records/s")

        // 5. filter
        var hits: [Item] = []
        (hits, seconds) = try time("filter") {
            try q.read { db in try Item.filter(Column("category") == 42).order(Column("price").desc, Column("_pk")).fetchAll(db) }
        }
        guard hits.count == records / 100, hits.allSatisfy({ $0.category == 42 }) else { throw WorkloadError("filter returned \(hits.count) items") }
        record("filter", seconds * 1000, "ms")

        // 6. update-one
        var durations: [Double] = []
        for round in 0..<100 {
            let index = Int(rng.next() % UInt64(records))
            durations.append(try time("update-one") {
                try q.write { db in
                    scanned[index].price = Double(round) + 0.5
                    try scanned[index].update(db, columns: ["price"])
                }
            }.1 * 1000)
        }
        record("update-one", WorkloadTiming.median(durations), "ms (median)")

        // 7. update-batch
        (_, seconds) = try time("update-batch") {
            try q.write { db in
                for i in stride(from: 0, to: records, by: 10) {
                    scanned[i].price = -Double(i)
                    try scanned[i].update(db, columns: ["price"])
                }
            }
        }
        record("update-batch", Double(records / 10) / seconds, "records/s")

        // 8. unique-violation
        (_, seconds) = try time("unique-violation") {
            do {
                try q.write { db in
                    var duplicate = Item(index: 7, owner: ownerIDs[0])
                    try duplicate.insert(db)
                }
                throw WorkloadError("inserting a duplicate name succeeded")
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {}
        }
        record("unique-violation", seconds * 1000, "ms")
        guard try q.read({ db in try Item.fetchCount(db) }) == records else { throw WorkloadError("the failed insert changed the item count") }

        // 9. cascade-delete
        (_, seconds) = try time("cascade-delete") {
            _ = try q.write { db in try Owner.deleteAll(db, keys: ownerIDs.prefix(10)) }
        }
        record("cascade-delete", seconds * 1000, "ms")
        let left = try q.read { db in try Item.fetchCount(db) }
        guard left == records - 1_000 else { throw WorkloadError("after deleting 10 owners \(left) items remain") }
        try q.close()
        record("size", Double(StandardWorkloadSize.bytes(directory)), "bytes")
        return figures
    }
}

/// The date every item's `createdAt` counts from, in `timeIntervalSinceReferenceDate`.
private let epochSinceReferenceDate = WorkloadSchema.epoch.timeIntervalSinceReferenceDate

/// Item *i*'s name: `item-` and *i* in 11 zero-padded digits.
func workloadItemName(_ index: Int) -> String {
    let digits = String(index)
    return "item-" + String(repeating: "0", count: max(0, 11 - digits.count)) + digits
}

/// An owner written as GRDB's guide writes a record by hand: `init(row:)` by column index,
/// `encode(to:)` into the persistence container, the row id back from `didInsert`.
struct HandWrittenOwner: PeerOwner {
    static let databaseTableName = "Owner"
    static var databaseSelection: [any SQLSelectable] { [Column("_pk"), Column("name")] }
    var id: Int64?
    var name: String
    init(name: String) { self.name = name }
    init(row: Row) throws {
        id = row[0]
        name = row[1]
    }
    func encode(to container: inout PersistenceContainer) throws {
        container["_pk"] = id
        container["name"] = name
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An item written by hand (see `HandWrittenOwner`).
struct HandWrittenItem: PeerItem {
    static let databaseTableName = "Item"
    /// The columns in the order `init(row:)` reads them (GRDB's own "optimized record" benchmark,
    /// Tests/Performance/GRDBPerformance/FetchRecordOptimizedTests.swift, does the same).
    static var databaseSelection: [any SQLSelectable] { [Column("_pk"), Column("name"), Column("category"), Column("price"), Column("createdAt"), Column("note"), Column("owner")] }
    var id: Int64?
    var name: String
    var category: Int
    var price: Double
    var createdAt: Date
    var note: String?
    var owner: Int64

    init(index: Int, owner: Int64) {
        name = workloadItemName(index)
        category = index % 100
        price = Double(index) * 0.25
        createdAt = Date(timeIntervalSinceReferenceDate: epochSinceReferenceDate + Double(index))
        note = index % 2 == 1 ? nil : WorkloadSchema.note
        self.owner = owner
    }
    init(row: Row) throws {
        id = row[0]
        name = row[1]
        category = row[2]
        price = row[3]
        createdAt = Date(timeIntervalSinceReferenceDate: row[4])
        note = row[5]
        owner = row[6]
    }
    func encode(to container: inout PersistenceContainer) throws {
        container["_pk"] = id
        container["name"] = name
        container["category"] = category
        container["price"] = price
        container["createdAt"] = createdAt.timeIntervalSinceReferenceDate
        container["note"] = note
        container["owner"] = owner
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An owner as a Codable record: GRDB derives `init(row:)` and `encode(to:)` from `Codable`.
struct CodableOwner: PeerOwner, Codable {
    static let databaseTableName = "Owner"
    enum CodingKeys: String, CodingKey {
        case id = "_pk"
        case name
    }
    var id: Int64?
    var name: String
    init(name: String) { self.name = name }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// An item as a Codable record, dates as reference-date doubles (GRDB's date strategies).
struct CodableItem: PeerItem, Codable {
    static let databaseTableName = "Item"
    enum CodingKeys: String, CodingKey {
        case id = "_pk"
        case name, category, price, createdAt, note, owner
    }
    var id: Int64?
    var name: String
    var category: Int
    var price: Double
    var createdAt: Date
    var note: String?
    var owner: Int64

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }

    init(index: Int, owner: Int64) {
        let written = HandWrittenItem(index: index, owner: owner)
        (name, category, price, createdAt, note, self.owner) = (written.name, written.category, written.price, written.createdAt, written.note, owner)
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
