import Foundation
import Strata
import StrataConformance
import StrataJSON
import Testing

/// Issue 29, found by `strata powerloss`: a power loss while a store was being created left its
/// journal without its document, which every later open refused as damage ("restore from a
/// backup") although no save had ever been acknowledged. A new store now writes its document before
/// its journal appears; a document beside the creation's temporary journal is a creation cut short.
struct JSONCreationTests {
    /// The files a creation stopped just before linking its journal leaves: the new document and the
    /// locked temporary journal (here left by a writer of process 999).
    private static func interruptedCreation() throws -> (URL, URL) {
        let dir = try JSONFileTests.directory()
        let made = dir.appendingPathComponent("made.json")
        do { _ = try JSONFileTests.open(made) }
        let file = dir.appendingPathComponent("store.json")
        try FileManager.default.copyItem(at: made, to: file)
        FileManager.default.createFile(atPath: file.path + ".tmp-journal-999", contents: nil)
        return (dir, file)
    }

    @Test func aWriterFinishesAnInterruptedCreation() throws {
        let (dir, file) = try Self.interruptedCreation()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try JSONFileTests.open(file)
        _ = try store.save(SaveRequest(inserted: [try JSONFileTests.tag("first")]))
        #expect(try JSONFileTests.open(file, wait: .seconds(5)).fetchCount(FetchDescriptor(entity: "Tag")) == 1)
        #expect(FileManager.default.fileExists(atPath: file.path + ".journal"))
    }

    @Test func aReaderSeesNoStoreYet() throws {
        let (dir, file) = try Self.interruptedCreation()
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = #expect(throws: StrataError.self) {
            _ = try JSONStore(JSONStoreConfiguration(url: file, schema: FixtureDomain.schema, isReadOnly: true))
        }
        #expect(error?.code == .ioFailure, "\(String(describing: error))")
    }

    @Test func aMissingJournalWithoutACreationUnderWayIsStillDamage() throws {
        let (dir, file) = try Self.interruptedCreation()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(atPath: file.path + ".tmp-journal-999")
        let error = #expect(throws: StrataError.self) { _ = try JSONFileTests.open(file) }
        #expect(error?.code == .corruptStore, "\(String(describing: error))")
    }
}
