import Foundation
@_spi(StrataEngine) import Strata
import StrataSQLSupport

/// Live sequences on PostgreSQL follow every process's saves through `LISTEN`/`NOTIFY`: each save
/// sends a notification on the store's channel inside its transaction (`NOTIFY` is delivered only
/// when the transaction commits, so a rolled-back or killed save wakes no one), and a reader
/// listens on a connection of its own (`PostgresCommitListener`). No polling of the data.
extension PostgresStore: WatchableStore {
    /// A listener on the store's channel, on a new connection (made before the reader's first
    /// read, so no commit falls between the two).
    ///
    /// - Throws: `storeUnavailable` when the server cannot be reached; `unsupported` on a hot
    ///   standby, which delivers no notifications.
    public func makeWakeSource() throws -> any StoreWakeSource {
        try PostgresCommitListener(settings: configuration.settings, channel: Self.commitChannel(configuration.namespace), store: configuration.name)
    }

    /// The channel the saves of the store in `namespace` notify: `strata_commit_` and a 64-bit
    /// FNV-1a hash of the namespace in hex (a channel is an identifier of at most 63 bytes; two
    /// namespaces sharing a hash only wake each other's readers spuriously).
    static func commitChannel(_ namespace: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in namespace.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "strata_commit_" + String(hash, radix: 16)
    }

    /// The `NOTIFY` a save sends on the store's channel (`commitChannel`), built once when the
    /// store opens: quoting and hashing per save cost a one-record update about 20,000
    /// instructions, a third of its client's work.
    static func commitNotify(_ namespace: String) -> String { "NOTIFY \(PostgresCatalog.quote(commitChannel(namespace)))" }
}

extension PostgresConnection {
    /// Commits the save's transaction with `notify` in it (`PostgresStore.commitNotify`), in one
    /// round trip with the statements still queued (`PostgresConnection+Queue.swift`): the server
    /// delivers the notification to every listener when, and only when, the transaction commits.
    func commit(notify: String) throws {
        // A save that sent nothing yet: BEGIN, lock and guard go in this one pipeline too.
        guard !queued.isEmpty || beginPending else { return try execute("\(notify); COMMIT") }
        try sendQueue(then: [.command(notify), .command("COMMIT")])
    }

    /// The pending begin's `BEGIN` and lock (`beginWrite`; the schema guard is in the UPDATE),
    /// the prepared one-record UPDATE `sql` with `parameters` (`PostgresStore+SingleUpdate.swift`),
    /// the notification and COMMIT: one pipeline, one round trip. Throws the first failure; the
    /// COMMIT is then skipped by the server and the transaction must be rolled back.
    func commitSingleUpdate(_ sql: String, _ parameters: [SQLValue], notify: String) throws {
        let encoded = PostgresParameters(parameters)
        let name = try statement(sql, types: encoded.types)
        beginPending = false
        try sendQueue(then: [
            .command("BEGIN"), .command(writeLockSQL), .prepared(name: name, parameters: encoded),
            .command(notify), .command("COMMIT"),
        ])
    }
}
