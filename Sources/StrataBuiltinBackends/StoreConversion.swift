import Foundation
import Strata
import StrataConformance
import StrataFileSupport
import StrataPostgres

#if canImport(Glibc)
import Glibc
#endif

/// `strata convert`: copies the store in one folder into a new store of another built-in backend in
/// another folder, atomically (docs/convert.md).
///
/// The destination is written in a staging folder beside it (`.<name>.strata-convert-<pid>-<n>`),
/// closed, reopened read-only and verified there, and only then renamed to the destination path in
/// one `rename(2)`: until the copy is complete and verified nothing exists at the destination, and a
/// killed convert leaves only a staging folder, which the next convert beside it removes. A
/// PostgreSQL destination (a folder's namespace, or a `postgresql://…#namespace` URL:
/// `PostgresServer.configuration`) is staged the same way in a namespace of its own, renamed in one
/// transaction. A memory store lives in the process and has no folder: it is written in place and
/// forgotten on error.
public enum StoreConversion {
    /// The file a convert writes into the destination folder when keys changed (`StoreKeyMap.csv`).
    public static let keyMapFile = "convert-keys.csv"

    /// Converts the store of backend `from` in `source` into a new store of backend `to` at
    /// `destination`, reading the schema the source records.
    ///
    /// - Throws: before anything is written, `ioFailure` when no store is in `source` or
    ///   something exists at `destination` (for PostgreSQL: its namespace exists), and the errors of `StoreCopy.copy` (`unsupported` for a
    ///   capability the destination lacks…); later a save's or the verification's error. On any
    ///   error the staging folder is removed and the destination does not exist.
    public static func convert(from: BuiltinStore, _ source: URL, to: BuiltinStore, _ destination: URL, options: StoreCopy.Options = StoreCopy.Options()) throws -> StoreCopy.Report {
        try convert(from.factory, source, to.factory, destination, onDisk: to.isPersistentOnDisk, options: options)
    }

    private static func convert<From: BuiltinStoreFactory, To: BuiltinStoreFactory>(_ from: From, _ source: URL, _ to: To, _ destination: URL, onDisk: Bool, options: StoreCopy.Options) throws -> StoreCopy.Report {
        typealias Source = From.Store
        typealias Destination = To.Store
        var reading = from.stores.configuration(source, FixtureDomain.schema)
        reading.isReadOnly = true
        let schema = try StoreCopy.sourceSchema(try Source.recordedSchema(reading), at: source.path)
        reading.schema = schema
        let input = try Source(reading)
        if let server = to.stores.configuration(destination, schema) as? PostgresStoreConfiguration {
            return try convert(input, intoServer: server, options: options)
        }
        guard onDisk else {
            // A memory store: no folder to stage in; written in place, forgotten on error.
            guard try Destination.recordedSchema(to.stores.configuration(destination, schema)) == nil else {
                throw StrataError(.invalidRequest, "A \(Destination.self) store named \(destination.path) exists already; convert into a new one.", file: destination.path)
            }
            do {
                return try StoreCopy.copy(from: input, to: try Destination(to.stores.configuration(destination, schema)), options: options)
            } catch {
                to.stores.destroy(destination)
                throw error
            }
        }
        guard !FileManager.default.fileExists(atPath: destination.path) else {
            throw StrataError(.ioFailure, "\(destination.path) exists already; convert into a path where nothing is yet.", file: destination.path)
        }
        let parent = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        removeAbandonedStaging(beside: destination)
        let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).strata-convert-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        do {
            var copying = options
            copying.verify = false
            var report = try StoreCopy.copy(from: input, to: try Destination(to.stores.configuration(staging, schema)), options: copying)
            if !report.keyMap.keepsKeys {
                try Data(report.keyMap.csv.utf8).write(to: staging.appendingPathComponent(keyMapFile), options: .atomic)
            }
            if options.verify {
                // What the staging folder holds, reopened read-only: what the rename will publish.
                var check = to.stores.configuration(staging, schema)
                check.isReadOnly = true
                try StoreCopy.verify(input, try Destination(check), keyMap: report.keyMap, batchSize: options.batchSize, progress: options.progress)
                report.verified = true
            }
            try DurableFile.moveWithoutReplacing(staging.path, to: destination.path)
            return report
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    /// Copies `input` into a new PostgreSQL store at `destination`: written into a staging namespace
    /// claimed for it, reopened read-only and verified there, then renamed to the destination
    /// namespace in one transaction (`PostgresStore.stage(for:)`). On any error the staging
    /// namespace is dropped; a killed convert's is dropped by the next convert to the destination.
    private static func convert<Source: DataStore>(_ input: Source, intoServer destination: PostgresStoreConfiguration, options: StoreCopy.Options) throws -> StoreCopy.Report {
        let staging = try PostgresStore.stage(for: destination)
        do {
            let report = try copyAndVerify(input, into: staging.configuration, options: options)
            try staging.publish()
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// The copy into the staging store and its verification, each store closed on return (before
    /// the staging namespace is renamed).
    private static func copyAndVerify<Source: DataStore>(_ input: Source, into staging: PostgresStoreConfiguration, options: StoreCopy.Options) throws -> StoreCopy.Report {
        var copying = options
        copying.verify = false
        var report = try StoreCopy.copy(from: input, to: try PostgresStore(staging), options: copying)
        if options.verify {
            var check = staging
            check.isReadOnly = true
            try StoreCopy.verify(input, try PostgresStore(check), keyMap: report.keyMap, batchSize: options.batchSize, progress: options.progress)
            report.verified = true
        }
        return report
    }

    /// Drops the staging namespaces that converts into the PostgreSQL store `destination` names (a
    /// folder's namespace or a `postgresql://…#namespace` URL) left and no running convert claims:
    /// a convert stopped mid-copy leaves one, which otherwise only the next convert to the same
    /// destination drops. The destination namespace must not exist (drop it first); does nothing
    /// when it does or when the server cannot be reached.
    public static func dropAbandonedServerStaging(for destination: URL) {
        // Claiming a new staging namespace drops the abandoned ones; then the new one goes too.
        (try? PostgresStore.stage(for: PostgresServer.configuration(destination, schema: PostgresServer.emptySchema)))?.discard()
    }

    /// Removes staging folders for `destination` whose convert process is gone (killed mid-copy).
    private static func removeAbandonedStaging(beside destination: URL) {
        let parent = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent).strata-convert-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
            }
        }
    }
}
