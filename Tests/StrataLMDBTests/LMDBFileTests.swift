import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// The LMDB backend's environment: readable by lmdb-utils, refuses what is not its own without
/// touching it, reports damage its checks can see, grows its map up to a ceiling.
struct LMDBFileTests {
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-lmdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func open(_ folder: URL, schema: Schema = FixtureDomain.schema, initialMapSize: Int = 64 << 20, maximumMapSize: Int = 1 << 40) throws -> LMDBStore {
        try LMDBStore(LMDBStoreConfiguration(folder: folder, schema: schema, initialMapSize: initialMapSize, maximumMapSize: maximumMapSize))
    }

    /// Runs a tool found on `PATH` and returns its exit status and standard output.
    static func run(_ arguments: [String]) throws -> (Int32, String) {
        let run = try ChildProcess.run(ChildProcess.onPath(arguments[0]), Array(arguments.dropFirst()))
        return (run.status, run.output)
    }

    /// Every file of a folder with its bytes, to prove an open left it untouched.
    static func contents(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    @Test func mdbStatAndMdbDumpReadTheEnvironment() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        do { try FixtureDomain.writeSample(into: try Self.open(folder)) }
        let (status, stat) = try Self.run(["mdb_stat", "-a", folder.path])
        #expect(status == 0)
        for name in ["strata.meta", "e.Book", "u.Library.name", "i.Book.pages", "r.Library.shelves", "r.Author.books"] {
            #expect(stat.contains("Status of \(name)"), "mdb_stat does not list \(name)")
        }
        let (dumpStatus, dump) = try Self.run(["mdb_dump", "-p", "-s", "strata.meta", folder.path])
        #expect(dumpStatus == 0)
        #expect(dump.contains(FixtureDomain.schema.fingerprint))
        let (bookStatus, books) = try Self.run(["mdb_dump", "-s", "e.Book", folder.path])
        #expect(bookStatus == 0)
        // Three books: keys 1, 2, 3 as 8 big-endian bytes, in order.
        #expect(books.contains(" 0000000000000001\n"))
        #expect(books.contains(" 0000000000000003\n"))
        #expect(!books.contains(" 0000000000000004\n"))
    }

    @Test func aFolderThatIsNotAnEnvironmentIsRefusedUntouched() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("hello".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        var before = try Self.contents(dir)
        var error = try #require(throws: StrataError.self) { try Self.open(dir) }
        #expect(error.code == .corruptStore)
        #expect(try Self.contents(dir) == before)

        try Data(repeating: 0x41, count: 8192).write(to: dir.appendingPathComponent("data.mdb"))
        before = try Self.contents(dir)
        error = try #require(throws: StrataError.self) { try Self.open(dir) }
        #expect(error.code == .corruptStore)
        #expect(try Self.contents(dir) == before, "no lock file may appear")

        let file = dir.appendingPathComponent("notes.txt")
        error = try #require(throws: StrataError.self) { try Self.open(file) }
        #expect(error.code == .corruptStore)
    }

    @Test func anotherSchemaOrANewerFormatIsRefusedUntouched() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        do { try FixtureDomain.writeSample(into: try Self.open(folder)) }
        let data = folder.appendingPathComponent("data.mdb")
        let before = try Data(contentsOf: data)
        let error = try #require(throws: StrataError.self) { try Self.open(folder, schema: WorkloadSchema.schema) }
        #expect(error.code == .schemaMismatch)
        #expect(try Data(contentsOf: data) == before)

