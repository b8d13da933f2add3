import Foundation
import Testing
@_spi(StrataEngine) @testable import Strata

/// The hand-written history encoder (`StoreHistoryTransaction+Encoding.swift`) writes the compact
/// stored form (version 2) and every reader reads it and the first form (version 1, what
/// `JSONEncoder` wrote before and `encode(to:)` still writes) into the same transaction, so every
/// stored transaction reads back, old or new.
struct HistoryEncodingTests {
    static func id(_ entity: String, _ key: Int64) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "s\"tore\\1", entityName: entity, primaryKey: key)
    }

    static let texts = ["", "plain", "quote \" backslash \\ slash /", "a\u{0}b\u{1}\u{1f}\n\r\t", "👩‍👩‍👧 é 中", "\u{7f}\u{80}"]
        // The writer copies eight plain bytes at a time: a special byte at every place of a word,
        // and the bytes beside the special ones (0x1F/0x20, 0x21/0x22/0x23, 0x5B/0x5C/0x5D).
        + (0..<17).flatMap { i in ["\"", "\\", "\u{1f}", "\u{0}"].map { String(repeating: "x", count: i) + $0 + String(repeating: "é", count: 17 - i) } }
        + [" !#[]~\u{7f} !#[]~\u{7f} !#[]~\u{7f}", "0123456789abcdef0123456789abcdef"]

    static var transactions: [StoreHistoryTransaction] {
        var values = ValueTests.edges
        values += texts.map(Value.string)
        values += [.double(1e16), .double(-1e-300), .double(123456.789), .double(.greatestFiniteMagnitude), .int(0), .int(-1), .bool(true),
                   .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -0.0)), .data(Data())]
        values += binaryFractions.map(Value.double)
        // Bigger than the writer's first buffer: it grows inside a string.
        values += [.string(String(repeating: "\"\u{1}é", count: 3000))]
        let update = StoreHistoryChange(
            .update, id("Trip", 7), isStoreInitiated: true,
            attributes: values.enumerated().map { HistoryAttributeChange("a\($0.offset)", old: $0.element, new: values[(values.count - 1 - $0.offset)]) },
            relationships: [
                HistoryRelationshipChange("one", old: .toOne(nil), new: .toOne(id("Person", .max))),
                HistoryRelationshipChange("many", old: .toMany([]), new: .toMany([id("Person", 1), id("Person", .min), id("P\u{0}\"", 0)])),
                HistoryRelationshipChange("back", old: .toOne(id("Person", 2)), new: .toOne(nil)),
                // Enough identifiers to grow the buffer while copying the shared head.
                HistoryRelationshipChange("crowd", old: .toMany((0..<2000).map { id("Person", $0) }), new: .toMany([])),
            ])
        let delete = StoreHistoryChange(
            .delete, id("Trip", 8), tombstone: Dictionary(uniqueKeysWithValues: values.enumerated().map { ("t\($0.offset) \"\\", $0.element) }))
        let insert = StoreHistoryChange(.insert, id("Trip", 1))
        return [
            StoreHistoryTransaction(token: StoreHistoryToken(storeIdentifier: "abc", transaction: 1), author: nil, timestamp: Date(timeIntervalSince1970: 0), changes: []),
            StoreHistoryTransaction(
                token: StoreHistoryToken(storeIdentifier: "s\"tore\\1", transaction: .max), author: "desk \"\n 👩‍👩‍👧",
                timestamp: Date(timeIntervalSince1970: 1_764_165_170.123), changes: [insert, update, delete]),
            StoreHistoryTransaction(
                token: StoreHistoryToken(storeIdentifier: "x", transaction: 42), author: "",
                timestamp: Date(timeIntervalSince1970: -12.5), changes: [insert, insert, delete]),
            HistoryRecorder(storeIdentifier: "r", requested: []).transaction(3, author: "now", timestamp: Date()),
            // Identifiers of another store and a temporary one (the compact form names the store
            // only when it is not the transaction's), every kind store-initiated.
            StoreHistoryTransaction(
                token: StoreHistoryToken(storeIdentifier: "other", transaction: 0), author: nil, timestamp: Date(timeIntervalSince1970: 1e12),
                changes: [
                    StoreHistoryChange(.insert, id("Trip", 1), isStoreInitiated: true),
                    StoreHistoryChange(
                        .update, PersistentIdentifier(storeIdentifier: "other", entityName: "Trip", primaryKey: -5), isStoreInitiated: true,
                        relationships: [
                            HistoryRelationshipChange("one", old: .toOne(.temporary(entity: "Person")), new: .toOne(id("Person", 3))),
                            HistoryRelationshipChange("many", old: .toMany([PersistentIdentifier(storeIdentifier: "", entityName: "P", primaryKey: 1)]), new: .toMany([id("P", 2)])),
                        ]),
                    StoreHistoryChange(.delete, PersistentIdentifier(storeIdentifier: "other", entityName: "Trip", primaryKey: 9), isStoreInitiated: true, tombstone: ["": .null]),
                    StoreHistoryChange(.delete, id("Trip", 10)),
                ]),
        ]
    }

    /// Doubles the writer prints itself, not with `description`: whole numbers below 2⁵³ and
    /// fractions in 1/1024ths; and their neighbours that it must leave to `description`.
    static let binaryFractions: [Double] = [
        0, 1, -1, 2.5, -0.25, 0.5, 1.0 / 1024, -1.0 / 1024, 3 + 1023.0 / 1024, 1.0 / 2048, 0.1, 1e-5, 123.125, 4_503_599_627_370_496.5,
        9_007_199_254_740_991, -9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_993.0, 1e300, 5e-324, .leastNormalMagnitude,
    ]

    /// Each reads back bit for bit through `JSONDecoder`, and a whole number or 1/1024th is written
    /// as its exact decimal.
    @Test("doubles written without description read back exactly")
    func binaryFractionsReadBackExactly() throws {
        for d in Self.binaryFractions + (0..<2048).map({ Double($0) / 1024 - 1 }) {
            let transaction = StoreHistoryTransaction(
                token: StoreHistoryToken(storeIdentifier: "s", transaction: 1), author: nil, timestamp: Date(timeIntervalSince1970: 0),
                changes: [StoreHistoryChange(.update, Self.id("Trip", 1), attributes: [HistoryAttributeChange("x", old: .double(d), new: .double(-d))])])
            let bytes = try transaction.encoded()
            let back = try StoreHistoryTransaction(decoding: bytes, file: nil)
            guard case .double(let old) = back.changes[0].attributes[0].old, case .double(let new) = back.changes[0].attributes[0].new else {
                Issue.record("not a double: \(back)")
                continue
            }
            #expect(old.bitPattern == d.bitPattern && new.bitPattern == (-d).bitPattern || (d == 0 && old == 0 && new == 0), "\(d)")
        }
        let text = String(decoding: try StoreHistoryTransaction(
            token: StoreHistoryToken(storeIdentifier: "s", transaction: 1), author: nil, timestamp: Date(timeIntervalSince1970: 0),
            changes: [StoreHistoryChange(.update, Self.id("T", 1), attributes: [HistoryAttributeChange("x", old: .double(-3 - 1.0 / 1024), new: .double(42))])]
        ).encoded(), as: UTF8.self)
        #expect(text.contains("[\"double\",-3.0009765625]") && text.contains("[\"double\",42.0]"), "\(text)")
    }

    @Test("every value kind and edge value reads back equal", arguments: 0..<5)
    func roundTrip(_ index: Int) throws {
        let transaction = Self.transactions[index]
        let bytes = try transaction.encoded()
        #expect(try StoreHistoryTransaction(decoding: bytes, file: nil) == transaction)
        var appended = Array("prefix".utf8)
        transaction.encode(into: &appended)
        #expect(appended == Array("prefix".utf8) + bytes)
    }

    /// The first form (version 1: `JSONEncoder`, which every store wrote before the compact form)
    /// of every edge transaction reads back equal.
    @Test("the first stored form (JSONEncoder's) reads back equal", arguments: 0..<5)
    func firstFormReads(_ index: Int) throws {
        let transaction = Self.transactions[index]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let first = try encoder.encode(transaction)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.contains("\"token\":{") && !text.contains("\"v\":2"), "not the first form")
        #expect(try StoreHistoryTransaction(decoding: first, file: nil) == transaction)
    }

    /// The compact form byte for byte, as docs/history.md shows it: the store once, an insert in
    /// a few tens of bytes, defaults left out.
    @Test("the compact form is as documented")
    func compactShape() throws {
        let s = "k3v9q0z1m2n4b5c"
        func id(_ entity: String, _ key: Int64) -> PersistentIdentifier { PersistentIdentifier(storeIdentifier: s, entityName: entity, primaryKey: key) }
        let insert = StoreHistoryTransaction(
            token: StoreHistoryToken(storeIdentifier: s, transaction: 12), author: nil, timestamp: Date(timeIntervalSince1970: 1_764_165_170.123),
            changes: [StoreHistoryChange(.insert, id("Item", 42)), StoreHistoryChange(.insert, id("Item", 43))])
        #expect(String(decoding: try insert.encoded(), as: UTF8.self)
            == #"{"v":2,"s":"k3v9q0z1m2n4b5c","n":12,"t":1764165170123,"c":[{"i":"Item","k":42},{"i":"Item","k":43}]}"#)
        let update = StoreHistoryTransaction(
            token: StoreHistoryToken(storeIdentifier: s, transaction: 13), author: "desk", timestamp: Date(timeIntervalSince1970: 1_764_165_170.5),
            changes: [
                StoreHistoryChange(
                    .update, id("Ticket", 3), attributes: [HistoryAttributeChange("score", old: .int(1), new: .double(2.5))],
                    relationships: [HistoryRelationshipChange("owner", old: .toOne(nil), new: .toOne(id("Person", 1))),
                                    HistoryRelationshipChange("tags", old: .toMany([]), new: .toMany([PersistentIdentifier(storeIdentifier: "x", entityName: "Tag", primaryKey: 2)]))]),
                StoreHistoryChange(.delete, id("Ticket", 4), isStoreInitiated: true, tombstone: ["title": .string("gone")]),
            ])
        #expect(String(decoding: try update.encoded(), as: UTF8.self)
            == #"{"v":2,"s":"k3v9q0z1m2n4b5c","n":13,"a":"desk","t":1764165170500,"c":[{"u":"Ticket","k":3,"a":[["score",["int",1],["double",2.5]]],"r":[["owner",null,{"e":"Person","k":1}],["tags",[],[{"e":"Tag","k":2,"s":"x"}]]]},{"d":"Ticket","k":4,"o":true,"x":{"title":["string","gone"]}}]}"#)
        #expect(try StoreHistoryTransaction(decoding: try update.encoded(), file: nil) == update)
    }

    /// The one-update path (`HistoryRecorder.withEncodedUpdate`, LMDB's update-one) writes the
    /// bytes the recorder writes for the same save, for edge values and entity names that need
    /// escaping, and `changesAttributes` agrees with the recorder on whether anything changed.
    @Test("one update encoded from its values is what the recorder writes")
    func oneUpdateWritesWhatTheRecorderWrites() throws {
        let schema = try Schema(entities: [
            Entity("T\"rip é") {
                Attribute("a\\", .string)
                Attribute("b", .double)
                Attribute("c", .int, optional: true)
                Attribute("d", .date)
            },
        ])
        let entity = try schema.requireEntity("T\"rip é")
        let at = Date(timeIntervalSince1970: 1_764_165_170.123_9)
        let values: [[Value]] = [
            [.string("x"), .double(1), .int(1), .date(Date(timeIntervalSinceReferenceDate: 0))],
            [.string("x\"\u{0}👩‍👩‍👧"), .double(-0.0), .null, .date(Date(timeIntervalSinceReferenceDate: -0.5))],
            [.string(String(repeating: "é\"", count: 400)), .double(.nan), .int(.min), .date(Date(timeIntervalSinceReferenceDate: 1e9))],
            [.string("x"), .double(1), .int(1), .date(Date(timeIntervalSinceReferenceDate: 0))],
        ]
        for old in values {
            for new in values {
                let id = PersistentIdentifier(storeIdentifier: "k3v9q0z1m2n4b5c", entityName: entity.name, primaryKey: 77)
                var recorder = HistoryRecorder(storeIdentifier: "k3v9q0z1m2n4b5c", requested: [id])
                recorder.updated(entity, 77, old: (old, []), new: (new, []))
                #expect(HistoryRecorder.changesAttributes(entity, old: old, new: new) == !recorder.isEmpty)
                guard !recorder.isEmpty else { continue }
                let expected = recorder.withEncodedTransaction(9, author: "desk", timestamp: at) { Array($0) }
                let direct = HistoryRecorder.withEncodedUpdate(storeIdentifier: "k3v9q0z1m2n4b5c", 9, author: "desk", timestamp: at, entity, 77, old: old, new: new) { Array($0) }
                #expect(direct == expected, "\(String(decoding: direct, as: UTF8.self))")
                let nobody = HistoryRecorder.withEncodedUpdate(storeIdentifier: "s", 1, author: nil, timestamp: at, entity, 1, old: old, new: new) { Array($0) }
                #expect(try StoreHistoryTransaction(decoding: nobody, file: nil).changes.first?.attributes.map(\.name) == recorder.transaction(1, author: nil).changes[0].attributes.map(\.name))
            }
        }
    }

    /// A compact form of a later version is refused, not misread.
    @Test("a later compact form is a clear error")
    func laterFormRefused() throws {
        let error = try #require(throws: StrataError.self) {
            try StoreHistoryTransaction(decoding: Array(#"{"v":3,"s":"a","n":1,"t":0,"c":[]}"#.utf8), file: "h")
        }
        #expect(error.code == .corruptStore && error.message.contains("newer"), "\(error)")
    }

    /// A transaction as a store wrote it with `JSONEncoder` (the encoder before this one), byte
    /// for byte: it must keep reading.
    @Test("a transaction written by the old encoder reads")
    func oldEncodingFixture() throws {
        let stored = #"{"token":{"storeIdentifier":"k3v9q0z1m2n4b5c","transaction":12},"author":"desk","timestamp":1764165170123,"changes":[{"kind":"insert","identifier":{"storeIdentifier":"k3v9q0z1m2n4b5c","entityName":"Ticket","primaryKey":5,"isTemporary":false},"isStoreInitiated":false,"attributes":[],"relationships":[],"tombstone":{}},{"kind":"update","identifier":{"storeIdentifier":"k3v9q0z1m2n4b5c","entityName":"Ticket","primaryKey":3,"isTemporary":false},"isStoreInitiated":false,"attributes":[{"name":"title","old":["string","Old \"one\""],"new":["string","New\n"]},{"name":"score","old":["double","bits:8000000000000000"],"new":["double",2.5]},{"name":"due","old":["null"],"new":["date",786000000.25]}],"relationships":[{"name":"owner","old":{"toOne":{}},"new":{"toOne":{"_0":{"storeIdentifier":"k3v9q0z1m2n4b5c","entityName":"Person","primaryKey":1,"isTemporary":false}}}}],"tombstone":{}},{"kind":"delete","identifier":{"storeIdentifier":"k3v9q0z1m2n4b5c","entityName":"Ticket","primaryKey":4,"isTemporary":false},"isStoreInitiated":true,"attributes":[],"relationships":[],"tombstone":{"title":["string","gone"],"open":["bool",true],"count":["int",-9223372036854775808]}}]}"#
        let s = "k3v9q0z1m2n4b5c"
        func id(_ entity: String, _ key: Int64) -> PersistentIdentifier { PersistentIdentifier(storeIdentifier: s, entityName: entity, primaryKey: key) }
        let expected = StoreHistoryTransaction(
            token: StoreHistoryToken(storeIdentifier: s, transaction: 12), author: "desk", timestamp: Date(timeIntervalSince1970: 1_764_165_170.123),
            changes: [
                StoreHistoryChange(.insert, id("Ticket", 5)),
                StoreHistoryChange(
                    .update, id("Ticket", 3),
                    attributes: [
                        HistoryAttributeChange("title", old: .string("Old \"one\""), new: .string("New\n")),
                        HistoryAttributeChange("score", old: .double(-0.0), new: .double(2.5)),
                        HistoryAttributeChange("due", old: .null, new: .date(Date(timeIntervalSinceReferenceDate: 786_000_000.25))),
                    ],
                    relationships: [HistoryRelationshipChange("owner", old: .toOne(nil), new: .toOne(id("Person", 1)))]),
                StoreHistoryChange(.delete, id("Ticket", 4), isStoreInitiated: true, tombstone: ["title": .string("gone"), "open": .bool(true), "count": .int(.min)]),
            ])
        let read = try StoreHistoryTransaction(decoding: Array(stored.utf8), file: nil)
        #expect(read == expected)
        // And it reads the same after being written again by the new encoder.
        #expect(try StoreHistoryTransaction(decoding: try read.encoded(), file: nil) == expected)
    }
}
