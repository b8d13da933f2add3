import Foundation
import GRDB
import PeersCBaselines
import Strata
import StrataConformance
import StrataLMDB
import StrataSQLite

// strata-peers: the standard workload (docs/workload.md) on SQLite three ways in one process —
// Strata's model layer, GRDB 7.10's records (hand-written and Codable) and raw C — each at
// SaveDurability.powerLoss (WAL, synchronous = FULL). Build and run with `make peers`.
//
//   strata-peers [--records N] [--runs K] [--out FILE.json]
//   strata-peers --only strata-model --step scan     (one step inside strata_measure, for callgrind)
//   strata-peers --only strata-model-lmdb --step scan (the model layer on LMDB: callgrind only, not a peer)

/// The command line: `--name value` pairs.
struct Options {
    var records = 100_000
    var runs = 1
    var out: String?
    var only: String?
    var step: String?

    init(_ arguments: [String]) throws {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw WorkloadError("\(flag) needs a value") }
            switch flag {
            case "--records": records = Int(value) ?? 0
            case "--runs": runs = Int(value) ?? 0
            case "--out": out = value
            case "--only": only = value
            case "--step": step = value
            default: throw WorkloadError("unknown option \(flag); options: --records N --runs K --out FILE --only PEER --step STEP")
            }
        }
        guard records >= 1_000, records % 100 == 0 else { throw WorkloadError("--records must be a multiple of 100 and at least 1000") }
        guard runs >= 1 else { throw WorkloadError("--runs must be at least 1") }
        if let only, !(Peer.all + Peer.callgrindOnly).map(\.name).contains(only), only != Peer.raw { throw WorkloadError("unknown peer \(only); peers: \(Peer.raw), \(Peer.all.map(\.name).joined(separator: ", "))") }
    }
}

/// One library measured against raw C.
struct Peer: Sendable {
    let name: String
    let description: String
    let run: @Sendable (_ records: Int, _ bracket: StandardWorkload.StepBracket?) throws -> [String: WorkloadReport.Figure]

    /// The name of the raw C baseline.
    static let raw = "raw-c"

    /// Strata's SQLite backend at its default durability (powerLoss: WAL, synchronous = FULL).
    static let sqlite = StoreFactory<SQLiteStore> { directory, schema in SQLiteStoreConfiguration(url: directory.appendingPathComponent("store.sqlite"), schema: schema) }

    /// Strata's LMDB backend at its default durability.
    static let lmdb = StoreFactory<LMDBStore> { directory, schema in LMDBStoreConfiguration(folder: directory.appendingPathComponent("store.lmdb"), schema: schema) }

    /// Runs `--only` accepts that are not peers (no GRDB counterpart): the model layer on another backend.
    static let callgrindOnly: [Peer] = [
        Peer(
            name: "strata-model-lmdb", description: "Strata's model layer on LMDBStoreConfiguration (callgrind of the model layer over LMDB's own snapshots).",
            run: { records, bracket in try ModelWorkload.run(factory: lmdb, records: records, bracket: bracket) }),
    ]

    static let all: [Peer] = [
        Peer(
            name: "strata-model",
            description: "Strata's model layer: @Model classes, ModelContainer on SQLiteStoreConfiguration (powerLoss), ModelContext, #Predicate — the code strata-model-bench runs (ModelWorkload.swift).",
            run: { records, bracket in try ModelWorkload.run(factory: sqlite, records: records, bracket: bracket) }),
        Peer(
            name: "grdb-records",
            description: "GRDB 7.10 hand-written records (FetchableRecord init(row:) by column index, PersistableRecord encode(to:)), DatabaseQueue, one write/read transaction per step, cached statements.",
            run: { records, bracket in try GRDBWorkload.run(HandWrittenOwner.self, HandWrittenItem.self, records: records, bracket: bracket) }),
        Peer(
            name: "grdb-codable",
            description: "GRDB 7.10 Codable records (init(row:) and encode(to:) derived from Codable), otherwise the same code as grdb-records.",
            run: { records, bracket in try GRDBWorkload.run(CodableOwner.self, CodableItem.self, records: records, bracket: bracket) }),
    ]
}

