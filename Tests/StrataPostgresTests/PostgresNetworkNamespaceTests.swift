import Foundation
import StrataTestSupport
import Testing

/// The multi-process run with each process in its own network namespace, reaching the server over
/// a veth pair and TCP, as app servers on other machines would (docs/formats/postgres.md, "Many
/// processes"). Needs root and a kernel that allows network namespaces (`ip netns add`); where the
/// machine does not allow it, the test is skipped and says why.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason), .enabled(if: NetworkNamespaces.allowed, NetworkNamespaces.reason))
struct PostgresNetworkNamespaceTests {
    @Test("4 processes in 4 network namespaces, over veth and TCP: every acknowledged save is there, every invariant holds")
    func processesInNetworkNamespaces() async throws {
        try await onOwnThread {
            let net = NetworkNamespaces(count: 4)
            defer { net.remove() }
            try net.create()
            let cluster = try PostgresPrivateCluster(environment: [
                "STRATA_PG_LISTEN": (["127.0.0.1"] + net.hostAddresses).joined(separator: ","), "STRATA_PG_HBA": net.subnet,
            ])
            defer { cluster.remove() }
            let urls = net.hostAddresses.map { "postgresql://strata:\(cluster.password)@\($0):\(cluster.port)/strata" }
            // Each worker reaches the server only through its own namespace's veth.
            let workers = try PostgresConcurrencyTests.runWorkers(
                urls: urls, checkURL: cluster.url, saves: PostgresConcurrencyTests.savesPerWorker, seed: 64,
                launchers: net.names.map { ["/usr/sbin/ip", "netns", "exec", $0] })
            #expect(workers.allSatisfy { $0.lines.last == "done \(PostgresConcurrencyTests.savesPerWorker)" })
        }
    }
}

/// Network namespaces joined to this one by veth pairs: namespace k has `namespaceAddresses[k]`,
/// its peer here `hostAddresses[k]`, each pair a /30 of a random 10.x.y.0/24, names random too
/// (other test runs on the machine may do the same at once).
final class NetworkNamespaces: @unchecked Sendable {
    let names: [String]
    let hostAddresses: [String]
    let namespaceAddresses: [String]
    let subnet: String
    private let tag: String

    init(count: Int) {
        let tag = String(UInt32.random(in: 0..<0xFFFF_FF), radix: 16)
        self.tag = tag
        let base = "10.\(Int.random(in: 100..<250)).\(Int.random(in: 0..<256))"
        subnet = base + ".0/24"
        names = (0..<count).map { "strata-\(tag)-\($0)" }
        hostAddresses = (0..<count).map { "\(base).\(4 * $0 + 1)" }
        namespaceAddresses = (0..<count).map { "\(base).\(4 * $0 + 2)" }
    }

    /// Creates the namespaces and veth pairs, up and addressed.
    func create() throws {
        for (k, name) in names.enumerated() {
            let host = "sv\(tag)h\(k)", peer = "sv\(tag)n\(k)"
            try Self.ip(["netns", "add", name])
            try Self.ip(["link", "add", host, "type", "veth", "peer", "name", peer])
            try Self.ip(["link", "set", peer, "netns", name])
            try Self.ip(["addr", "add", hostAddresses[k] + "/30", "dev", host])
            try Self.ip(["link", "set", host, "up"])
            try Self.ip(["netns", "exec", name, "ip", "addr", "add", namespaceAddresses[k] + "/30", "dev", peer])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", peer, "up"])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
        }
    }

    /// Deletes the veth pairs and the namespaces.
    func remove() {
        for k in names.indices { try? Self.ip(["link", "delete", "sv\(tag)h\(k)"]) }
        for name in names { try? Self.ip(["netns", "delete", name]) }
    }

    /// Runs `ip` with `arguments`; its error output in the thrown error.
    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let run = try ChildProcess.run(URL(fileURLWithPath: "/usr/sbin/ip"), arguments)
        guard run.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "ip \(arguments.joined(separator: " ")): \(run.errors)"])
        }
        return run.errors
    }

    /// Whether this machine lets the tests make a network namespace (root, `ip`, a kernel that
    /// allows it), found by making one and deleting it; `probeError` says why not.
    static let probeError: String? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return "no /usr/sbin/ip (Debian: iproute2)" }
        let name = "strata-probe-\(UInt32.random(in: 0..<0xFFFF_FF))"
        do {
            try ip(["netns", "add", name])
            try ip(["netns", "delete", name])
            return nil
        } catch {
            return "\(error.localizedDescription)"
        }
    }()
    static var allowed: Bool { probeError == nil }
    static var reason: Comment { "this machine does not allow network namespaces: \(probeError ?? "")" }
}
