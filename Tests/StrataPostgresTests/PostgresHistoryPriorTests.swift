import Foundation
@_spi(StrataEngine) import Strata
@testable import StrataPostgres
import StrataSQLSupport
import Testing

/// The old values a one-record update's history row keeps (`strata_history.prior`, a `bytea[]` in
/// PostgreSQL's binary array form) read back, and damaged ones refused: no server needed.
struct PostgresHistoryPriorTests {
    /// `array_send`'s form of a one-dimensional `bytea[]` holding `elements` (nil: NULL).
    static func array(_ elements: [[UInt8]?]) -> Data {
        var bytes: [UInt8] = []
        func int32(_ v: Int32) { withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) } }
        int32(elements.isEmpty ? 0 : 1)
        int32(elements.contains { $0 == nil } ? 1 : 0)
        int32(17)  // bytea
        if !elements.isEmpty {
            int32(Int32(elements.count))
            int32(1)
        }
        for element in elements {
            guard let element else { int32(-1); continue }
            int32(Int32(element.count))
            bytes.append(contentsOf: element)
        }
        return Data(bytes)
    }

    static func bigEndian(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }

    @Test("each type read as its placeholder's: integers, IEEE bits (NaN payload, -0), bytes, NULL")
    func readsEveryType() throws {
        let nan = Double(bitPattern: 0x7ff8_0000_0000_0042)
        let uuid = UUID()
        let elements: [[UInt8]?] = [
            Self.bigEndian(UInt64(bitPattern: -5)), Self.bigEndian(1), Self.bigEndian(nan.bitPattern), Self.bigEndian((-0.0).bitPattern),
            Self.bigEndian((-1.25).bitPattern), Array("é\u{0}".utf8), Array("https://a.example/b".utf8), [1, 2], withUnsafeBytes(of: uuid.uuid) { Array($0) }, nil,
        ]
        let placeholders: [Value] = [.int(0), .bool(false), .double(0), .double(0), .date(Date(timeIntervalSinceReferenceDate: 0)), .string(""), .url(URL(string: "x:")!), .data(Data()), .uuid(UUID()), .int(0)]
        let read = try PostgresHistory.priorElements(Self.array(elements), store: "s")
        #expect(read.count == elements.count)
        let values = try zip(read, placeholders).map { try PostgresHistory.priorValue($0, like: $1, store: "s") }
        #expect(values == [
            .int(-5), .bool(true), .double(nan), .double(-0.0), .date(Date(timeIntervalSinceReferenceDate: -1.25)), .string("é\u{0}"),
            .url(URL(string: "https://a.example/b")!), .data(Data([1, 2])), .uuid(uuid), .null,
        ])
        #expect(try PostgresHistory.priorElements(Self.array([]), store: "s").isEmpty)
    }

    @Test("a damaged array or value is corruptStore, never read as something else")
    func refusesDamage() throws {
        let whole = Self.array([Self.bigEndian(7), [1, 2, 3]])
        for cut in [0, 3, 11, 20, whole.count - 1] {
            #expect { try PostgresHistory.priorElements(whole.prefix(cut), store: "s") } throws: { ($0 as? StrataError)?.code == .corruptStore }
        }
        #expect { try PostgresHistory.priorValue(Data([1, 2, 3]), like: .int(0), store: "s") } throws: { ($0 as? StrataError)?.code == .corruptStore }
        #expect { try PostgresHistory.priorValue(Data([1]), like: .null, store: "s") } throws: { ($0 as? StrataError)?.code == .corruptStore }
        #expect { try PostgresHistory.priorValue(Data([1, 2]), like: .uuid(UUID()), store: "s") } throws: { ($0 as? StrataError)?.code == .corruptStore }
    }

    /// The transaction a one-record update sends (`recordingParameters`, encoded straight from the
    /// values) is byte for byte the one built as a `StoreHistoryTransaction` — every attribute
    /// listed, placeholders as old values, number 0 — also where a new value equals its
    /// placeholder (a zero, an empty string: still listed) or is NULL, and with the author or none.
    @Test("the one-record update's transaction, encoded from the values, is the transaction listing every attribute")
    func encodedFromTheValues() throws {
        let entity = try #require(PostgresRoundTripTests.everyType.entity(named: "Every"))
        let placeholders = entity.attributeTypes.map(PostgresStore.placeholder)
        let timestamp = Date(timeIntervalSince1970: 1_764_165_170.5)
        let values: [[Value]] = [
            [.bool(true), .int(-5), .double(-0.0), .string("é\u{0}\""), .date(timestamp), .data(Data([0, 255])), .uuid(UUID()), .url(URL(string: "https://a.example/b")!), .string("a")],
            placeholders,
            [.null, .int(0), .double(.nan), .string(""), .null, .data(Data()), .null, .null, .string("")],
        ]
        for (n, new) in values.enumerated() {
            for author in [nil, "desk"] as [String?] {
                let sent = HistoryRecorder.withEncodedUpdate(
                    storeIdentifier: "store", 0, author: author, timestamp: timestamp, entity, 42,
                    old: placeholders, new: new, listingEvery: true) { Array($0) }
                let attributes = entity.attributes.indices.map { HistoryAttributeChange(entity.attributes[$0].name, old: placeholders[$0], new: new[$0]) }
                let built = StoreHistoryTransaction(
                    token: StoreHistoryToken(storeIdentifier: "store", transaction: 0), author: author, timestamp: Date(timeIntervalSince1970: 1_764_165_170.5),
                    changes: [StoreHistoryChange(.update, PersistentIdentifier(storeIdentifier: "store", entityName: "Every", primaryKey: 42), attributes: attributes)])
                #expect(sent == (try built.encoded()), "values \(n), author \(author ?? "none")")
                let read = try StoreHistoryTransaction(decoding: sent, file: nil)
                #expect(read.changes.first?.attributes.count == entity.attributes.count)
                #expect(read.timestamp == Date(timeIntervalSince1970: 1_764_165_170.5), "whole milliseconds")
            }
        }
    }

    /// The values a one-record update writes, in the form the server compares with the row's old
    /// values (`PostgresHistory.writtenValues`): `array_send`'s bytes of the array the statement
    /// builds from the row, so each value reads back as itself through the old values' reader,
    /// NULL flag and IEEE bits (NaN payload, -0) included. (The statement's own array is the
    /// server's: `PostgresRoundTripTests` checks that an update writing the stored values records
    /// nothing.)
    @Test("the written values as the server keeps old values: array_send's layout, each value read back as itself")
    func writtenValuesReadBack() throws {
        let schema = PostgresRoundTripTests.everyType
        let entity = try #require(schema.entity(named: "Every"))
        let table = try SQLMapping(schema: schema, dialect: PostgresDialect.self).tables[entity.index]
        let placeholders = entity.attributeTypes.map(PostgresStore.placeholder)
        let rows: [[Value]] = [
            [.bool(true), .int(-5), .double(-0.0), .string("é\u{0}\""), .date(Date(timeIntervalSince1970: 1.5)), .data(Data([0, 255])), .uuid(UUID()), .url(URL(string: "https://a.example/b")!), .string("a")],
            [.null, .int(.min), .double(Double(bitPattern: 0x7ff8_0000_0000_0abc)), .string(""), .null, .data(Data()), .null, .null, .string("")],
            [.bool(false), .int(.max), .double(.infinity), .string("x"), .date(.distantFuture), .data(Data([1])), .uuid(UUID()), .url(URL(string: "x:")!), .string("b")],
        ]
        for (n, row) in rows.enumerated() {
            var parameters: [SQLValue] = []
            for (i, value) in row.enumerated() {
                let (main, bits) = SQLValueCodec.encode(value)
                parameters.append(main)
                if table.bitsColumns[i] != nil { parameters.append(bits) }
            }
            let written = PostgresHistory.writtenValues(parameters + [.integer(42)], of: table)
            let elements = try PostgresHistory.priorElements(written, store: "store")
            #expect(elements.count == row.count, "row \(n)")
            for (i, element) in elements.enumerated() {
                let read = try PostgresHistory.priorValue(element, like: placeholders[i], store: "store")
                #expect(read == row[i], "row \(n), \(entity.attributes[i].name): \(read) against \(row[i])")
            }
            #expect(written == Self.array(elements.map { $0.map { Array($0) } }), "row \(n): the layout")
        }
    }
}
