import Foundation
import Strata
import StrataFileSupport
import StrataTestSupport
import Testing

/// The writer lock: one writer, the holder named, no lock file to delete around it.
struct WriterLockTests {
    static func file() throws -> (dir: URL, path: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("journal").path
        try Data().write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    /// Whether another process can take the lock on `path` right now (`flock -n`).
    static func anotherProcessCanLock(_ path: String) throws -> Bool {
        try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/flock"), ["-n", "-x", path, "true"]).status == 0
    }

    /// Issue 25: a second writer in this process (a second container on one store) shares the
    /// lock; other processes stay out until the last share goes.
    @Test func writersInThisProcessShareTheLock() throws {
        let (dir, path) = try Self.file()
        defer { try? FileManager.default.removeItem(at: dir) }
        var first: WriterLock? = try WriterLock(path: path, store: path, wait: nil)
        var second: WriterLock? = try WriterLock(path: path, store: path, wait: nil)
        #expect(first?.isStillHeld == true && second?.isStillHeld == true)
        #expect(try !Self.anotherProcessCanLock(path))
        let before = try #require(second?.savesHere)
        first?.exclusively {}
        #expect(second?.savesHere == before + 1, "a save through one share is seen by the other")
        first = nil
        #expect(try !Self.anotherProcessCanLock(path), "still held by the second share")
        second = nil
        #expect(try Self.anotherProcessCanLock(path), "released with the last share")
        _ = (first, second)
    }

    @Test func aWriterInAnotherProcessIsNamedAsSuch() throws {
        let (dir, path) = try Self.file()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Holds the lock until its standard input closes.
        let holder = try ChildProcess(URL(fileURLWithPath: "/usr/bin/flock"), ["-x", path, "-c", "echo locked; read line"])
        defer { holder.finish() }
        #expect(holder.next() == "locked")
        let error = try #require(throws: StrataError.self) { try WriterLock(path: path, store: path, wait: nil) }
        #expect(error.code == .storeLocked)
        #expect(error.message.contains("Another process"), "\(error)")
    }

    @Test func aLockedFileThatWasReplacedIsNoLongerALock() throws {
        let (dir, path) = try Self.file()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lock = try WriterLock(path: path, store: path, wait: nil)
        try lock.check(store: path)
        try FileManager.default.removeItem(atPath: path)
        try Data().write(to: URL(fileURLWithPath: path))
        let second = try WriterLock(path: path, store: path, wait: nil)  // the new file is free…
        let error = try #require(throws: StrataError.self) { try lock.check(store: path) }  // …and the first writer knows
        #expect(error.code == .storeLocked)
        _ = second
    }

    @Test func aCreatedFileIsLockedFromTheMomentItAppears() throws {
        let (dir, existing) = try Self.file()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try WriterLock.create(existing, temporary: existing + ".tmp") == nil)  // exists: not created
        let path = dir.appendingPathComponent("new").path
        let created = try #require(try WriterLock.create(path, temporary: path + ".tmp"))
        #expect(FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + ".tmp"))
        #expect(try !Self.anotherProcessCanLock(path))
        try created.check(store: path)
    }
}
