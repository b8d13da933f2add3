import CStrataBaselines
import CXMLBaseline
import Foundation
import StrataCSV
import StrataConformance
import StrataJSON
import StrataXML

/// The raw floors under the file backends' `reopen`: the store's files as the workload's insert step
/// leaves them, read and parsed by the plainest parser there is, building nothing from what it
/// parsed. The ratio `reopen` / this says what decoding records, checking checksums and references
/// and building the engine's state costs on top of reading the bytes at all. The other steps run in
/// memory on the shared engine and have no parser to compare with; `--step reopen` runs the parse
/// inside `strata_measure`, so callgrind counts it as it counts the backend's reopen.
enum FileParseBaseline {
    /// JSON: Foundation's `JSONSerialization` parses the document and every journal line (the JSON
    /// after each line's checksum).
    static func json(records: Int, step: String?) throws -> [String: WorkloadReport.Figure] {
        let factory = StoreFactory<JSONStore> { dir, schema in JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: .seconds(5)) }
        return try reopen(records: records, step: step, factory: factory) { directory in
            let document = try Data(contentsOf: directory.appendingPathComponent("store.json"))
            _ = try JSONSerialization.jsonObject(with: document)
            let journalURL = directory.appendingPathComponent("store.json.journal")
            guard let journal = try? Data(contentsOf: journalURL) else { return }
            // The first line is the journal's header (`strata-journal <store>`), not JSON.
            for line in journal.split(separator: UInt8(ascii: "\n")).dropFirst() where !line.isEmpty {
                guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { throw Failure(description: "journal line without checksum") }
                _ = try JSONSerialization.jsonObject(with: line[line.index(after: space)...])
            }
        }
    }

    /// CSV: a C byte-level RFC 4180 pass over every table file, counting records and fields.
    static func csv(records: Int, step: String?) throws -> [String: WorkloadReport.Figure] {
        let factory = StoreFactory<CSVStore> { dir, schema in CSVStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema, lockWait: .seconds(5)) }
        return try reopen(records: records, step: step, factory: factory) { directory in
            let folder = directory.appendingPathComponent("store")
            var rows: Int64 = 0
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".csv") {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                var count: Int64 = 0, fields: Int64 = 0
                let status = data.withUnsafeBytes { strata_csv_count($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &count, &fields) }
                guard status == 0 else { throw Failure(description: "\(name): unterminated quoted field") }
                rows += count
            }
            // every item and owner row, plus one header per table: the parse really read the tables
            guard rows > Int64(records + records / 100) else { throw Failure(description: "the tables hold \(rows) lines, expected more than \(records + records / 100)") }
        }
    }

    /// XML: libxml2's SAX2 parser alone, in C (`Benchmarks/CBaselines/CXMLBaseline`), counting elements, attributes
    /// and text. The insert is folded into the document (`journalThreshold: 0`; at 100,000 items the
    /// workload's own store folds it too, at fewer it stays in the journal, same bytes).
    static func xml(records: Int, step: String?) throws -> [String: WorkloadReport.Figure] {
        let factory = StoreFactory<XMLStore> { dir, schema in XMLStoreConfiguration(url: dir.appendingPathComponent("store.xml"), schema: schema, lockWait: .seconds(5), journalThreshold: 0) }
        let check = { (directory: URL) throws in
            // Folded, the journal holds its header line alone.
            let journal = (try? String(contentsOf: directory.appendingPathComponent("store.xml.journal"), encoding: .utf8)) ?? ""
            let lines = journal.split(separator: "\n").count
            guard lines <= 1 else { throw Failure(description: "raw XML baseline: the insert was not folded into the document (journal of \(lines) lines)") }
        }
        return try reopen(records: records, step: step, factory: factory, check: check) { directory in
            let file = directory.appendingPathComponent("store.xml").path
            var counts = strata_xml_counts()
            var error = [CChar](repeating: 0, count: 512)
            guard strata_xml_baseline_parse(file, &counts, &error, error.count) == 0 else {
                throw Failure(description: "raw XML baseline: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            guard counts.elements > Int64(records) else { throw Failure(description: "raw XML baseline: only \(counts.elements) elements parsed for \(records) records") }
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Populates a store as the insert step does, closes it, runs `check` on its files, and times
    /// `parse` over them (inside `strata_measure` for `--step reopen`).
    private static func reopen<Store>(
        records: Int, step: String?, factory: StoreFactory<Store>, check: (URL) throws -> Void = { _ in }, parse: (URL) throws -> Void
    ) throws -> [String: WorkloadReport.Figure] {
        guard step == nil || step == "reopen" else { throw Failure(description: "The file parse baselines measure only reopen (a parse); --step \(step!) has none.") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-raw-parse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { factory.destroy(directory) }
        try StandardWorkload.populate(factory, directory: directory, records: records)
        try check(directory)
        let start = ContinuousClock.now
        if let step {
            try BenchCommand.bracket(only: step)(step) { try parse(directory) }
        } else {
            try parse(directory)
        }
        let elapsed = ContinuousClock.now - start
        let ms = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1000
        return ["reopen": .init(value: ms, unit: "ms")]
    }
}
