import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Synchronization
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
        Entity("Deck") {
            Attribute("name", .string)
            Relationship.toMany("cards", "Card", inverse: "deck", ordered: true)
        }
        Entity("Card") {
            Attribute("code", .string, unique: true)
            Attribute("score", .double)
            Attribute("note", .string, optional: true)
            Relationship.toOne("deck", "Deck", inverse: "cards")
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

    @Test("a one-record update: BEGIN, the lock, the schema guard, the UPDATE, NOTIFY and COMMIT in one round trip")
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
        #expect(trips[1] == 1, "BEGIN, the lock, the schema guard, the UPDATE, NOTIFY and COMMIT")
        #expect(try store.snapshot(for: id)?.value("value") == .int(3))
        // A unique column written in the same one round trip (its value is the snapshot's).
        stored = try stored.updating(["name": .string("b")])
        #expect(try roundTrips(store) { _ = try store.save(SaveRequest(updated: [stored])) } == 1)
        #expect(try store.snapshot(for: id)?.value("name") == .string("b"))
    }

    /// The test's store of `schema` in its namespace, recording history.
    func recording() -> PostgresStoreConfiguration {
        var configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        configuration.recordsHistory = true
        return configuration
    }

    @Test("with history, a one-record update takes one round trip: the UPDATE, the number, the history row, NOTIFY and COMMIT")
    func updateOneWithHistory() throws {
        let configuration = recording()
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let (decks, cards) = try cards(store)
        var stored = try #require(try store.snapshot(for: cards[1]))
        var trips: [Int] = []
        for score in [5.0, 6.0] {  // the first prepares the statements
            stored = try stored.updating(["score": .double(score), "note": .string("n\(score)")])
            trips.append(try roundTrips(store) { _ = try store.save(SaveRequest(updated: [stored], author: "desk")) })
        }
        #expect(trips[1] == 1, "BEGIN, the lock, the UPDATE recording its transaction, NOTIFY and COMMIT")
        var history = try store.fetchHistory(HistoryQuery())
        #expect(history.map(\.token.transaction) == [1, 2, 3])
        let last = try #require(history.last)
        #expect(last.author == "desk")
        #expect(last.changes.count == 1 && last.changes[0].kind == .update && last.changes[0].identifier == cards[1] && !last.changes[0].isStoreInitiated)
        #expect(last.changes[0].attributes.sorted { $0.name < $1.name } == [
            HistoryAttributeChange("note", old: "n5.0", new: "n6.0"), HistoryAttributeChange("score", old: 5.0, new: 6.0),
        ])
        #expect(last.changes[0].relationships.isEmpty)
        // An update that changes nothing: one commit, no transaction.
        _ = try store.save(SaveRequest(updated: [stored]))
        #expect(try store.fetchHistory(HistoryQuery()).count == 3)
        // Refused by the server (a moved to-one): the shared way records it, numbered on.
        let moved = try stored.updating(["score": .double(7)], relationships: ["deck": .toOne(decks[1])])
        _ = try store.save(SaveRequest(updated: [moved]))
        history = try store.fetchHistory(HistoryQuery())
        #expect(history.map(\.token.transaction) == [1, 2, 3, 4])
        #expect(history[3].changes.contains { $0.identifier == cards[1] && $0.attributes == [HistoryAttributeChange("score", old: 6.0, new: 7.0)] })
        // A taken unique value: the save fails and records nothing; the next takes the next number.
        let taken = try #require(try store.snapshot(for: cards[2])).updating(["code": .string("c0")])
        #expect(throws: StrataError.self) { try store.save(SaveRequest(updated: [taken])) }
        let next = try #require(try store.snapshot(for: cards[2])).updating(["score": .double(8)])
        _ = try store.save(SaveRequest(updated: [next]))
        #expect(try store.fetchHistory(HistoryQuery()).map(\.token.transaction) == [1, 2, 3, 4, 5])
        #expect(try store.snapshot(for: cards[2])?.value("score") == .double(8))
    }

    static let everyType = try! Schema {
        Entity("Every") {
            Attribute("flag", .bool, optional: true)
            Attribute("count", .int, optional: true)
            Attribute("ratio", .double, optional: true)
            Attribute("text", .string, optional: true)
            Attribute("when", .date, optional: true)
            Attribute("bytes", .data, optional: true)
            Attribute("id", .uuid, optional: true)
            Attribute("link", .url, optional: true)
            Attribute("code", .string, unique: true)
        }
    }

    /// The transactions of `updates` (each a set of attribute values of one record, saved in turn)
    /// as `store` records them, the timestamps left out.
    func recorded(_ store: PostgresStore, _ updates: [[String: Value]], oneRoundTrip: Bool) throws -> (history: [StoreHistoryTransaction], trips: [Int]) {
        if !oneRoundTrip { store.afterWriteLock.withLock { $0 = {} } }  // the shared way
        let entity = Self.everyType.entity(named: "Every")!
        let inserted = try DefaultSnapshot.inserting(entity, values: ["code": .string("a")])
        let id = try #require(try store.save(SaveRequest(inserted: [inserted])).remappedIdentifiers[inserted.persistentIdentifier])
        var stored = try #require(try store.snapshot(for: id))
        var trips: [Int] = []
        for values in updates {
            stored = try stored.updating(values)
            trips.append(try roundTrips(store) { _ = try store.save(SaveRequest(updated: [stored], author: values.count > 1 ? "desk" : nil)) })
        }
        let history = try store.fetchHistory(HistoryQuery()).map {
            StoreHistoryTransaction(token: $0.token, author: $0.author, timestamp: Date(timeIntervalSince1970: 0), changes: $0.changes)
        }
        return (history, trips)
    }

    @Test("with history, a one-record update records exactly what the shared way records: every type, NaN, -0, NULL, no change")
    func updateOneWithHistoryRecordsAsTheSharedWay() throws {
        let nan = Double(bitPattern: 0x7ff8_0000_0000_0001)
        let updates: [[String: Value]] = [
            ["flag": .bool(true), "count": .int(.min), "ratio": .double(-0.0), "text": .string("é\u{0}\"\\"), "when": .date(Date(timeIntervalSinceReferenceDate: -1.25)),
             "bytes": .data(Data([0, 1, 255])), "id": .uuid(UUID()), "link": .url(URL(string: "https://example.com/a?b=c")!)],
            ["ratio": .double(0.0)],  // −0 → +0: a change by its bits
            ["ratio": .double(nan)],
            ["ratio": .double(nan)],  // the same NaN: no change, no transaction
            ["ratio": .double(.nan), "flag": .bool(false)],  // another NaN
            ["text": .string("e\u{301}")],  // canonically equal to é, other bytes: a change
            ["count": .int(.max), "text": .null, "when": .null, "bytes": .data(Data()), "id": .null, "link": .null, "flag": .null],
            ["code": .string("b"), "ratio": .double(.infinity)],
            [:],  // nothing changed
            ["count": .null, "ratio": .null, "text": .string(""), "bytes": .null],
        ]
        var results: [(history: [StoreHistoryTransaction], trips: [Int])] = []
        for oneRoundTrip in [true, false] {
            var configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.everyType, namespace: namespace + (oneRoundTrip ? "-one" : "-shared"))
            configuration.recordsHistory = true
            defer { try? PostgresStore.dropStore(configuration) }
            results.append(try recorded(try PostgresStore(configuration), updates, oneRoundTrip: oneRoundTrip))
        }
        let (one, shared) = (results[0], results[1])
        #expect(one.history.count == 1 + updates.count - 2, "the insert and every update but the two that changed nothing")
        #expect(one.history.map(\.token.transaction) == Array(1...Int64(one.history.count)))
        // Store identifiers differ (two stores): compare the changes, author and numbers.
        #expect(one.history.map(\.token.transaction) == shared.history.map(\.token.transaction))
        for (a, b) in zip(one.history, shared.history) {
            #expect(a.author == b.author)
            #expect(a.changes.map(\.kind) == b.changes.map(\.kind))
            #expect(a.changes.map(\.attributes) == b.changes.map(\.attributes), "transaction \(a.token.transaction)")
            #expect(a.changes.map(\.relationships) == b.changes.map(\.relationships))
            #expect(a.changes.map(\.isStoreInitiated) == b.changes.map(\.isStoreInitiated))
            #expect(a.changes.map(\.identifier.primaryKey) == b.changes.map(\.identifier.primaryKey))
        }
        // One round trip, two for the first save of each shape of NULLs (it prepares its statement).
        #expect(one.trips.contains(1), "\(one.trips)")
        #expect(one.trips.allSatisfy { $0 <= 2 }, "\(one.trips)")
        #expect(shared.trips.allSatisfy { $0 > 1 }, "the shared way: \(shared.trips)")
    }

    @Test("a store whose history table an earlier build made: the column and the sequence added, the format raised, the old rows read")
    func historyTableOfAnEarlierBuild() throws {
        var configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.everyType, namespace: namespace)
        configuration.recordsHistory = true
        defer { try? PostgresStore.dropStore(configuration) }
        let (before, _) = try recorded(try PostgresStore(configuration), [["count": .int(1)]], oneRoundTrip: false)
        // As an earlier build left it: no `prior` column, no sequence, the counter `history_last`
        // at the newest number, format 1.
        let connection = try connection()
        try PostgresCatalog.use(configuration.namespace, on: connection)
        #expect(try connection.query("SELECT \"value\" FROM strata_metadata WHERE \"key\" = 'format'").value(0, 0) == .text("\(PostgresCatalog.historyVersion)"))
        try connection.execute("ALTER TABLE strata_history DROP COLUMN prior; DROP SEQUENCE strata_history_token; UPDATE strata_metadata SET \"value\" = '1' WHERE \"key\" = 'format'")
        try connection.execute("INSERT INTO strata_metadata (\"key\", \"value\") VALUES ('history_last', '2')")
        let reader = try PostgresStore({ var c = configuration; c.recordsHistory = false; return c }())
        #expect(try reader.fetchHistory(HistoryQuery()).count == 2, "read without the column")
        let store = try PostgresStore(configuration)
        #expect(try connection.query("SELECT \"value\" FROM strata_metadata WHERE \"key\" = 'format'").value(0, 0) == .text("\(PostgresCatalog.historyVersion)"))
        let entity = Self.everyType.entity(named: "Every")!
        let stored = try #require(try store.fetch(FetchDescriptor(entity: entity.name)).first)
        #expect(try roundTrips(store) { _ = try store.save(SaveRequest(updated: [try stored.updating(["count": .int(2)])])) } <= 2)
        let history = try store.fetchHistory(HistoryQuery())
        #expect(history.map(\.token.transaction) == [1, 2, 3])
        #expect(history.prefix(2).map(\.changes) == before.map(\.changes))
        #expect(history[2].changes.map(\.attributes) == [[HistoryAttributeChange("count", old: 1, new: 2)]])
        // A damaged row is reported, not read as something else.
        try connection.execute("UPDATE strata_history SET prior = ARRAY[]::bytea[] WHERE token = 3")
        #expect { try store.fetchHistory(HistoryQuery()) } throws: { ($0 as? StrataError)?.code == .corruptStore }
    }

    /// The one-record update reads the old row in its statement's snapshot, without locking it
    /// first; the UPDATE writes only that version (`xmin`). Here another program (no store lock)
    /// changes the row and holds it while the save's statement waits for it, then commits: the
    /// UPDATE would follow the new version, so the statement refuses, the save goes the shared
    /// way, and the history records the value the save overwrote (5), not the snapshot's (2).
    @Test("with history, a row another program changed while the one-record update waited: recorded with the value it overwrote")
    func updateOneWithHistoryAfterAnotherProgramsWrite() throws {
        let configuration = recording()
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let (_, cards) = try cards(store)
        let second = try #require(try store.snapshot(for: cards[1])).updating(["score": .double(2)])
        #expect(try roundTrips(store) { _ = try store.save(SaveRequest(updated: [second])) } <= 2)  // prepares the statement
        let other = try connection(), monitor = try connection()
        try PostgresCatalog.use(namespace, on: other)
        try other.execute("BEGIN")
        try other.execute("UPDATE \"Card\" SET \"score\" = 5 WHERE \"_pk\" = \(cards[1].primaryKey)")
        let third = try second.updating(["score": .double(3)])
        let outcome = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do {
                _ = try store.save(SaveRequest(updated: [third]))
                outcome.withLock { $0 = "saved" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        // The save's statement is waiting for the row (an observed event, not a pause).
        while outcome.withLock({ $0 == nil }), try monitor.query("SELECT count(*) FROM pg_locks WHERE NOT granted").integer(0, 0) == 0 {}
        try other.execute("COMMIT")
        done.wait()
        #expect(outcome.withLock { $0 } == "saved")
        let last = try #require(try store.fetchHistory(HistoryQuery()).last)
        #expect(last.changes.map(\.attributes) == [[HistoryAttributeChange("score", old: 5.0, new: 3.0)]])
        #expect(try store.snapshot(for: cards[1])?.value("score") == .double(3))
    }

    /// A store of two decks, the first holding cards `c0`, `c1`, `c2` in that order.
    func cards(_ store: PostgresStore) throws -> (decks: [PersistentIdentifier], cards: [PersistentIdentifier]) {
        let deck = Self.schema.entity(named: "Deck")!, card = Self.schema.entity(named: "Card")!
        let decks = try (0..<2).map { try DefaultSnapshot.inserting(deck, values: ["name": .string("d\($0)")]) }
        let cards = try (0..<3).map {
            try DefaultSnapshot.inserting(card, values: ["code": .string("c\($0)"), "score": .double(Double($0))], relationships: ["deck": .toOne(decks[0].persistentIdentifier)])
        }
        let remap = try store.save(SaveRequest(inserted: decks + cards)).remappedIdentifiers
        return (decks.map { remap[$0.persistentIdentifier]! }, cards.map { remap[$0.persistentIdentifier]! })
    }

    @Test("a one-record update whose to-one is unchanged takes one round trip; NaN, -0 and nil keep their bits")
    func updateOneWithToOne() throws {
        let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let (_, cards) = try cards(store)
        var stored = try #require(try store.snapshot(for: cards[1]))
        for (n, score) in [1.5, -0.0, Double.nan, 2.5].enumerated() {
            stored = try stored.updating(["score": .double(score), "note": n % 2 == 0 ? .string("n\(n)") : .null])
            // The first save of each shape of NULLs prepares its statement (one more round trip).
            var trips: [Int] = []
            for _ in 0..<2 {
                var result: SaveResult<DefaultSnapshot>?
                trips.append(try roundTrips(store) { result = try store.save(SaveRequest(updated: [stored])) })
                #expect(result?.changedSnapshots.isEmpty == true)
            }
            #expect(trips[1] == 1, "score \(score)")
            let read = try #require(try store.snapshot(for: cards[1]))
            guard case .double(let back) = try read.value("score") else { Issue.record("score \(try read.value("score"))"); continue }
            #expect(back.bitPattern == score.bitPattern, "score \(score) read back as \(back)")
            #expect(try read.value("note") == (n % 2 == 0 ? .string("n\(n)") : .null))
        }
    }

    @Test("a one-record update the server refuses goes the shared way: a moved to-one, a taken unique value, a deleted record")
    func updateOneRefused() throws {
        let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: Self.schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let (decks, cards) = try cards(store)
        // The to-one moved: applied, both decks' lists follow, the result reports the decks.
        let moved = try #require(try store.snapshot(for: cards[1])).updating(relationships: ["deck": .toOne(decks[1])])
        let result = try store.save(SaveRequest(updated: [moved]))
        #expect(Set(decks).isSubset(of: result.changedSnapshots.keys), "\(result.changedSnapshots.keys)")
        #expect(try store.snapshot(for: decks[0])?.relationshipValues[0].targets == [cards[0], cards[2]])
        #expect(try store.snapshot(for: decks[1])?.relationshipValues[0].targets == [cards[1]])
        // Another card's code: the save fails as any save does, and changes nothing.
        let taken = try #require(try store.snapshot(for: cards[2])).updating(["code": .string("c0"), "score": .double(9)])
        let violation = try #require(throws: StrataError.self) { try store.save(SaveRequest(updated: [taken])) }
        #expect(violation.code == .uniqueConstraintViolation, "\(violation)")
        #expect(try store.snapshot(for: cards[2])?.value("score") == .double(2))
        // A record another store deleted: unknownIdentifier, nothing written.
        let stale = try #require(try store.snapshot(for: cards[0])).updating(["score": .double(7)])
        _ = try PostgresStore(configuration).save(SaveRequest(deleted: [try #require(try store.snapshot(for: cards[0]))]))
        let missing = try #require(throws: StrataError.self) { try store.save(SaveRequest(updated: [stale])) }
        #expect(missing.code == .unknownIdentifier, "\(missing)")
        #expect(try store.fetchCount(FetchDescriptor(entity: "Card")) == 2)
        // And the store goes on saving in one round trip.
        let next = try #require(try store.snapshot(for: cards[2])).updating(["score": .double(3)])
        #expect(try roundTrips(store) { _ = try store.save(SaveRequest(updated: [next])) } == 1)
        #expect(try store.snapshot(for: cards[2])?.value("score") == .double(3))
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

    @Test("a cascade delete takes the same round trips whatever the number of records it deletes")
    func cascadeDeleteInFewRoundTrips() throws {
        let schema = try Schema {
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship.toMany("boxes", "Box", inverse: "shelf", ordered: true, deleteRule: .cascade)
            }
            Entity("Box") {
                Attribute("label", .string, unique: true)
                Relationship.toOne("shelf", "Shelf", inverse: "boxes")
                Relationship.toMany("tags", "Sticker", inverse: "boxes")
            }
            Entity("Sticker") {
                Attribute("color", .string)
                Relationship.toMany("boxes", "Box", inverse: "tags")
            }
        }
        let configuration = PostgresStoreConfiguration(url: PostgresTestServer.url, schema: schema, namespace: namespace)
        defer { try? PostgresStore.dropStore(configuration) }
        let store = try PostgresStore(configuration)
        let shelf = schema.entity(named: "Shelf")!, box = schema.entity(named: "Box")!, sticker = schema.entity(named: "Sticker")!
        let stickers = try (0..<2).map { try DefaultSnapshot.inserting(sticker, values: ["color": .string("c\($0)")]) }
        let stickerRemap = try store.save(SaveRequest(inserted: stickers)).remappedIdentifiers
        let stickerIDs = stickers.map { stickerRemap[$0.persistentIdentifier]! }
        /// A shelf of `count` boxes, each carrying both stickers (join-table rows), deleted in one
        /// save; that save's round trips.
        func deleteShelf(_ round: Int, boxes count: Int) throws -> Int {
            let boxes: [DefaultSnapshot] = try (0..<count).map {
                try DefaultSnapshot.inserting(box, values: ["label": .string("b\(round)-\($0)")], relationships: ["tags": .toMany(stickerIDs)])
            }
            let made = try DefaultSnapshot.inserting(shelf, values: ["name": .string("s\(round)")], relationships: ["boxes": .toMany(boxes.map { $0.persistentIdentifier })])
            let remap = try store.save(SaveRequest(inserted: [made] + boxes)).remappedIdentifiers
            let stored = try #require(try store.snapshot(for: remap[made.persistentIdentifier]!))
            var result: SaveResult<DefaultSnapshot>?
            let trips = try roundTrips(store) { result = try store.save(SaveRequest(deleted: [stored])) }
            #expect(result?.deletedIdentifiers == Set([stored.persistentIdentifier] + boxes.map { remap[$0.persistentIdentifier]! }))
            #expect(Set(result?.changedSnapshots.keys.map { $0 } ?? []) == Set(stickerIDs), "the stickers lost their boxes")
            for id in stickerIDs { #expect(try store.snapshot(for: id)?.relationshipValues[0].targets.isEmpty == true) }
            #expect(try store.fetchCount(FetchDescriptor(entity: "Box")) == 0)
            return trips
        }
        _ = try deleteShelf(0, boxes: 5)  // prepares the statements
        let few = try deleteShelf(1, boxes: 10), many = try deleteShelf(2, boxes: 300)
        // Before the deletes went a set at a time, each box cost several round trips (its targets,
        // its existence, its rows): 290 more boxes were over 1,000 more.
        #expect(many == few, "\(few) round trips for 10 boxes, \(many) for 300")
    }
}