/// The raw C workload (`strata bench --backend sqlite --baseline`'s), in a fresh directory.
func rawC(records: Int, step: String?) throws -> [String: WorkloadReport.Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-peers-raw-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var f = strata_baseline_figures()
    let status = directory.path.withCString { path in
        if let step { return step.withCString { strata_sqlite_baseline(path, Int32(records), $0, &f) } }
        return strata_sqlite_baseline(path, Int32(records), nil, &f)
    }
    guard status == 0 else { throw WorkloadError("raw C failed: " + withUnsafeBytes(of: f.error) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }) }
    return [
        "insert": .init(value: f.insert_per_second, unit: "records/s"), "reopen": .init(value: f.reopen_ms, unit: "ms"),
        "fetch-by-id": .init(value: f.fetch_by_id_per_second, unit: "lookups/s"), "scan": .init(value: f.scan_per_second, unit: "records/s"),
        "filter": .init(value: f.filter_ms, unit: "ms"), "update-one": .init(value: f.update_one_ms, unit: "ms (median)"),
        "update-batch": .init(value: f.update_batch_per_second, unit: "records/s"), "unique-violation": .init(value: f.unique_violation_ms, unit: "ms"),
        "cascade-delete": .init(value: f.cascade_delete_ms, unit: "ms"), "size": .init(value: f.size_bytes, unit: "bytes"),
    ]
}

/// A bracket that runs `chosen` inside `strata_measure`, so callgrind's `--toggle-collect=strata_measure` counts it alone.
func measuring(_ chosen: String) -> StandardWorkload.StepBracket {
    { step, body in
        guard step == chosen else { return try body() }
        final class Box { var body: () throws -> Void; var error: Error?; init(_ b: @escaping () throws -> Void) { body = b } }
        try withoutActuallyEscaping(body) { body in
            let box = Box(body)
            strata_measure({ context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                do { try box.body() } catch { box.error = error }
            }, Unmanaged.passUnretained(box).toOpaque())
            if let error = box.error { throw error }
        }
    }
}

let steps = ["insert", "reopen", "fetch-by-id", "scan", "filter", "update-one", "update-batch", "unique-violation", "cascade-delete", "size"]

do {
    let options = try Options(CommandLine.arguments)
    let bracket = options.step.map(measuring)
    if let only = options.only {
        // One peer once (callgrind): no table, no JSON.
        if only == Peer.raw { _ = try rawC(records: options.records, step: options.step) } else { _ = try (Peer.all + Peer.callgrindOnly).first { $0.name == only }!.run(options.records, bracket) }
        exit(0)
    }
    var raws: [[String: WorkloadReport.Figure]] = []
    var figures: [String: [[String: WorkloadReport.Figure]]] = [:]
    for round in 0..<options.runs {
        // Each round: raw C, then the peers, starting with a different one each round.
        raws.append(try rawC(records: options.records, step: nil))
        for k in 0..<Peer.all.count {
            let peer = Peer.all[(k + round) % Peer.all.count]
            FileHandle.standardError.write(Data("round \(round + 1)/\(options.runs): \(peer.name)\n".utf8))
            figures[peer.name, default: []].append(try peer.run(options.records, nil))
        }
    }
    let raw = WorkloadReport.medianFigures(raws)
    let reports = Peer.all.map { peer in
        var report = WorkloadReport(backend: peer.name, records: options.records, steps: WorkloadReport.medianFigures(figures[peer.name]!), order: steps, version: StrataVersion.current, machine: .current, baseline: raw)
        report.runs = options.runs
        report.durability = .powerLoss
        return report
    }
    let document = PeersReport(
        records: options.records, durability: .powerLoss, settings: "journal_mode = WAL, synchronous = FULL (raw C, GRDB and Strata alike)", peers: reports,
        descriptions: Dictionary(uniqueKeysWithValues: Peer.all.map { ($0.name, $0.description) } + [(Peer.raw, "The SQLite C API in C, the baseline of strata bench --backend sqlite --baseline (Benchmarks/CBaselines/CStrataBaselines/sqlite_baseline.c).")]))
    for report in reports { print(report.table + "\n") }
    if let out = options.out {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(document).write(to: URL(fileURLWithPath: out))
        print("wrote \(out)")
    }
} catch {
    FileHandle.standardError.write(Data("strata-peers: \(error)\n".utf8))
    exit(1)
}
