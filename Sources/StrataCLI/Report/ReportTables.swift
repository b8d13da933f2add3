import Foundation
import Strata
import StrataConformance

/// One part of the report — a title, paragraphs, an optional table and a list — in a neutral form the
/// Markdown and HTML pages both render, so the two always show the same tables.
struct ReportSection {
    /// A short id (`workload`, `conformance`…), for anchors and for placing charts.
    var id: String
    var title: String
    var paragraphs: [String] = []
    var header: [String] = []
    var rows: [[String]] = []
    var list: [String] = []
}

/// The report's sections, built from a report document: backends and formats, conformance,
/// capabilities, the workload at N with ratios, the scaling of one-record saves and reopening, the
/// advice, and failures.
struct ReportTables {
    let document: ReportDocument

    var sections: [ReportSection] {
        [backendsTable(), conformanceMatrix(), capabilityMatrix(), workloadTable(), durabilityTable(), scalingTable(), peersTable(), goalsTable(), migrationTable(), document.conversions?.section, advice(), failures()].compactMap { $0 }
    }

    /// The lines under the page title: version, date, machine, sizes.
    var preamble: [String] {
        ["Strata \(document.strataVersion), generated \(document.generated). Machine: \(document.machine.line).",
         "Workload: docs/workload.md at N = \(ReportFormatting.grouped(Double(document.records))) records; store sizes \(document.sizes.map { ReportFormatting.grouped(Double($0)) }.joined(separator: ", "))."]
    }

    private var backends: [BackendReport] { document.backends }

    private func backendsTable() -> ReportSection {
        ReportSection(
            id: "backends", title: "Backends and their formats", header: ["backend", "origin", "what it is", "store on disk", "opens with"],
            rows: backends.map { b in
                [b.name, b.origin, b.summary, b.storage?.description ?? "not stated", b.storage.map { $0.tools.isEmpty ? "—" : $0.tools.joined(separator: ", ") } ?? "not stated"]
            })
    }

    /// A matrix cell: `12 passed`, `10 passed, 2 skipped`, `9 passed, 1 failed`.
    static func conformanceCell(_ c: ConformanceSummary.Category?) -> String {
        guard let c else { return "—" }
        var parts = ["\(c.passed) passed"]
        if c.failed > 0 { parts.append("\(c.failed) failed") }
        if c.skipped > 0 { parts.append("\(c.skipped) skipped") }
        return parts.joined(separator: ", ")
    }

    /// Migration times per backend on disk (`strata migration-bench` at N), when measured.
    private func migrationTable() -> ReportSection? {
        let measured = backends.compactMap { b in b.migration.map { (b.name, $0) } }
        guard !measured.isEmpty else { return nil }
        return ReportSection(
            id: "migrations", title: "Schema migrations",
            paragraphs: ["The migration torture's store (docs/migrations.md) at N items: adding one attribute with a default (lightweight); v1 → v2, lightweight (a rename, an added attribute, an index, a new unique constraint); v2 → v3 (an entity rename and a removed attribute), as a custom stage whose willMigrate and didMigrate change every record where the backend takes a whole stage in one atomic step, else lightweight."],
            header: ["backend", "records", "add attribute", "v1 → v2 (lightweight)", "v2 → v3", "v2 → v3 ran as"],
            rows: measured.map { name, m in
                [name, ReportFormatting.grouped(Double(m.records)), String(format: "%.1f ms", m.addAttributeMilliseconds), String(format: "%.1f ms", m.lightweightMilliseconds),
                 String(format: "%.1f ms", m.v2ToV3Milliseconds), m.customStage ? "custom stage" : "lightweight"]
            })
    }

    private func conformanceMatrix() -> ReportSection {
        var section = ReportSection(id: "conformance", title: "Conformance", paragraphs: ["Cases per category of the conformance suite (docs/conformance.md); required categories must pass in full."], header: ["category"] + backends.map(\.name))
        let names = backends.flatMap { $0.conformance?.categories.map(\.name) ?? [] }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for name in names {
            let required = backends.compactMap { $0.conformance?.categories.first { $0.name == name } }.first?.required ?? false
            section.rows.append([name + (required ? " (required)" : "")] + backends.map { b in
                b.conformance == nil ? "did not run" : Self.conformanceCell(b.conformance?.categories.first { $0.name == name })
            })
        }
        section.rows.append(["total"] + backends.map { b in b.conformance.map { "\($0.passed) passed, \($0.failed) failed, \($0.skipped) skipped" } ?? "did not run" })
        section.list = backends.flatMap { b in
            (b.conformance?.categories ?? []).flatMap { c in
                c.failures.map { "\(b.name) \($0.id) failed: \($0.message)" } + c.skips.map { "\(b.name) \($0.id) skipped: \($0.message)" }
            }
        }
        return section
    }

