import Foundation
import Strata

/// Building a new store out of sight and publishing it in one step (`strata convert` into
/// PostgreSQL, docs/convert.md): the store is written into a staging namespace, then renamed to its
/// destination namespace in one transaction, so the destination holds nothing until it holds the
/// whole store.
extension PostgresStore {
    /// A staging namespace claimed by this process for the store that will be published at
    /// `destination` (`PostgresStore.stage(for:)`).
    ///
    /// The claim is a session advisory lock on the staging namespace, held by a connection of its
    /// own until `publish()` or `discard()` (or the process's end: the server releases a dead
    /// session's locks). A staging namespace nobody holds was left by a killed process: the next
    /// `stage(for:)` of the same destination drops it (waiting up to `abandonedClaimWait` for a
    /// dead session's claim to be released).
    public final class Staging: @unchecked Sendable {
        /// The configuration of the staging store (the destination's, in the staging namespace).
        public let configuration: PostgresStoreConfiguration
        /// The configuration the store is published at.
        public let destination: PostgresStoreConfiguration
        private let connection: PostgresConnection
        private var finished = false

        init(configuration: PostgresStoreConfiguration, destination: PostgresStoreConfiguration, connection: PostgresConnection) {
            self.configuration = configuration
            self.destination = destination
            self.connection = connection
        }

        /// Renames the staging namespace to the destination's, in one transaction under the
        /// destination's creation lock (the one a store's first open takes): another connection
        /// sees no store there, then the whole store.
        ///
        /// - Throws: `ioFailure` when the destination namespace appeared meanwhile (the staging
        ///   namespace is left for `discard()`), `storeUnavailable` when the server went away.
        public func publish() throws {
            let q = PostgresCatalog.quote
            do {
                try connection.execute("BEGIN")
                try connection.query("SELECT pg_advisory_xact_lock(hashtextextended(convert_from($1, 'UTF8'), 0))", [.text(destination.namespace)])
                guard try !PostgresStore.namespaceExists(destination.namespace, on: connection) else {
                    try connection.execute("ROLLBACK")
                    throw PostgresStore.existsError(destination)
                }
                try connection.execute("ALTER SCHEMA \(q(configuration.namespace)) RENAME TO \(q(destination.namespace)); COMMIT")
            } catch let error as PostgresError {
                try? connection.execute("ROLLBACK")
                throw error.strataError(store: destination.name)
            }
            finished = true
            release()
        }

        /// Drops the staging namespace with everything in it and releases the claim; errors are
        /// ignored (a namespace left behind is dropped by the next `stage(for:)` of the destination).
        public func discard() {
            guard !finished else { return }
            finished = true
            try? connection.execute("DROP SCHEMA IF EXISTS \(PostgresCatalog.quote(configuration.namespace)) CASCADE")
            release()
        }

        private func release() {
            _ = try? connection.query("SELECT pg_advisory_unlock(\(PostgresStore.stagingLockClass), hashtext(convert_from($1, 'UTF8')))", [.text(configuration.namespace)])
        }

        deinit { if !finished { discard() } }
    }

    /// The first key of the two-key advisory locks that claim staging namespaces ("ST"); the
    /// two-key space is apart from the one-key locks of stores (creation, saves).
    static let stagingLockClass: Int32 = 0x5354

    /// Claims a new, empty staging namespace for the store to be published at `destination`, after
    /// dropping the staging namespaces of `destination` that killed processes left.
    ///
    /// - Throws: before anything is written, `ioFailure` when the destination namespace exists
    ///   already (even empty: it is someone's), `storeUnavailable` when the server cannot be reached.
    public static func stage(for destination: PostgresStoreConfiguration) throws -> Staging {
        let connection = try PostgresConnection(settings: destination.settings)
        do {
            guard try !namespaceExists(destination.namespace, on: connection) else { throw existsError(destination) }
            for name in try stagingNamespaces(of: destination.namespace, on: connection) { try abandonDropped(name, on: connection) }
            var staging = destination
            staging.namespace = stagingPrefix(for: destination.namespace) + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            try connection.query("SELECT pg_advisory_lock(\(stagingLockClass), hashtext(convert_from($1, 'UTF8')))", [.text(staging.namespace)])
            return Staging(configuration: staging, destination: destination, connection: connection)
        } catch let error as PostgresError {
            throw error.strataError(store: destination.name)
        }
    }

    /// The staging namespaces of the store to be published at `destination` on its server: those
    /// of converts running now and those killed converts left (which the next `stage(for:)` drops).
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached.
    public static func stagingNamespaces(for destination: PostgresStoreConfiguration) throws -> [String] {
        let connection = try PostgresConnection(settings: destination.settings)
        do {
            return try stagingNamespaces(of: destination.namespace, on: connection)
        } catch let error as PostgresError {
            throw error.strataError(store: destination.name)
        }
    }

    private static func stagingNamespaces(of namespace: String, on connection: PostgresConnection) throws -> [String] {
        let rows = try connection.query("SELECT nspname::text FROM pg_namespace WHERE starts_with(nspname::text, convert_from($1, 'UTF8')) ORDER BY 1", [.text(stagingPrefix(for: namespace))])
        return (0..<rows.count).compactMap { if case .text(let name) = rows.value($0, 0) { name } else { nil } }
    }

    /// How long `stage(for:)` waits for the claim on another staging namespace of the destination:
    /// the session of a killed client ends when its server process notices the closed socket,
    /// which is not at once; a claim held longer is a convert still running, and is left to it.
    static let abandonedClaimWait = "5s"

    /// Drops the staging namespace `name` once no live session claims it; leaves it when its claim
    /// is held longer than `abandonedClaimWait`.
    private static func abandonDropped(_ name: String, on connection: PostgresConnection) throws {
        let lock = "(\(stagingLockClass), hashtext(convert_from($1, 'UTF8')))"
        try connection.execute("SET lock_timeout = '\(abandonedClaimWait)'")
        defer { try? connection.execute("RESET lock_timeout") }
        do {
            try connection.query("SELECT pg_advisory_lock\(lock)", [.text(name)])
        } catch let error as PostgresError where error.sqlstate == "55P03" {
            return  // lock_not_available: a live convert holds it
        }
        try connection.execute("DROP SCHEMA IF EXISTS \(PostgresCatalog.quote(name)) CASCADE")
        try connection.query("SELECT pg_advisory_unlock\(lock)", [.text(name)])
    }

    /// `strata_stage_` and the 64-bit FNV-1a hash of the destination namespace in hex, then `_`:
    /// every staging namespace of one destination starts so, and the name stays within
    /// PostgreSQL's 63 bytes whatever the destination's length.
    static func stagingPrefix(for namespace: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in namespace.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "strata_stage_" + String(hash, radix: 16) + "_"
    }

    static func namespaceExists(_ namespace: String, on connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT count(*) FROM pg_namespace WHERE nspname = convert_from($1, 'UTF8')", [.text(namespace)]).integer(0, 0) != 0
    }

    static func existsError(_ destination: PostgresStoreConfiguration) -> StrataError {
        StrataError(.ioFailure, "The PostgreSQL schema \(destination.namespace) exists already; convert into a schema that does not exist yet.", file: destination.name)
    }
}
