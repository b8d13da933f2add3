import Foundation
import Strata
import StrataConformance

/// `report.json`: everything `strata report` measured, in the versioned layout docs/report.md
/// describes, so reports from different days and machines can be compared by a program.
struct ReportDocument: Encodable {
    /// Always `strata-report`.
    var format = "strata-report"
    /// The layout version; bump it when a field changes meaning or goes away.
    var version = 1
    /// When the report was made (ISO 8601, UTC).
    var generated: String
    /// The Strata version that made it.
    var strataVersion = StrataVersion.current
    /// Where it ran.
    var machine: ReportMachine
    /// N, the store size the workload table shows.
    var records: Int
    /// Every store size the workload ran at, increasing.
    var sizes: [Int]
    /// One fragment per backend, built-in first, then added ones, in the order given.
    var backends: [BackendReport]
    /// Every figure with its ratio to the best backend and to its raw engine.
    var ratios: [ReportRatio]
    /// The peers benchmark (`make peers`): other SQLite libraries in one run, when given (`--peers`).
    var peers: PeersReport?
    /// Converts between backends (`strata convert-bench`), when run: records/s per pair.
    var conversions: ReportConversions?

    init(generated: Date = Date(), records: Int, sizes: [Int], backends: [BackendReport], peers: PeersReport? = nil, conversions: ReportConversions? = nil) {
        self.generated = ISO8601DateFormatter().string(from: generated)
        self.machine = .current
        self.records = records
        self.sizes = sizes
        self.backends = backends
        self.ratios = ReportRatio.all(backends)
        self.peers = peers
        self.conversions = conversions
    }

    /// The steps in workload order, as the backends' reports list them.
    var steps: [String] {
        var order: [String] = []
        for step in backends.flatMap({ $0.workloads.flatMap(\.order) }) where !order.contains(step) { order.append(step) }
        return order
    }

    /// The ratio entry of one figure, if it was measured.
    func ratio(_ backend: String, _ step: String, _ records: Int) -> ReportRatio? {
        ratios.first { $0.backend == backend && $0.step == step && $0.records == records }
    }

    /// The document as pretty-printed JSON with sorted keys.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// The machine a report ran on: enough to tell whether two reports can be compared.
struct ReportMachine: Encodable {
    /// Active processor cores.
    var cores: Int
    /// Physical memory in bytes.
    var memoryBytes: UInt64
    /// The CPU's model name from /proc/cpuinfo (`unknown` where there is none).
    var cpuModel: String
    /// The operating system's name and kernel release.
    var os: String

    /// The machine this process runs on.
    static var current: ReportMachine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":", maxSplits: 1).last
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let pretty = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }.map { String($0.dropFirst(12)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return ReportMachine(
            cores: ProcessInfo.processInfo.activeProcessorCount, memoryBytes: ProcessInfo.processInfo.physicalMemory,
            cpuModel: model.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown",
            os: [pretty ?? "Linux", kernel.isEmpty ? nil : "kernel \(kernel)"].compactMap { $0 }.joined(separator: ", "))
    }

    /// One line for the page's header.
    var line: String {
        "\(cores) cores, \(String(format: "%.1f", Double(memoryBytes) / 1_073_741_824)) GiB, \(cpuModel), \(os)"
    }
}
