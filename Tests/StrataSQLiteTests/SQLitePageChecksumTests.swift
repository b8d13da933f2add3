import Foundation
import Strata
import StrataConformance
import StrataSQLite
import Testing

/// Issue 29: SQLite read damage as data (57 of 200 damaged stores opened with other values: a
/// flipped letter, a digit edited, a page cut short and read as zeros). Every page now carries a
/// checksum (`SQLiteChecksumVFS`), so each of these is `corruptStore`.
struct SQLitePageChecksumTests {
    /// A closed sample store and its file.
    private static func sample() throws -> (URL, URL) {
        let dir = try SQLiteFileTests.directory()
        let file = dir.appendingPathComponent("damaged.sqlite")
        do { try FixtureDomain.writeSample(into: try SQLiteFileTests.open(file)) }
        return (dir, file)
    }

    private static func expectCorrupt(_ file: URL, _ comment: Comment) {
        let error = #expect(throws: StrataError.self, comment) { _ = try StoreDump.json(try SQLiteFileTests.open(file)) }
        #expect(error?.code == .corruptStore, "\(String(describing: error))")
    }

    @Test func aFlippedLetterInAValueIsCorrupt() throws {
        let (dir, file) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Array(try Data(contentsOf: file))
        let needle = Array("Muad'Dib".utf8)
        let at = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<$0 + needle.count]) == needle })
        bytes[at] ^= 0x20  // "muad'Dib": still valid text, still a valid page to SQLite
        try Data(bytes).write(to: file)
        Self.expectCorrupt(file, "a letter of a stored title changed")
    }

    @Test func aFileCutInsideAPageIsCorrupt() throws {
        let (dir, file) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count - 100).write(to: file)
        Self.expectCorrupt(file, "the last page cut short (read back as zeros)")
    }

    @Test func aDamagedReservedByteCountIsCorrupt() throws {
        let (dir, file) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Array(try Data(contentsOf: file))
        #expect(bytes[20] == 8, "a new store reserves 8 bytes per page for its checksum")
        bytes[20] = 0  // would turn the checks off
        try Data(bytes).write(to: file)
        Self.expectCorrupt(file, "the header's reserved byte count")
    }

    @Test func anEditByAnotherProgramIsRefusedUntilResealed() throws {
        let (dir, file) = try Self.sample()
        defer { try? FileManager.default.removeItem(at: dir) }
        try SQLiteFileTests.shell(file, "UPDATE Book SET pages = 413 WHERE title = 'Dune'")
        Self.expectCorrupt(file, "the shell cannot keep the checksums")
        try SQLiteStore.resealPages(at: file)
        let dump = try StoreDump.json(try SQLiteFileTests.open(file))
        #expect(dump.contains("413"), "the resealed store holds the edit")
        #expect(try SQLiteFileTests.shell(file, "PRAGMA integrity_check") == "ok")
    }
}