    private func capabilityMatrix() -> ReportSection {
        var section = ReportSection(id: "capabilities", title: "Capabilities", paragraphs: ["What each backend declares (StoreCapabilities) and whether its files are readable as text."], header: ["capability"] + backends.map(\.name))
        for name in ReportAdvice.capabilityNames(backends) { section.rows.append([name] + backends.map { $0.capabilities.contains(name) ? "yes" : "—" }) }
        section.rows.append(["human-readable files"] + backends.map { b in b.storage.map { $0.humanReadable ? "yes" : "—" } ?? "?" })
        return section
    }

    private func workloadTable() -> ReportSection {
        let n = document.records
        var section = ReportSection(
            id: "workload", title: "Standard workload at N = \(ReportFormatting.grouped(Double(n)))",
            paragraphs: ["Each cell: the figure, its ratio to the best backend (best, or ×0.50 = half the best's speed) and, where the backend has a raw engine beneath it, its ratio to that engine (raw ×0.50 = half the engine's speed, or twice its size). Ratios are relative speeds whatever the unit.",
                "Durability of every figure: each backend runs at its default. Every persistent backend's default is SaveDurability.powerLoss: a save returns only after what it wrote is synced to stable storage (SQLite synchronous = FULL, LMDB without MDB_NOMETASYNC, JSON, XML and CSV fsync their files and folder), and the raw SQLite and LMDB engines run with the same settings, so every save figure (insert, update-one, update-batch, cascade-delete) compares equal promises. The memory backend keeps nothing past its process: its save figures promise less (docs/store-contract.md, \"Durability\"). PostgreSQL runs at its server's level (the durability row; \"What power-loss safety costs\" says how), and its raw C on libpq on the same server, so at the same level."],
            header: ["step", "unit"] + backends.map(\.name))
        section.rows.append(["durability", "level"] + backends.map { b in
            guard let w = b.workload(records: n) else { return "—" }
            return w.durability?.rawValue ?? (b.storage?.onDisk == false ? "none (in memory)" : "not stated")
        })
        for step in document.steps {
            let unit = backends.compactMap { $0.workload(records: n)?.steps[step]?.unit }.first ?? ""
            section.rows.append([step, unit] + backends.map { b in
                guard let r = document.ratio(b.name, step, n) else { return "—" }
                var cell = ReportFormatting.bare(r.value, r.unit)
                if let toBest = r.toBest { cell += toBest >= 0.9995 ? " (best)" : " (\(ReportFormatting.ratio(toBest)))" }
                if let raw = r.toBaseline { cell += ", raw \(ReportFormatting.ratio(raw))" }
                return cell
            })
        }
        section.list = backends.map { "raw for \($0.name): \($0.baselineDescription ?? "no raw engine baseline")" }
        return section
    }

    /// insert and update-one at both durability levels, for the backends that offer both: what
    /// power-loss safety costs on each, against its raw engine at the same level.
    private func durabilityTable() -> ReportSection? {
        let n = document.records
        let both = backends.compactMap { b in b.lighterDurability.flatMap { light in b.workload(records: n).map { (b.name, $0, light) } } }
        // A backend on a server (no store on this machine's disk, yet durable) runs at its server's
        // level only: one of the two columns is filled, the other is the server's setting to change.
        let servers = backends.compactMap { b -> (String, WorkloadReport)? in
            guard b.storage?.onDisk == false, b.lighterDurability == nil, let w = b.workload(records: n), w.durability != nil else { return nil }
            return (b.name, w)
        }
        guard !both.isEmpty || !servers.isEmpty else { return nil }
        func cell(_ w: WorkloadReport, _ step: String) -> String {
            guard let f = w.steps[step] else { return "—" }
            return ReportFormatting.bare(f.value, f.unit) + (w.relativeSpeed(step).map { ", raw \(ReportFormatting.ratio($0))" } ?? "")
        }
        func serverCell(_ w: WorkloadReport, _ step: String, _ level: SaveDurability) -> String {
            w.durability == level ? cell(w, step) : "— (server setting)"
        }
        return ReportSection(
            id: "durability", title: "What power-loss safety costs",
            paragraphs: ["insert and update-one at N = \(ReportFormatting.grouped(Double(n))) at both durability levels (docs/store-contract.md, \"Durability\"): powerLoss, the default (a returned save survives power loss: SQLite synchronous = FULL, LMDB syncing data and metadata), and processCrash (it survives the process being killed: SQLite synchronous = NORMAL, LMDB MDB_NOMETASYNC). Each raw engine runs at the same level as its backend. JSON, CSV and XML sync every save, so they have only powerLoss; the memory backend has no level. PostgreSQL's level is its server's, not the client's: powerLoss with fsync on, processCrash with fsync off (the commit is in the server's write-ahead log, written but not flushed: it survives any process being killed, the server's included), synchronous_commit on in both; its C baseline runs on the same server, so at the same level. The report's private test server runs with fsync off."],
            header: ["backend", "insert, powerLoss", "insert, processCrash", "update-one, powerLoss", "update-one, processCrash"],
            rows: both.map { name, heavy, light in [name, cell(heavy, "insert"), cell(light, "insert"), cell(heavy, "update-one"), cell(light, "update-one")] }
                + servers.map { name, w in
                    [name, serverCell(w, "insert", .powerLoss), serverCell(w, "insert", .processCrash), serverCell(w, "update-one", .powerLoss), serverCell(w, "update-one", .processCrash)]
                })
    }

