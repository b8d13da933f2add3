import CLMDB
import Foundation
@_spi(StrataEngine) import Strata
import StrataFileSupport

/// What makes an LMDB environment a Strata store, and the checks made before touching a folder.
enum LMDBFormat {
    /// liblmdb's meta page magic and data version, at byte 16 and 20 of `data.mdb`.
    static let magic: UInt32 = 0xBEEF_C0DE
    static let dataVersion: UInt32 = 1

    /// The file that stands in a store folder while the store is being created: `preflight` writes
    /// it durably before liblmdb creates `data.mdb`, `finishCreation` removes it once the new store
    /// is durable. A `data.mdb` found beside it is a creation cut short, not a damaged store.
    static let creationMarker = "strata-creating"

    private static func markCreation(_ marker: String) throws {
        try DurableFile.write(marker, [])
        try DurableFile.syncFolder(of: marker)
    }

    /// Removes the creation marker of the new store in `folder` (its metadata committed) durably.
    static func finishCreation(_ folder: String) throws {
        let marker = (folder as NSString).appendingPathComponent(creationMarker)
        guard unlink(marker) == 0 || errno == ENOENT else {
            throw StrataError(.ioFailure, "Cannot remove the creation marker (\(String(cString: strerror(errno)))); the new store is whole.", file: marker)
        }
        try DurableFile.syncFolder(folder)
    }

