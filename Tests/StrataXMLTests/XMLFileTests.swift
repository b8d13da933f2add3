import Foundation
import Strata
import StrataConformance
import StrataTestSupport
import StrataXML
import Testing

/// The XML backend's files: valid against the schema in the repository, every value exact,
/// crash-safe, damage reported with libxml2's line and column.
struct XMLFileTests {
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func open(_ file: URL, wait: Duration? = .seconds(5), threshold: Int = 1 << 20, readOnly: Bool = false) throws -> XMLStore {
        try XMLStore(XMLStoreConfiguration(url: file, schema: FixtureDomain.schema, lockWait: wait, journalThreshold: threshold, isReadOnly: readOnly))
    }

    static func sample(_ values: [String: Value]) throws -> DefaultSnapshot {
        try DefaultSnapshot.inserting(FixtureDomain.schema.entity(named: "Sample")!, values: values)
    }

    /// The hard values: every one must come back bit for bit after the store is closed and reopened.
    static let hardValues: [[String: Value]] = [
        ["label": .string("nul \u{0}, bell \u{7}, esc \u{1B}, U+FFFE \u{FFFE}, U+FFFF \u{FFFF}"), "int": .int(.max), "double": .double(.nan), "date": .date(Date(timeIntervalSinceReferenceDate: 0.000_001))],
        ["label": .string("<a href=\"x\">&amp; ]]> 'q'</a>\r\n\tcr-lf-tab  "), "int": .int(.min), "double": .double(-.infinity), "data": .data(Data([0, 1, 2, 0xFF]))],
        ["label": .string("日本語 👩‍👩‍👧 é\u{301}"), "int": .int(0), "double": .double(-0.0), "string": .string(""), "date": .date(Date(timeIntervalSinceReferenceDate: -1e9 + 0.25))],
        ["label": .string("  leading and trailing  "), "double": .double(.infinity), "string": .string("\n"), "data": .data(Data()), "url": .url(URL(string: "https://example.com/a?b=c&d=é")!)],
        ["label": .string("tiny"), "double": .double(.leastNonzeroMagnitude), "flag": .bool(false), "uuid": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)],
    ]

    @Test(arguments: [0, 1 << 20])
    func everyHardValueRoundTripsThroughTheFiles(threshold: Int) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        do {
            let store = try Self.open(file, threshold: threshold)
            _ = try store.save(SaveRequest(inserted: try Self.hardValues.map(Self.sample)))
        }
        let read = try Self.open(file, readOnly: true).fetch(FetchDescriptor(entity: "Sample"))
        #expect(read.count == Self.hardValues.count)
        for (snapshot, expected) in zip(read.sorted { "\($0["label"])" < "\($1["label"])" }, Self.hardValues.sorted { "\($0["label"]!)" < "\($1["label"]!)" }) {
            for (name, value) in expected {
                let got = snapshot[name]
                if case .double(let a) = got, case .double(let b) = value {
                    #expect(a.bitPattern == b.bitPattern, "\(name): \(a) != \(b)")
                } else {
                    #expect(got == value, "\(name): \(got) != \(value)")
                }
            }
        }
        let text = try String(contentsOf: threshold == 0 ? file : URL(fileURLWithPath: file.path + ".journal"), encoding: .utf8)
        #expect(text.contains("encoding=\"base64\""), "the string XML cannot carry is written as base64")
        #expect(text.contains("日本語"), "Unicode is written as itself")
    }

    @Test func xmllintValidatesTheDocumentAndEveryJournalEntryAgainstTheSchema() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        let schema = BuiltProducts.root.appendingPathComponent("docs/formats/strata-xml.xsd").path
        do {
            let store = try Self.open(file)
            try FixtureDomain.writeSample(into: store)
            _ = try store.save(SaveRequest(inserted: try Self.hardValues.map(Self.sample)))
            let tags = try store.fetch(FetchDescriptor(entity: "Tag"))
            _ = try store.save(SaveRequest(deleted: [try #require(tags.first)]))
        }
        // The first line is the journal's header (`strata-journal <store>`), not XML.
        let entries = try String(contentsOf: URL(fileURLWithPath: file.path + ".journal"), encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(entries.count >= 3)
        for entry in entries {
            let lint = try ChildProcess.run(ChildProcess.onPath("xmllint"), ["--noout", "--schema", schema, "-"], input: Data(entry.dropFirst(17).utf8))
            #expect(lint.status == 0, "\(lint.errors)\n\(entry)")
        }
        do {
            let store = try Self.open(file, threshold: 0)  // the next save folds everything into the document
            _ = try store.save(SaveRequest(inserted: [try Self.sample(["label": .string("last")])]))
        }
        let lint = try ChildProcess.run(ChildProcess.onPath("xmllint"), ["--noout", "--schema", schema, file.path])
        #expect(lint.status == 0, "\(lint.errors)")
        #expect(lint.errors.contains("validates"))
        #expect(try String(contentsOf: file, encoding: .utf8).contains("<record id=\"1\"><value name=\"title\">Dune</value>"))
    }

    @Test func aTruncatedDocumentIsCorruptWithLibxml2sLineAndColumn() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        do { try FixtureDomain.writeSample(into: try Self.open(file, threshold: 0)) }
        let data = try Data(contentsOf: file)
        try data.prefix(data.count / 2).write(to: file)
        let error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .corruptStore)
        #expect(error.line != nil && error.column != nil, "\(error)")
        #expect(error.message.contains("libxml2") && error.message.contains("line \(error.line!)"), "\(error)")
        try Data().write(to: file)
        #expect(throws: StrataError.self) { try Self.open(file) }  // empty is damage too, never a new store
    }

    @Test func libxml2PrintsNothingOfItsOwn() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        do { try FixtureDomain.writeSample(into: try Self.open(file, threshold: 0)) }
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "</schema>", with: "</schema-broken>").write(to: file, atomically: true, encoding: .utf8)
        let dump = try ChildProcess.run(BuiltProducts.strata, ["dump", "--backend", "xml", "--path", dir.path])
        #expect(dump.status != 0)
        let errors = dump.errors
        #expect(errors.contains("corruptStore") && errors.contains("Opening and ending tag mismatch: schema"), "\(errors)")
        #expect(!errors.contains("parser error"), "libxml2 wrote to stderr itself: \(errors)")
    }

    @Test func aKilledWriterAlwaysLeavesTheOldOrTheNewState() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CrashWorkload.killBuiltWriter(backend: "xml", in: dir) {
            try CrashWorkload.check(try Self.open(dir.appendingPathComponent("store.xml")))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.count <= 1, "temporary files pile up: \(leftovers)")
    }

    @Test func aDamagedJournalLineIsCorruptWithItsOffsetAndATornTailIsASaveThatNeverHappened() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        do {
            let store = try Self.open(file)
            for name in ["a", "b", "c"] { _ = try store.save(SaveRequest(inserted: [try Self.sample(["label": .string(name)])])) }
        }
        let journal = URL(fileURLWithPath: file.path + ".journal")
        let original = [UInt8](try Data(contentsOf: journal))
        try Data(original.dropLast(7)).write(to: journal)
        #expect(try Self.open(file, readOnly: true).fetch(FetchDescriptor(entity: "Sample")).map { $0["label"] } == [.string("a"), .string("b")])
        var bytes = original
        let second = bytes.firstIndex(of: 0x0A)! + 1
        bytes[second + 40] ^= 0x01
        try Data(bytes).write(to: journal)
        let error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .corruptStore)
        #expect(error.offset == second)
    }
}