    private func scalingTable() -> ReportSection? {
        guard document.sizes.count > 1 else { return nil }
        let sizes = document.sizes
        return ReportSection(
            id: "scaling", title: "One-record save and reopen against store size",
            paragraphs: ["O(change) backends keep update-one flat as the store grows; O(store) backends grow with it. Growth is the slope of log(time) against log(size): 0 = flat, 1 = proportional."],
            header: ["backend"] + sizes.map { "update-one ms, \(ReportFormatting.short($0))" } + sizes.map { "reopen ms, \(ReportFormatting.short($0))" } + ["update-one growth"],
            rows: backends.map { b in
                let cells = ["update-one", "reopen"].flatMap { step in sizes.map { n in b.workload(records: n)?.steps[step].map { ReportFormatting.significant($0.value) } ?? "—" } }
                return [b.name] + cells + [ReportAdvice.growth(of: b, step: "update-one", sizes: sizes)?.description ?? "—"]
            })
    }

    /// The peers benchmark (`make peers`): Strata's model layer beside GRDB's records, each against raw
    /// C on SQLite measured in the same run, at the same durability.
    private func peersTable() -> ReportSection? {
        guard let peers = document.peers, let first = peers.peers.first else { return nil }
        let names = peers.peers.map(\.backend)
        let runs = first.runs.map { $0 > 1 ? ", medians of \($0) runs" : "" } ?? ""
        var section = ReportSection(
            id: "peers", title: "Strata's model layer beside its peers on SQLite",
            paragraphs: [
                "The standard workload at N = \(ReportFormatting.grouped(Double(peers.records))) on SQLite, every library in one process run (make peers, Benchmarks/Peers\(runs)). Each cell: the figure and its speed relative to raw C on SQLite in the same run (×1.00 = as fast as C). The last column is Strata's model layer relative to GRDB's hand-written records (above ×1.00: Strata is faster).",
                "Durability: every library and raw C run at SaveDurability.\(peers.durability.rawValue) (\(peers.settings)), so the save steps compare equal promises.",
            ],
            header: ["step", "unit", "raw C"] + names + (names.contains("strata-model") && names.contains("grdb-records") ? ["model ÷ GRDB records"] : []))
        for step in first.order {
            guard let raw = first.baseline?[step] else { continue }
            var row = [step, raw.unit, ReportFormatting.bare(raw.value, raw.unit)]
            for peer in peers.peers {
                guard let f = peer.steps[step] else { row.append("—"); continue }
                row.append(ReportFormatting.bare(f.value, f.unit) + (peer.relativeSpeed(step).map { " (\(ReportFormatting.ratio($0)))" } ?? ""))
            }
            if let model = peers.peers.first(where: { $0.backend == "strata-model" })?.relativeSpeed(step),
               let grdb = peers.peers.first(where: { $0.backend == "grdb-records" })?.relativeSpeed(step), grdb > 0 {
                row.append(ReportFormatting.ratio(model / grdb))
            } else if section.header.count > row.count {
                row.append("—")
            }
            section.rows.append(row)
        }
        section.list = (["raw-c"] + names).compactMap { name in peers.descriptions[name].map { "\(name): \($0)" } }
        return section
    }

    private func advice() -> ReportSection {
        ReportSection(
            id: "choose", title: "Which backend should I choose",
            paragraphs: ["Written from this report's figures and declared capabilities (nothing here is typed in by hand)."] + ReportAdvice.rankings(document),
            list: backends.map { "\($0.name): " + ReportAdvice.facts(document, $0).joined(separator: "; ") + "." })
    }

    private func failures() -> ReportSection? {
        let lines = backends.flatMap { b in b.failures.map { "\(b.name): \($0)" } }
        return lines.isEmpty ? nil : ReportSection(id: "failures", title: "Failures", list: lines)
    }
}
