import Foundation
import StrataTestSupport

/// A PostgreSQL cluster of one test's own (Tests/Postgres/cluster.sh), for what the shared test
/// server must not suffer: being stopped and restarted, a replica, other listening addresses.
/// Every step runs the script and waits for it to finish (pg_ctl waits until the server is up or
/// down), so the tests wait on the server's own state, not on time.
final class PostgresPrivateCluster: @unchecked Sendable {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Postgres/cluster.sh")

    let directory: URL
    /// DIR/env's settings.
    let settings: [String: String]

    /// The URL over its Unix socket (no password).
    var url: String { settings["STRATA_POSTGRES_URL"] ?? "" }
    /// The URL over loopback TCP, with its password.
    var tcpURL: String { settings["STRATA_POSTGRES_TCP_URL"] ?? "" }
    /// Its password.
    var password: String { settings["STRATA_POSTGRES_PASSWORD"] ?? "" }
    /// Its TCP port.
    var port: String { settings["PGPORT"] ?? "" }

    /// Starts a new cluster (`environment` adds settings for the script, e.g. `STRATA_PG_LISTEN`).
    convenience init(environment: [String: String] = [:]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-postgres-test-\(UUID().uuidString.prefix(8))")
        try Self.run(["start", directory.path], environment: environment)
        try self.init(directory: directory)
    }

    /// A hot standby streaming from `primary`, in a folder of its own.
    convenience init(replicaOf primary: PostgresPrivateCluster) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-postgres-replica-\(UUID().uuidString.prefix(8))")
        try Self.run(["replica", directory.path, primary.directory.path])
        try self.init(directory: directory)
    }

    private init(directory: URL) throws {
        self.directory = directory
        var settings: [String: String] = [:]
        for line in try String(contentsOf: directory.appendingPathComponent("env"), encoding: .utf8).split(separator: "\n") {
            guard line.hasPrefix("export "), let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[line.index(line.startIndex, offsetBy: 7)..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        }
        self.settings = settings
    }

    /// Stops the server (`fast` or `immediate`), keeping its data; returns once it is down.
    func pause(_ mode: String) throws { try Self.run(["pause", directory.path, mode]) }

    /// Starts it again on the same port; returns once it accepts connections.
    func resume() throws { try Self.run(["resume", directory.path]) }

    /// Stops it and removes its folder.
    func remove() { try? Self.run(["stop", directory.path]) }

    /// Runs psql on it (over the socket) and returns the output without the final newline.
    @discardableResult
    func psql(_ sql: String) throws -> String {
        let psql = URL(fileURLWithPath: (settings["STRATA_POSTGRES_BIN"] ?? "/usr/bin") + "/psql")
        let run = try ChildProcess.run(psql, ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql], environment: settings)
        guard run.status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "psql failed: \(sql): \(run.errors)"]) }
        return run.output.trimmingCharacters(in: .newlines)
    }

    private static func run(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cluster.sh \(arguments.joined(separator: " ")) failed"])
        }
    }
}
