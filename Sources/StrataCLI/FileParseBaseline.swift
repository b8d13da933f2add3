import CStrataBaselines
import Foundation
import StrataCSV
import StrataConformance
import StrataJSON

/// The raw floors under the file backends' `reopen`: the store's files as the workload's insert step
/// leaves them, read and parsed by the plainest parser there is, building nothing from what it
/// parsed. The ratio `reopen` / this says what decoding records, checking checksums and references
/// and building the engine's state costs on top of reading the bytes at all.
enum FileParseBaseline {
    /// JSON: Foundation's `JSONSerialization` parses the document and every journal line (the JSON
    /// after each line's checksum).
    static func json(records: Int) throws -> [String: WorkloadReport.Figure] {
        let factory = StoreFactory<JSONStore> { dir, schema in JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: .seconds(5)) }
        return try reopen(records: records, factory: factory) { directory in
            let document = try Data(contentsOf: directory.appendingPathComponent("store.json"))
            _ = try JSONSerialization.jsonObject(with: document)
            let journalURL = directory.appendingPathComponent("store.json.journal")
            guard let journal = try? Data(contentsOf: journalURL) else { return }
            for line in journal.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
                guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { throw Failure(description: "journal line without checksum") }
                _ = try JSONSerialization.jsonObject(with: line[line.index(after: space)...])
            }
        }
    }

    /// CSV: a C byte-level RFC 4180 pass over every table file, counting records and fields.
    static func csv(records: Int) throws -> [String: WorkloadReport.Figure] {
        let factory = StoreFactory<CSVStore> { dir, schema in CSVStoreConfiguration(folder: dir.appendingPathComponent("store"), schema: schema, lockWait: .seconds(5)) }
        return try reopen(records: records, factory: factory) { directory in
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

    /// Runs `body` unless a single step was asked for (`bench --step`): these baselines measure only
    /// `reopen`, outside `strata_measure`.
    static func onlyReopen(_ step: String?, _ body: () throws -> [String: WorkloadReport.Figure]) throws -> [String: WorkloadReport.Figure] {
        guard step == nil else { throw Failure(description: "The file parse baselines measure only reopen and cannot run one step inside strata_measure (--step).") }
        return try body()
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Populates a store as the insert step does, closes it, and times `parse` over its files.
    private static func reopen<Store>(records: Int, factory: StoreFactory<Store>, parse: (URL) throws -> Void) throws -> [String: WorkloadReport.Figure] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-raw-parse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { factory.destroy(directory) }
        try StandardWorkload.populate(factory, directory: directory, records: records)
        let start = ContinuousClock.now
        try parse(directory)
        let elapsed = ContinuousClock.now - start
        let ms = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1000
        return ["reopen": .init(value: ms, unit: "ms")]
    }
}
