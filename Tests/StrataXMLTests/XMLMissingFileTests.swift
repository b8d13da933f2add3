import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import StrataXML
import Testing

/// A store that lost one of its two files is damage, never a new store; the same rules as JSON's,
/// which shares this code (`JournaledDocument`).
struct XMLMissingFileTests {
    /// A store of one saved sample folded into its document when `threshold` is 0 (the journal holds
    /// its header line alone).
    static func store(threshold: Int) throws -> (dir: URL, file: URL) {
        let dir = try XMLFileTests.directory()
        let file = dir.appendingPathComponent("store.xml")
        let store = try XMLFileTests.open(file, threshold: threshold)
        _ = try store.save(SaveRequest(inserted: [try XMLFileTests.sample(["label": "a"])]))
        return (dir, file)
    }

    static func journal(_ file: URL) -> URL { URL(fileURLWithPath: file.path + ".journal") }

    /// A deleted document is damage even right after a fold (a journal without saves): opening it as a new,
    /// empty store would hide the loss. Neither a writer nor a reader creates a file.
    @Test func aMissingDocumentIsCorruptNeverANewStore() throws {
        let (dir, file) = try Self.store(threshold: 0)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try String(contentsOf: Self.journal(file), encoding: .utf8).split(separator: "\n").count == 1)  // its header alone
        try FileManager.default.removeItem(at: file)
        let error = try #require(throws: StrataError.self) { try XMLFileTests.open(file) }
        #expect(error.code == .corruptStore, "\(error)")
        let reading = try #require(throws: StrataError.self) { try XMLFileTests.open(file, readOnly: true) }
        #expect(reading.code == .corruptStore, "\(reading)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// A deleted journal loses the saves since the last fold: damage, and the journal is not recreated.
    @Test func aMissingJournalIsCorrupt() throws {
        let (dir, file) = try Self.store(threshold: 1 << 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: Self.journal(file))
        let error = try #require(throws: StrataError.self) { try XMLFileTests.open(file) }
        #expect(error.code == .corruptStore && error.message.contains("journal"), "\(error)")
        #expect(throws: StrataError.self) { try XMLFileTests.open(file, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: Self.journal(file).path))
    }
}
