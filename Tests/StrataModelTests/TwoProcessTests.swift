import Foundation
import StrataModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 29: docs/models.md promises that two processes on one store that change different
/// properties of a record both keep their change, and that `checksConflicts` turns a second save of
/// the same property into `writeConflict`; nothing ran two processes through the model layer.
///
/// Each process is an exit test (a child process of the test binary) with its own `ModelContainer`.
/// They take turns through named pipes (`mkfifo`): opening and reading one blocks until the other
/// process writes it, so every step waits for an observed event, never for time. The backends are
/// those that let two processes write one store (`concurrentAccess`): SQLite, LMDB, and PostgreSQL
/// when `make test` names its server; JSON, XML and CSV lock a second writing process out by design
/// (docs/store-contract.md, "Two instances on one location").
struct TwoProcessTests {
    /// The backends two processes may write at once, of those this run has.
    static let backends = ModelBackend.all.map(\.name).filter { ["sqlite", "lmdb", "postgres"].contains($0) }

    /// The turns the two processes take, one pipe each.
    static let turns = ["first-read", "second-read", "first-saved"]

    private static func makeStore(_ backend: String) throws -> URL {
        let model = try #require(ModelBackend.all.first { $0.name == backend })
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-two-processes-\(backend)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let context = ModelContext(try model.open(dir, [Sample.self]))
        context.insert(Sample(label: "shared"))
        try context.save()
        for turn in turns { guard mkfifo(dir.appendingPathComponent(turn).path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) } }
        return dir
    }

    /// Says `turn` happened (blocks until the other process waits for it).
    static func signal(_ dir: String, _ turn: String) {
        let fd = open(dir + "/" + turn, O_WRONLY)
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
        close(fd)
    }

    /// Waits until the other process says `turn` happened.
    static func wait(_ dir: String, _ turn: String) {
        let fd = open(dir + "/" + turn, O_RDONLY)
        var byte: UInt8 = 0
        _ = read(fd, &byte, 1)
        close(fd)
    }

    /// One process's part: read the record, change `property` to `value`, take the turns, save.
    /// Exits 0 if the save went as `expectConflict` says (a `writeConflict` or none), else 1.
    static func edit(backend: String, dir: String, first: Bool, property: String, value: Int, checksConflicts: Bool, expectConflict: Bool) -> Int32 {
        do {
            let model = ModelBackend.all.first { $0.name == backend }!
            let context = ModelContext(try model.open(URL(fileURLWithPath: dir), [Sample.self]))
            context.checksConflicts = checksConflicts
            let sample = try context.fetch(FetchDescriptor<Sample>()).first!
            if property == "count" { sample.count = value } else { sample.small = Int16(value) }
            if first {
                signal(dir, "first-read")
                wait(dir, "second-read")
                try context.save()
                signal(dir, "first-saved")
                return 0
            }
            wait(dir, "first-read")
            signal(dir, "second-read")
            wait(dir, "first-saved")
            do {
                try context.save()
                return expectConflict ? 1 : 0
            } catch let error as StrataError where error.code == .writeConflict {
                return expectConflict ? 0 : 1
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 2
        }
    }

    private static func stored(_ backend: String, _ dir: URL) throws -> Sample {
        let model = try #require(ModelBackend.all.first { $0.name == backend })
        return try #require(try ModelContext(try model.open(dir, [Sample.self])).fetch(FetchDescriptor<Sample>()).first)
    }

    @Test(arguments: backends)
    func differentPropertiesFromTwoProcessesAreBothKept(backend: String) async throws {
        let dir = try Self.makeStore(backend)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path
        async let first = #expect(processExitsWith: .success) { [backend = backend as String, path = path as String] in
            exit(TwoProcessTests.edit(backend: backend, dir: path, first: true, property: "count", value: 100, checksConflicts: false, expectConflict: false))
        }
        async let second = #expect(processExitsWith: .success) { [backend = backend as String, path = path as String] in
            exit(TwoProcessTests.edit(backend: backend, dir: path, first: false, property: "small", value: 5, checksConflicts: false, expectConflict: false))
        }
        _ = await (first, second)
        let sample = try Self.stored(backend, dir)
        #expect(sample.count == 100, "the first process's change")
        #expect(sample.small == 5, "the second process's change, saved after the first")
    }

    @Test(arguments: backends)
    func theSamePropertyFromTwoProcessesIsAWriteConflict(backend: String) async throws {
        let dir = try Self.makeStore(backend)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.path
        async let first = #expect(processExitsWith: .success) { [backend = backend as String, path = path as String] in
            exit(TwoProcessTests.edit(backend: backend, dir: path, first: true, property: "count", value: 100, checksConflicts: true, expectConflict: false))
        }
        async let second = #expect(processExitsWith: .success) { [backend = backend as String, path = path as String] in
            exit(TwoProcessTests.edit(backend: backend, dir: path, first: false, property: "count", value: 200, checksConflicts: true, expectConflict: true))
        }
        _ = await (first, second)
        #expect(try Self.stored(backend, dir).count == 100, "the first save kept, the conflicting one refused")
    }
}
