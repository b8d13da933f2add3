import Foundation

/// One backend's part of the comparison report (`strata report`): who it is, how its store can be
/// opened, what it declares, how it did in the conformance suite and in the standard workload at each
/// store size, and what failed.
///
/// `strata report` builds one per built-in backend from child processes; a backend that lives outside
/// this repository builds the same fragment in its own executable (`BackendReport.measure`), writes it
/// with `write(to:)`, and `strata report --add FILE.json` merges it into the page. The layout is
/// versioned (`version`) so a reader can refuse what it does not understand.
public struct BackendReport: Sendable, Codable {
    /// The `format` value every fragment carries.
    public static let formatName = "strata-backend-report"
    /// The layout version this code writes and reads.
    public static let currentVersion = 1

    /// Always `strata-backend-report`.
    public var format: String
    /// The layout version (`currentVersion` when written by this code).
    public var version: Int
    /// The backend's name (`sqlite`, `my-backend`…).
    public var name: String
    /// One sentence saying what it is.
    public var summary: String
    /// `built-in` for backends of this repository, `added` for fragments merged with `--add`.
    public var origin: String
    /// How its store looks on disk and what opens it, when known.
    public var storage: StorageFormat?
    /// The capability names the backend declares (`StoreCapabilities.names`).
    public var capabilities: [String]
    /// Per-category conformance results, when the suite ran to the end.
    public var conformance: ConformanceSummary?
    /// What the raw-engine figures in `workloads[].baseline` measure, when there are any.
    public var baselineDescription: String?
    /// One standard-workload report per store size, in increasing size.
    public var workloads: [WorkloadReport]
    /// What went wrong (a crashed child, a failed step…); empty when everything ran.
    public var failures: [String]
    /// How long schema migrations took at N (`strata migration-bench`), when they were measured.
    public var migration: MigrationTimes?
    /// The workload at N at the lighter durability level (`processCrash`), for a backend that offers
    /// one beside its default (SQLite, LMDB), so the report shows what power-loss safety costs.
    public var lighterDurability: WorkloadReport?

    /// Migration times of the migration torture's store (`MigrationWorkload`) at `records` items.
    public struct MigrationTimes: Sendable, Codable, Hashable {
        /// The items in the store.
        public var records: Int
        /// A lightweight migration adding one attribute with a default.
        public var addAttributeMilliseconds: Double
        /// v1 → v2, lightweight: a rename, an added attribute, an index, a new unique constraint.
        public var lightweightMilliseconds: Double
        /// v2 → v3: an entity rename and a removed attribute; with `willMigrate` and `didMigrate`
        /// code over every record when `customStage` holds.
        public var v2ToV3Milliseconds: Double
        /// Whether v2 → v3 ran as a custom stage (backends that take a whole path in one step).
        public var customStage: Bool

        /// Times measured on a store of `records` items.
        public init(records: Int, addAttributeMilliseconds: Double, lightweightMilliseconds: Double, v2ToV3Milliseconds: Double, customStage: Bool) {
            self.records = records
            self.addAttributeMilliseconds = addAttributeMilliseconds
            self.lightweightMilliseconds = lightweightMilliseconds
            self.v2ToV3Milliseconds = v2ToV3Milliseconds
            self.customStage = customStage
        }
    }

    /// A fragment; `format` and `version` are set to this code's.
    public init(
        name: String, summary: String, origin: String = "added", storage: StorageFormat? = nil, capabilities: [String] = [],
        conformance: ConformanceSummary? = nil, baselineDescription: String? = nil, workloads: [WorkloadReport] = [], failures: [String] = []
    ) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.name = name
        self.summary = summary
        self.origin = origin
        self.storage = storage
        self.capabilities = capabilities
        self.conformance = conformance
        self.baselineDescription = baselineDescription
        self.workloads = workloads
        self.failures = failures
    }

    /// How a backend's store looks on disk and which tools open it (the report's format column and
    /// the advice's "human-readable" facts).
    public struct StorageFormat: Sendable, Codable, Hashable {
        /// The files, e.g. "one SQLite 3 database file".
        public var description: String
        /// Tools that open it without Strata, e.g. `sqlite3`.
        public var tools: [String]
        /// Whether a person can read and diff it in a text editor.
        public var humanReadable: Bool
        /// Whether the data outlives the process.
        public var onDisk: Bool
        /// A storage format description.
        public init(description: String, tools: [String], humanReadable: Bool, onDisk: Bool = true) {
            self.description = description
            self.tools = tools
            self.humanReadable = humanReadable
            self.onDisk = onDisk
        }
    }

    /// The workload report at `records` items, if that size ran.
    public func workload(records: Int) -> WorkloadReport? { workloads.first { $0.records == records } }

    /// The fragment as pretty-printed JSON (sorted keys; figures that are not finite are dropped, as
    /// JSON has no NaN).
    public func encoded() throws -> Data {
        var copy = self
        copy.workloads = workloads.map(\.finiteOnly)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(copy)
    }

    /// Writes the fragment to `url` (for `strata report --add`).
    public func write(to url: URL) throws { try encoded().write(to: url, options: .atomic) }

    /// Reads a fragment, refusing another format or a newer version with a message that says so.
    public static func read(from url: URL) throws -> BackendReport {
        let data = try Data(contentsOf: url)
        struct Header: Decodable { var format: String?; var version: Int? }
        let header = try JSONDecoder().decode(Header.self, from: data)
        guard header.format == formatName else {
            throw ReadError(description: "\(url.path) is not a Strata backend report (format \(header.format ?? "missing"), expected \(formatName))")
        }
        guard let version = header.version, version <= currentVersion else {
            throw ReadError(description: "\(url.path) is backend report version \(header.version.map(String.init) ?? "missing"); this Strata reads up to \(currentVersion)")
        }
        return try JSONDecoder().decode(BackendReport.self, from: data)
    }

    /// A file that is not a fragment this code can read.
    public struct ReadError: Error, CustomStringConvertible {
        /// What is wrong with the file.
        public let description: String
    }
}

extension WorkloadReport {
    /// The report without figures that are NaN or infinite (JSON cannot hold them; absent means not measured).
    public var finiteOnly: WorkloadReport {
        var copy = self
        copy.steps = steps.filter { $0.value.value.isFinite }
        copy.baseline = baseline?.filter { $0.value.value.isFinite }
        return copy
    }
}