        try Self.edit(folder) { txn, meta in
            try LMDBMeta.put(txn, meta, "format", withUnsafeBytes(of: UInt32(LMDBMeta.formatVersion + 1).bigEndian) { Array($0) })
        }
        let newer = try Data(contentsOf: data)
        let refused = try #require(throws: StrataError.self) { try Self.open(folder) }
        #expect(refused.code == .unsupported)
        #expect(try Data(contentsOf: data) == newer)
    }

    /// An environment of someone else: keys in the main database, no Strata metadata. Its open used
    /// to abort the read transaction twice (a double free: SIGABRT for a writer, SIGSEGV in `dump`).
    @Test(arguments: [false, true]) func anEnvironmentWithKeysButNoMetadataIsRefused(readOnly: Bool) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var env: OpaquePointer?
        try #require(mdb_env_create(&env) == 0)
        try #require(mdb_env_open(env, dir.path, 0, 0o644) == 0)
        var txn: OpaquePointer?
        try #require(mdb_txn_begin(env, nil, 0, &txn) == 0)
        var dbi: MDB_dbi = 0
        try #require(mdb_dbi_open(txn, nil, 0, &dbi) == 0)
        var bytes = Array("someone else's".utf8)
        try bytes.withUnsafeMutableBytes { raw in
            var key = MDB_val(mv_size: raw.count, mv_data: raw.baseAddress)
            var value = MDB_val(mv_size: raw.count, mv_data: raw.baseAddress)
            try #require(mdb_put(txn, dbi, &key, &value, 0) == 0)
        }
        try #require(mdb_txn_commit(txn) == 0)
        mdb_env_close(env)
        let before = try Data(contentsOf: dir.appendingPathComponent("data.mdb"))
        for _ in 0..<2 {  // a second open finds the environment as the first left it
            let error = try #require(throws: StrataError.self) {
                try LMDBStore(LMDBStoreConfiguration(folder: dir, schema: FixtureDomain.schema, isReadOnly: readOnly))
            }
            #expect(error.code == .corruptStore)
            #expect(error.message.contains("no Strata metadata"))
        }
        #expect(try Data(contentsOf: dir.appendingPathComponent("data.mdb")) == before)
    }

    /// Changes the environment behind the store's back, as damage or another program would.
    static func edit(_ folder: URL, _ body: (OpaquePointer, MDB_dbi) throws -> Void) throws {
        var env: OpaquePointer?
        try #require(mdb_env_create(&env) == 0)
        defer { mdb_env_close(env) }
        mdb_env_set_maxdbs(env, 64)
        try #require(mdb_env_open(env, folder.path, 0, 0o644) == 0)
        var txn: OpaquePointer?
        try #require(mdb_txn_begin(env, nil, 0, &txn) == 0)
        var meta: MDB_dbi = 0
        try #require(mdb_dbi_open(txn, LMDBLayout.metaName, 0, &meta) == 0)
        do { try body(txn!, meta) } catch { mdb_txn_abort(txn); throw error }
        try #require(mdb_txn_commit(txn) == 0)
    }

    @Test func damagedRecordsAndCountersAreCorruptNotCrashes() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        do { try FixtureDomain.writeSample(into: try Self.open(folder)) }
        try Self.edit(folder) { txn, _ in
            var dbi: MDB_dbi = 0
            try #require(mdb_dbi_open(txn, "e.Book", 0, &dbi) == 0)
            try withKey(2) { k in
                var data = MDB_val()
                try #require(mdb_get(txn, dbi, &k, &data) == 0)
                var bytes = Array(data.bytes)
                bytes[bytes.count - 3] ^= 0x20  // one flipped bit in the record
                try bytes.withUnsafeMutableBytes { raw in
                    var v = MDB_val(mv_size: raw.count, mv_data: raw.baseAddress)
                    try #require(mdb_put(txn, dbi, &k, &v, 0) == 0)
                }
            }
        }
        let store = try Self.open(folder)
        let error = try #require(throws: StrataError.self) { try store.fetch(FetchDescriptor(entity: "Book")) }
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("Record 2 of 'Book'"))
        #expect(try store.fetch(FetchDescriptor(entity: "Library")).count == 2, "undamaged entities still read")

        try Self.edit(folder) { txn, meta in try LMDBMeta.put(txn, meta, "next.Tag", [1, 2, 3]) }
        let tag = try LMDBSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "new"])
        let counter = try #require(throws: StrataError.self) { try Self.open(folder).save(SaveRequest(inserted: [tag])) }
        #expect(counter.code == .corruptStore)
    }

    @Test func aReadOnlyStoreReadsBesideAWriterAndNeverWrites() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        var readOnly = LMDBStoreConfiguration(folder: folder, schema: FixtureDomain.schema, isReadOnly: true)
        #expect(throws: StrataError.self) { try LMDBStore(readOnly) }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "a read-only open created the folder")
        let writer = try Self.open(folder)
        try FixtureDomain.writeSample(into: writer)
        let reader = try LMDBStore(readOnly)
        #expect(try reader.fetchCount(FetchDescriptor(entity: "Book")) == 3)
        let tag = try LMDBSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "later"])
        _ = try writer.save(SaveRequest(inserted: [tag]))
        #expect(try reader.fetchCount(FetchDescriptor(entity: "Tag")) == 2, "the reader sees the writer's commit")
        let refused = try #require(throws: StrataError.self) { try reader.save(SaveRequest(inserted: [tag])) }
        #expect(refused.code == .readOnlyStore)
        readOnly.schema = WorkloadSchema.schema
        let mismatch = try #require(throws: StrataError.self) { try LMDBStore(readOnly) }
        #expect(mismatch.code == .schemaMismatch)
    }

    @Test func aTruncatedEnvironmentIsCorruptNotACrash() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        do { try FixtureDomain.writeSample(into: try Self.open(folder)) }
        let file = folder.appendingPathComponent("data.mdb")
        let data = try Data(contentsOf: file)
        // liblmdb would map the missing pages and die of SIGBUS on the first read past the end.
        try data.prefix(data.count - 4096 - 100).write(to: file)
        let error = try #require(throws: StrataError.self) { try Self.open(folder) }
        #expect(error.code == .corruptStore)
        #expect(error.message.contains("cut short"))
    }

    @Test func theMapGrowsUpToItsCeiling() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let store = try Self.open(folder, initialMapSize: 1 << 20, maximumMapSize: 32 << 20)
        let sample = FixtureDomain.schema.entity(named: "Sample")!
        func samples(_ count: Int, megabytes: Int, from: Int) throws -> [LMDBSnapshot] {
            try (0..<count).map { i in
                try LMDBSnapshot.inserting(sample, values: ["label": .string("s\(from + i)"), "data": .data(Data(repeating: UInt8(i & 0xFF), count: megabytes << 20))])
            }
        }
        _ = try store.save(SaveRequest(inserted: try samples(4, megabytes: 2, from: 0)))
        #expect(store.environment.mapSize > 8 << 20, "the map grew from 1 MiB")
        let error = try #require(throws: StrataError.self) { try store.save(SaveRequest(inserted: try samples(20, megabytes: 2, from: 4))) }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("ceiling"))
        #expect(error.native == .init(.lmdb, code: Int(MDB_MAP_FULL), message: String(cString: mdb_strerror(MDB_MAP_FULL))), "\(error)")
        #expect(error.description.contains("[lmdb -30792: MDB_MAP_FULL"), "\(error)")
        #expect(try store.fetchCount(FetchDescriptor(entity: "Sample")) == 4, "the failed save changed nothing")
        _ = try store.save(SaveRequest(inserted: try samples(1, megabytes: 1, from: 100)))
        #expect(try Self.open(folder).fetchCount(FetchDescriptor(entity: "Sample")) == 5)
    }
}
