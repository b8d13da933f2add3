import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
@testable import StrataJSON
@_spi(StrataEngine) import StrataFileSupport
import Testing

/// The streaming reader is a fast path: it must build exactly the state the value tree builds, and
/// leave every document it does not recognise (and every error) to the tree.
struct JSONDocumentReaderTests {
    /// The fixture with awkward values (escapes, NUL, Unicode, Int64 extremes, NaN, -0.0, dates,
    /// data), written by the store with every save folded into the document.
    static func document() throws -> [UInt8] {
        let dir = try JSONFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        do {
            let store = try JSONFileTests.open(file, threshold: 0)
            try FixtureDomain.writeSample(into: store)
            let sample = FixtureDomain.schema.entity(named: "Sample")!
            let odd: [[String: Value]] = [
                ["label": "escapes", "string": .string("quote \" backslash \\ slash / tab \t nul \u{0} bell \u{7} line\nend é 🎉"), "int": .int(.min)],
                ["label": "numbers", "double": .double(-0.0), "int": .int(.max), "date": .date(Date(timeIntervalSinceReferenceDate: 1.000_000_1))],
                ["label": "specials", "double": .double(.nan), "data": .data(Data([0, 1, 2, 255]))],
                ["label": "small", "double": .double(.leastNonzeroMagnitude), "url": .url(URL(string: "https://example.com/a?b=c")!)],
                ["label": "big", "double": .double(1.7976931348623157e308), "uuid": .uuid(UUID())],
                ["label": "infinite", "double": .double(-.infinity), "flag": .bool(false)],
            ]
            _ = try store.save(SaveRequest(inserted: try odd.map { try DefaultSnapshot.inserting(sample, values: $0) }))
        }
        return try DurableFile.read(file.path)!
    }

    static func content(_ bytes: [UInt8]) throws -> ArraySlice<UInt8> { try DocumentSeal.json.content(of: bytes, file: "store.json") }

    @Test func buildsTheSameStateAsTheValueTree() throws {
        let bytes = try Self.document()
        let schema = FixtureDomain.schema
        let fast = try #require(JSONDocumentReader.read(try Self.content(bytes), schema: schema), "the reader refused what the store wrote")
        let (tree, header) = try JSONDocumentFile.decodeTree(bytes, sealed: true, schema: schema, file: "store.json")
        #expect(fast.journalSequence == header.journalSequence)
        #expect(JSONDocumentFile.encode(fast.0, journalSequence: 0) == JSONDocumentFile.encode(tree, journalSequence: 0))
    }

    /// Another member order (a hand edit with its checksum recomputed) is not the fast path's: it
    /// declines, and the store still opens the document through the tree.
    @Test func declinesAnotherLayoutAndTheStoreStillOpensIt() throws {
        let bytes = try Self.document()
        var text = String(decoding: try Self.content(bytes), as: UTF8.self)
        text = text.replacingOccurrences(of: "{\"@id\":1,\"label\":\"edges\"", with: "{\"label\":\"edges\",\"@id\":1")
        #expect(text.contains("{\"label\":\"edges\",\"@id\":1"))
        let edited = DocumentSeal.json.seal(Array(text.utf8))
        #expect(JSONDocumentReader.read(try Self.content(edited), schema: FixtureDomain.schema) == nil)
        let (state, _) = try JSONDocumentFile.decode(edited, schema: FixtureDomain.schema, file: "store.json")
        #expect(state.count(FixtureDomain.schema.entity(named: "Sample")!) > 0)
    }

    /// What the tree refuses, the fast path never accepts: numbers outside JSON's grammar.
    @Test func refusesWhatTheTreeRefuses() throws {
        let bytes = try Self.document()
        let text = String(decoding: try Self.content(bytes), as: UTF8.self)
        let edited = DocumentSeal.json.seal(Array(text.replacingOccurrences(of: "\"double\":-0.0", with: "\"double\":-0.e1").utf8))
        #expect(edited != bytes)
        #expect(JSONDocumentReader.read(try Self.content(edited), schema: FixtureDomain.schema) == nil)
        let error = try #require(throws: StrataError.self) { try JSONDocumentFile.decode(edited, schema: FixtureDomain.schema, file: "store.json") }
        #expect(error.code == .corruptStore)
    }

    /// Both decoders share one escape table: every escape JSON defines decodes to the same string in
    /// each, and a `\u` with anything but four hex digits (a sign, which `UInt32(_:radix:)` would take)
    /// is refused by both.
    @Test func bothDecodersReadEscapesAlike() throws {
        let escaped = #"\" \\ \/ \b \f \n \r \t \u00e9 \u0041"#
        let tree = try JSONParser.parse(Array("[\"\(escaped)\"]".utf8))
        #expect(tree == .array([.string("\" \\ / \u{8} \u{C} \n \r \t é A")]))
        for bad in [#"\u+041"#, #"\u-041"#, #"\u00g1"#, #"\u12"#, #"\q"#] {
            #expect(throws: JSONSyntaxError.self, "the tree parser accepted \(bad)") { try JSONParser.parse(Array("[\"\(bad)\"]".utf8)) }
        }
        let bytes = try Self.document()
        let text = String(decoding: try Self.content(bytes), as: UTF8.self)
        #expect(text.contains("\"label\":\"edges\""))
        let plain = DocumentSeal.json.seal(Array(text.replacingOccurrences(of: "\"label\":\"edges\"", with: "\"label\":\"\(escaped)\"").utf8))
        let fast = try #require(JSONDocumentReader.read(try Self.content(plain), schema: FixtureDomain.schema))
        let (tree2, _) = try JSONDocumentFile.decodeTree(plain, sealed: true, schema: FixtureDomain.schema, file: "store.json")
        #expect(JSONDocumentFile.encode(fast.0, journalSequence: 0) == JSONDocumentFile.encode(tree2, journalSequence: 0))
        let signed = DocumentSeal.json.seal(Array(text.replacingOccurrences(of: "\"label\":\"edges\"", with: "\"label\":\"\\u+041\"").utf8))
        #expect(JSONDocumentReader.read(try Self.content(signed), schema: FixtureDomain.schema) == nil)
        let error = try #require(throws: StrataError.self) { try JSONDocumentFile.decode(signed, schema: FixtureDomain.schema, file: "store.json") }
        #expect(error.code == .corruptStore)
    }
}