    /// Checks `folder` without writing to it: `true` if it holds an environment, `false` if it is
    /// missing or empty (it is created then).
    ///
    /// - Throws: `corruptStore` for a file, a folder of other files, or a `data.mdb` that is not
    ///   LMDB's — before liblmdb could create its lock file there.
    static func preflight(_ folder: URL, readOnly: Bool) throws -> Bool {
        let fm = FileManager.default
        let marker = folder.appendingPathComponent(creationMarker).path
        var isDirectory: ObjCBool = false
        let missing = StrataError(.ioFailure, "There is no LMDB store in this folder; a read-only open never creates one.", file: folder.path)
        guard fm.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            if readOnly { throw missing }
            try DurableFile.createFolder(folder.path)
            try markCreation(marker)
            return false
        }
        guard isDirectory.boolValue else {
            throw StrataError(.corruptStore, "\(folder.path) is a file, not an LMDB environment folder; it was left untouched. Give the store a folder.", file: folder.path)
        }
        let data = folder.appendingPathComponent("data.mdb")
        guard fm.fileExists(atPath: data.path) else {
            let others = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != "lock.mdb" && $0 != creationMarker }
            guard others.isEmpty else {
                throw StrataError(.corruptStore, "The folder holds \(others.count) file(s) but no data.mdb: it is not an LMDB environment; it was left untouched. Open an empty or missing folder to create a store.", file: folder.path)
            }
            if readOnly { throw missing }
            try markCreation(marker)
            return false
        }
        if FileStamp(marker) != nil {
            // Creating this store was interrupted (power loss before liblmdb synced data.mdb, or
            // before the store's metadata committed): no save was ever acknowledged; start again.
            if readOnly { throw missing }
            for name in ["data.mdb", "lock.mdb"] { unlink(folder.appendingPathComponent(name).path) }
            try DurableFile.syncFolder(folder.path)
            return false
        }
        guard let handle = FileHandle(forReadingAtPath: data.path) else {
            throw StrataError(.ioFailure, "Cannot read data.mdb; check its permissions.", file: data.path)
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 24)) ?? Data()
        guard header.count == 24 else {
            throw StrataError(.corruptStore, "data.mdb is \(header.count) bytes, too short for an LMDB environment; it was left untouched.", file: data.path)
        }
        let magic = header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self)) }
        let version = header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 20, as: UInt32.self)) }
        guard magic == Self.magic else {
            throw StrataError(.corruptStore, "data.mdb is not an LMDB environment (no LMDB magic number); it was left untouched.", file: data.path, offset: 16)
        }
        guard version == Self.dataVersion else {
            throw StrataError(.unsupported, "data.mdb was written by LMDB data format \(version); this liblmdb reads format \(Self.dataVersion). It was left untouched.", file: data.path, offset: 20)
        }
        try checkLength(handle, data.path)
        return true
    }

    /// liblmdb maps the file and trusts its meta pages, so a file cut short of the last page the
    /// newest meta page names would crash the process (SIGBUS) on the first read past the end:
    /// refuse it instead. Meta page fields: page size at byte 40, last page at 136, txnid at 144.
    private static func checkLength(_ handle: FileHandle, _ path: String) throws {
        func meta(at offset: UInt64) -> (pageSize: UInt64, lastPage: UInt64, txnid: UInt64)? {
            guard (try? handle.seek(toOffset: offset)) != nil, let bytes = try? handle.read(upToCount: 152), bytes.count == 152 else { return nil }
            return bytes.withUnsafeBytes { b in
                guard UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 16, as: UInt32.self)) == magic else { return nil }
                return (UInt64(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 40, as: UInt32.self))),
                        UInt64(littleEndian: b.loadUnaligned(fromByteOffset: 136, as: UInt64.self)),
                        UInt64(littleEndian: b.loadUnaligned(fromByteOffset: 144, as: UInt64.self)))
            }
        }
        guard let first = meta(at: 0), first.pageSize >= 512, first.pageSize <= 1 << 16 else {
            throw StrataError(.corruptStore, "data.mdb has a damaged first meta page; it was left untouched. Restore it from a backup.", file: path)
        }
        let newest = meta(at: first.pageSize).map { $0.txnid > first.txnid ? $0 : first } ?? first
        let size = (try? handle.seekToEnd()) ?? 0
        let (needed, overflow) = (newest.lastPage &+ 1).multipliedReportingOverflow(by: first.pageSize)
        guard !overflow, size >= needed else {
            throw StrataError(.corruptStore, "data.mdb is \(size) bytes but its last committed page ends at byte \(needed): the file was cut short; it was left untouched. Restore it from a backup.", file: path, offset: Int(size))
        }
    }

    /// Opens the store's databases in an existing environment without writing; returns the layout
    /// and store identifier, or `nil` if the environment is empty.
    ///
    /// - Throws: `corruptStore` for an environment of someone else or with missing databases,
    ///   `unsupported` for a newer format, `schemaMismatch` for another schema.
    static func inspect(_ env: LMDBEnvironment, schema: Schema) throws -> (LMDBLayout, String, RecordedSchema.OpeningOutcome)? {
        env.catalog.lock()
        defer { env.catalog.unlock() }
        var txn: OpaquePointer?
        try lmdbCheck(mdb_txn_begin(env.env, nil, UInt32(MDB_RDONLY), &txn), "begin a read transaction")
        guard let txn else { return nil }
        do {
            var meta: MDB_dbi = 0
            let rc = mdb_dbi_open(txn, LMDBLayout.metaName, 0, &meta)
            if rc == MDB_NOTFOUND {
                var stat = MDB_stat()
                try lmdbCheck(mdb_stat(txn, 1 /* the main database */, &stat), "mdb_stat")
                // Thrown before the abort: the `catch` below aborts the transaction, once.
                guard stat.ms_entries == 0 else {
                    throw StrataError(.corruptStore, "The LMDB environment holds \(stat.ms_entries) key(s) but no Strata metadata: it is someone else's; it was left untouched.", file: env.path)
                }
                mdb_txn_abort(txn)
                return nil
            }
            try lmdbCheck(rc, "open the metadata database")
            let (identifier, outcome) = try check(txn, meta, schema: schema, file: env.path)
            let layout = try LMDBLayout(existing: schema, txn: txn, file: env.path)
            try lmdbCheck(mdb_txn_commit(txn), "commit")
            return (layout, identifier, outcome)
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
    }

    /// Checks the metadata of an existing store against `schema`; returns the store identifier and
    /// whether a writer must rewrite the schema record.
    static func check(_ txn: OpaquePointer, _ meta: MDB_dbi, schema: Schema, file: String) throws -> (String, RecordedSchema.OpeningOutcome) {
        let (identifier, recorded) = try read(txn, meta, file: file)
        return (identifier, try recorded.check(opening: schema, file: file))
    }

    /// Writes the schema record (and declaration) of `schema` into the metadata database.
    static func writeRecord(_ txn: OpaquePointer, _ meta: MDB_dbi, schema: Schema) throws {
        try LMDBMeta.put(txn, meta, "schema_record", RecordedSchema(schema).encoded())
        try LMDBMeta.put(txn, meta, "schema", Array(try JSONEncoder().encode(schema)))
        try LMDBMeta.put(txn, meta, "description", Array(schema.canonicalDescription.joined(separator: "\n").utf8))
    }

    /// The store identifier and recorded schema of an existing store's metadata. A store written
    /// before schema records kept the declaration (`schema`) without a version.
    static func read(_ txn: OpaquePointer, _ meta: MDB_dbi, file: String) throws -> (String, RecordedSchema) {
        guard let format = try LMDBMeta.get(txn, meta, "format"), format.count == 4 else {
            throw StrataError(.corruptStore, "The store's metadata has no readable format version; restore it from a backup.", file: file)
        }
        let version = format.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) }
        guard version <= LMDBMeta.formatVersion else {
            throw StrataError.newerFormat(version, readsUpTo: LMDBMeta.formatVersion, file: file)
        }
        guard let fingerprint = try LMDBMeta.get(txn, meta, "fingerprint").map({ String(decoding: $0, as: UTF8.self) }),
            let identifier = try LMDBMeta.get(txn, meta, "store").map({ String(decoding: $0, as: UTF8.self) }), !identifier.isEmpty
        else {
            throw StrataError(.corruptStore, "The store's metadata is incomplete (fingerprint or store identifier missing); restore it from a backup.", file: file)
        }
        if let record = try LMDBMeta.get(txn, meta, "schema_record") {
            return (identifier, try RecordedSchema(decoding: record, file: file))
        }
        let description = try LMDBMeta.get(txn, meta, "description").map { String(decoding: $0, as: UTF8.self).components(separatedBy: "\n") }
        var legacy = RecordedSchema(legacyFingerprint: fingerprint, canonicalDescription: description)
        if let json = try LMDBMeta.get(txn, meta, "schema"), let declared = try? JSONDecoder().decode(Schema.self, from: Data(json)), declared.fingerprint == fingerprint {
            legacy.schema = declared
            legacy.canonicalDescription = declared.canonicalDescription
        }
        return (identifier, legacy)
    }

    /// Creates the store's databases and metadata in one write transaction — or, if another process
    /// created them first, checks and opens those.
    static func create(_ env: LMDBEnvironment, schema: Schema) throws -> (LMDBLayout, String) {
        // Another process may have created it first: checked, and its record upgraded if needed.
        env.catalog.lock()
        defer { env.catalog.unlock() }
        return try env.write { txn in
            var meta: MDB_dbi = 0
            try lmdbCheck(mdb_dbi_open(txn, LMDBLayout.metaName, UInt32(MDB_CREATE), &meta), "create the metadata database")
            if try LMDBMeta.get(txn, meta, "format") != nil {
                let (identifier, outcome) = try check(txn, meta, schema: schema, file: env.path)
                if outcome == .rewriteRecord { try writeRecord(txn, meta, schema: schema) }
                return (try LMDBLayout(schema: schema, txn: txn, create: false), identifier)
            }
            let layout = try LMDBLayout(schema: schema, txn: txn, create: true)
            let identifier = PersistentIdentifier.makeStoreIdentifier()
            try LMDBMeta.put(txn, meta, "format", withUnsafeBytes(of: LMDBMeta.createdFormatVersion.bigEndian) { Array($0) })
            try LMDBMeta.put(txn, meta, "fingerprint", Array(schema.fingerprint.utf8))
            try LMDBMeta.put(txn, meta, "store", Array(identifier.utf8))
            try writeRecord(txn, meta, schema: schema)
            return (layout, identifier)
        }
    }
}
