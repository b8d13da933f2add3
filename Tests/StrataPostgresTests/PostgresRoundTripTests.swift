import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Testing

/// What a save costs in round trips (`PostgresConnection.roundTrips`): writes whose answer the save
/// does not wait for (`queueWrite`: an UPDATE of columns no unique constraint covers, join-table
/// rows, list positions) go with the next statement or with COMMIT, so their number does not grow
/// the round trips; a failing queued write fails the statement it went with.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresRoundTripTests {
    let namespace = "roundtrips-\(UUID().uuidString)"
    static let schema = try! Schema {
        Entity("Folder") {
            Attribute("name", .string, unique: true)
            Relationship.toMany("notes", "Note", inverse: "folder", ordered: true)
        }
        Entity("Note") {
            Attribute("title", .string)
            Attribute("score", .double)
            Relationship.toOne("folder", "Folder", inverse: "notes")
            Relationship.toMany("tags", "Tag", inverse: "notes")
        }
        Entity("Tag") {
            Attribute("label", .string, unique: true)
            Relationship.toMany("notes", "Note", inverse: "tags")
        }
        Entity("Counter") {
            Attribute("name", .string, unique: true)
            Attribute("value", .int)
        }
    }

    func connection() throws -> PostgresConnection { try PostgresConnection(settings: PostgresConnectionSettings(url: PostgresTestServer.url!)) }

    @Test("queued writes go in the pipeline of the next statement: one round trip, seen by it; a failing one fails it")
    func queuedWrites() throws {
        let connection = try connection()
        try connection.execute("CREATE TEMP TABLE w (k bigint PRIMARY KEY, v bigint NOT NULL)")
        try connection.query("INSERT INTO w VALUES ($1, $2)", [.integer(1), .integer(10)])
        try connection.execute("BEGIN")
        let update = try connection.prepare("UPDATE w SET v = $1 WHERE k = $2")
        try update.run([.integer(10), .integer(1)])  // prepared on the server once, as a save's statements are
        let count = try connection.query("SELECT v FROM w WHERE k = $1", [.integer(1)])
        #expect(count.integer(0, 0) == 10)
        let before = connection.roundTrips
        for n in 0..<300 {
            try update.bind([.integer(Int64(100 + n)), .integer(1)])
            try connection.queueWrite(update)
        }
        #expect(connection.roundTrips == before, "nothing sent while queued")
        #expect(try connection.query("SELECT v FROM w WHERE k = $1", [.integer(1)]).integer(0, 0) == 399)
        #expect(connection.roundTrips == before + 1, "300 writes and the read in one round trip")
        try connection.commit()

        // A queued write the server refuses fails the statement it went with; the save rolls back.
        try connection.execute("BEGIN")
        try update.bind([.null, .integer(1)])
        try connection.queueWrite(update)
        #expect { try connection.query("SELECT v FROM w WHERE k = $1", [.integer(1)]) } throws: { ($0 as? PostgresError)?.sqlstate == "23502" }
        try connection.rollback()
        #expect(try connection.query("SELECT v FROM w WHERE k = $1", [.integer(1)]).integer(0, 0) == 399)
    }

    func writerRoundTrips(_ store: PostgresStore) -> Int { store.writer.withLock { $0.connection?.roundTrips ?? 0 } }

    /// The round trips of `save` on the store's writer (its statements prepared by a first run).
    func roundTrips(_ store: PostgresStore, _ save: () throws -> Void) rethrows -> Int {
        let before = writerRoundTrips(store)
        try save()
        return writerRoundTrips(store) - before
    }

    @Test("a one-record update of an attribute no unique constraint covers: BEGIN with the row, the write with COMMIT")
    func updateOne() throws {
        let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let counter = try DefaultSnapshot.inserting(Self.schema.entity(named: "Counter")!, values: ["name": .string("a"), "value": .int(1)])
        let id = try #require(try store.save(SaveRequest(inserted: [counter])).remappedIdentifiers[counter.persistentIdentifier])
        var stored = try #require(try store.snapshot(for: id))
        var trips: [Int] = []
        for value in 2...3 {  // the first prepares the statements
            stored = try stored.updating(["value": .int(Int64(value))])
            trips.append(try roundTrips(store) { _ = try store.save(SaveRequest(updated: [stored])) })
        }
        #expect(trips[1] == 2, "BEGIN, the lock, the schema guard and the row; UPDATE, NOTIFY and COMMIT")
        #expect(try store.snapshot(for: id)?.value("value") == .int(3))
    }

    @Test("join-table rows and list positions do not cost a round trip each")
    func linksInFewRoundTrips() throws {
        let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let folderEntity = Self.schema.entity(named: "Folder")!, noteEntity = Self.schema.entity(named: "Note")!, tagEntity = Self.schema.entity(named: "Tag")!
        /// One save: a folder listing `count` new notes in reverse order (positions), each note
        /// tagged with three new tags (join-table rows); its round trips.
        func save(_ round: Int, notes count: Int) throws -> Int {
            let notes = try (0..<count).map { try DefaultSnapshot.inserting(noteEntity, values: ["title": .string("n\(round)-\($0)"), "score": .double(0)]) }
            let tags = try (0..<3).map { try DefaultSnapshot.inserting(tagEntity, values: ["label": .string("t\(round)-\($0)")]) }
            let listed = notes.reversed().map(\.persistentIdentifier)
            let folder = try DefaultSnapshot.inserting(folderEntity, values: ["name": .string("f\(round)")], relationships: ["notes": .toMany(listed)])
            let tagged = try notes.map { try $0.updating(relationships: ["tags": .toMany(tags.map(\.persistentIdentifier))]) }
            var remap: IdentifierRemapping = [:]
            let trips = try roundTrips(store) { remap = try store.save(SaveRequest(inserted: tags + [folder] + tagged)).remappedIdentifiers }
            let stored = try #require(try store.snapshot(for: remap[folder.persistentIdentifier]!))
            #expect(stored.relationshipValues[0].targets == listed.map { remap[$0]! }, "the list in the order sent")
            for tag in tags { #expect(try store.snapshot(for: remap[tag.persistentIdentifier]!)?.relationshipValues[0].targets.count == count) }
            return trips
        }
        _ = try save(0, notes: 10)  // prepares the statements
        let few = try save(1, notes: 50), many = try save(2, notes: 250)
        // 200 more notes are 200 more list positions and 600 more join-table rows, which ride in
        // the pipelines the save sends anyway (before: 1,400 more round trips at least, one per
        // row and per position). What still grows is reading back each note the save touched
        // from the folder's side: its row, its tag list and its folder column, 600 round trips.
        #expect(many - few <= 3 * 200 + 4, "\(few) round trips for 50 notes, \(many) for 250")
    }
}
