import Foundation
import Strata
import StrataConformance
import StrataLMDB
import Testing

/// Issue 29, found by `strata powerloss`: a power loss while an environment was being created could
/// leave `data.mdb` empty (liblmdb had not synced it yet), refused ever after as damage although no
/// save had been acknowledged. A creation now leaves a marker (`strata-creating`) until the new
/// store is durable; an unreadable `data.mdb` beside it is a creation cut short, made again.
struct LMDBCreationTests {
    @Test func anEmptyDataFileBesideTheMarkerIsCreatedAgain() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("strata-creating").path, contents: nil)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("data.mdb").path, contents: nil)
        let store = try LMDBFileTests.open(folder)
        #expect(try store.fetchCount(FetchDescriptor(entity: "Tag")) == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("strata-creating").path), "removed once the store is durable")
    }

    @Test func anEmptyDataFileWithoutTheMarkerIsDamage() throws {
        let dir = try LMDBFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("data.mdb").path, contents: nil)
        let error = #expect(throws: StrataError.self) { _ = try LMDBFileTests.open(folder) }
        #expect(error?.code == .corruptStore, "\(String(describing: error))")
    }
}
