import Foundation
import Strata

/// The figures of the peers benchmark (`make peers`, docs/benchmarks.md, "Peers"): the standard
/// workload on SQLite through several libraries in one process run, each beside raw C on SQLite
/// measured in the same run. Written by `Benchmarks/Peers` as JSON, read by `strata report --peers`.
public struct PeersReport: Sendable, Codable {
    /// N, the number of items.
    public var records: Int
    /// The durability every peer and the C baseline ran at.
    public var durability: SaveDurability
    /// The SQLite settings that give it (`journal_mode = WAL, synchronous = FULL`).
    public var settings: String
    /// One report per library (`backend` is its name, `baseline` the raw C figures of the same
    /// runs), in the order the page shows them.
    public var peers: [WorkloadReport]
    /// Library name → one line on how it was written (record style, statements, transactions).
    public var descriptions: [String: String]

    /// A report of the given peers.
    public init(records: Int, durability: SaveDurability, settings: String, peers: [WorkloadReport], descriptions: [String: String]) {
        self.records = records
        self.durability = durability
        self.settings = settings
        self.peers = peers
        self.descriptions = descriptions
    }
}
