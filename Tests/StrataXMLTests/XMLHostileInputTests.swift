import Foundation
import Strata
import StrataConformance
import StrataFileSupport
import StrataXML
import Testing

/// Hostile files are refused, not expanded: no DTD, no external entity, no entity bomb, no deep nesting.
///
/// Each hostile document is tried twice: as it is (its checksum does not match, and the parse that
/// says where the XML breaks must not fall for it either) and sealed with a correct checksum (FNV-1a
/// is no defence against an attacker, so the parser itself must refuse).
struct XMLHostileInputTests {
    /// A store whose document is `body` (a root start tag and content, without the checksum).
    static func store(_ body: String, sealed: Bool) throws -> (URL, URL) {
        let dir = try XMLFileTests.directory()
        let file = dir.appendingPathComponent("store.xml")
        do { _ = try XMLFileTests.open(file) }  // a real store, so the journal exists
        let content = Array(body.utf8)
        let bytes = sealed ? DocumentSeal(lead: "<checksum>", trail: "</checksum>\n</strata-store>\n").seal(content) : content + Array("</strata-store>\n".utf8)
        try Data(bytes).write(to: file)
        return (dir, file)
    }

    static let header = "<strata-store format=\"strata-xml\" version=\"1\" schemaFingerprint=\"\(FixtureDomain.schema.fingerprint)\" storeIdentifier=\"x\" journalSequence=\"0\">\n"

    /// Opens the store and returns the error, checking that it came fast (an expansion would take
    /// seconds and gigabytes; a refusal takes microseconds — the bound is generous for a loaded machine).
    static func refusal(_ file: URL) throws -> StrataError {
        let start = ContinuousClock.now
        let error = try #require(throws: StrataError.self) { try XMLFileTests.open(file) }
        #expect(ContinuousClock.now - start < .seconds(5), "took \(ContinuousClock.now - start): something was expanded")
        #expect(error.code == .corruptStore, "\(error)")
        return error
    }

    static let billionLaughs: String = {
        var dtd = "<?xml version=\"1.0\"?>\n<!DOCTYPE strata-store [\n<!ENTITY lol0 \"lol\">\n"
        for i in 1...10 { dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n" }
        return dtd + "]>\n" + header + "<schema><line>&lol10;</line></schema>\n"
    }()

    @Test(arguments: [false, true]) func anEntityBombIsRefusedAtItsDoctype(sealed: Bool) throws {
        let (dir, file) = try Self.store(Self.billionLaughs, sealed: sealed)
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try Self.refusal(file)
        #expect(error.message.contains("DOCTYPE"), "\(error)")
        #expect(error.line == 2, "\(error)")
    }

    @Test(arguments: [false, true]) func anExternalEntityIsNeverLoaded(sealed: Bool) throws {
        let body = "<?xml version=\"1.0\"?>\n<!DOCTYPE strata-store [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n" + Self.header
            + "<schema><line>&xxe;</line></schema>\n"
        let (dir, file) = try Self.store(body, sealed: sealed)
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try Self.refusal(file)
        #expect(error.message.contains("DOCTYPE") && !error.message.contains("root:"), "\(error)")
    }

    @Test(arguments: [false, true]) func anUndeclaredEntityIsAnError(sealed: Bool) throws {
        let (dir, file) = try Self.store(Self.header + "<schema><line>&secret;</line></schema>\n", sealed: sealed)
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try Self.refusal(file)
        #expect(error.message.contains("secret"), "\(error)")
        #expect(error.line == 2, "\(error)")
    }

    @Test(arguments: [false, true]) func deepNestingIsRefusedWithoutRecursion(sealed: Bool) throws {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        let (dir, file) = try Self.store(Self.header + "<schema></schema>\n<entity name=\"Tag\" nextKey=\"1\">" + deep + "</entity>\n", sealed: sealed)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.refusal(file)
    }

    @Test func aJournalEntryWithADoctypeIsRefused() throws {
        let dir = try XMLFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        do { _ = try XMLFileTests.open(file) }
        let entry = "<!DOCTYPE save [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><save seq=\"1\"><put entity=\"Tag\"><record id=\"1\"><value name=\"name\">&b;</value></record></put></save>"
        let journal = URL(fileURLWithPath: file.path + ".journal")
        let header = try Data(contentsOf: journal)  // a store without saves: its journal's header line alone
        try (header + Data(Journal.line(Array(entry.utf8)))).write(to: journal)
        let error = try Self.refusal(file)
        #expect(error.offset == header.count && error.message.contains("DOCTYPE"), "\(error)")
    }
}
