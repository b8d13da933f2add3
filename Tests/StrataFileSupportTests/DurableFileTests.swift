import Foundation
import Strata
import StrataFileSupport
import Testing

/// Sealed documents, atomic replacement and the clean-up of temporary files.
struct DurableFileTests {
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aSealFindsEveryChangedByteAndEveryTruncation() throws {
        let sealed = DocumentSeal.json.seal(Array("{\n\"a\": [1, 2, \"three\"],\n".utf8))
        #expect(try JSONSerialization.jsonObject(with: Data(sealed)) is [String: Any])  // still plain JSON
        #expect(Array(try DocumentSeal.json.content(of: sealed, file: "f")) == Array("{\n\"a\": [1, 2, \"three\"],\n".utf8))
        for position in sealed.indices {
            var damaged = sealed
            damaged[position] ^= 0x04
            #expect(throws: StrataError.self, "byte \(position)") { try DocumentSeal.json.content(of: damaged, file: "f") }
        }
        for length in 0..<sealed.count {
            #expect(throws: StrataError.self, "length \(length)") { try DocumentSeal.json.content(of: Array(sealed.prefix(length)), file: "f") }
        }
    }

    /// A failed system call keeps its `errno`: reading a folder as a file fails with EISDIR.
    @Test func aFailedCallKeepsItsErrno() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: StrataError.self) { try DurableFile.read(dir.path) }
        #expect(error.code == .ioFailure)
        #expect(error.native == .init(.errno, code: Int(EISDIR), message: String(cString: strerror(EISDIR))), "\(error)")
        #expect(error.description.hasSuffix("[errno \(EISDIR): Is a directory]"), "\(error)")
    }

    /// Issue 29: the result of the folder `fsync` after a rename was ignored, so a save whose rename
    /// might not survive power loss was reported durable. A folder that cannot be synced (procfs
    /// refuses `fsync` with EINVAL) or opened is now an `ioFailure` carrying the errno.
    @Test func aFolderThatCannotBeSyncedIsAnIOFailure() throws {
        let refused = try #require(throws: StrataError.self) { try DurableFile.syncFolder("/proc") }
        #expect(refused.code == .ioFailure && refused.native?.code == Int(EINVAL), "\(refused)")
        #expect(throws: StrataError.self) { try DurableFile.syncFolder(of: "/proc/self") }
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try #require(throws: StrataError.self) { try DurableFile.syncFolder(of: dir.appendingPathComponent("gone/file").path) }
        #expect(missing.code == .ioFailure && missing.native?.code == Int(ENOENT), "\(missing)")
        try DurableFile.syncFolder(of: dir.appendingPathComponent("file").path)  // a real folder syncs
    }

    @Test func replaceLeavesTheNewFileAndNoTemporary() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("doc").path
        try DurableFile.replace(path, with: Array("old".utf8))
        try DurableFile.replace(path, with: Array("new".utf8))
        #expect(try DurableFile.read(path) == Array("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["doc"])
        #expect(try DurableFile.read(dir.appendingPathComponent("missing").path) == nil)
    }

    @Test func removeTemporariesTakesOnlyThisFilesTemporaries() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["doc", "doc.tmp-123", "doc.tmp-9", "other.tmp-1", "doc.journal"] {
            try Data().write(to: dir.appendingPathComponent(name))
        }
        #expect(DurableFile.removeTemporaries(of: dir.appendingPathComponent("doc").path) == 2)
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["doc", "other.tmp-1", "doc.journal"])
    }
}
