import CXMLBaseline
import Foundation
import Strata
import StrataConformance
import StrataXML

/// The limit the XML backend's `reopen` is measured against: libxml2's SAX2 parser alone, in C
/// (`Sources/CXMLBaseline`), reading and parsing the same kind of store file in this run — the
/// workload's owners and items written by the backend — and counting elements, attributes and text,
/// building nothing. `reopen` of the backend is that parse plus turning every record into values,
/// checking the checksum, replaying the journal and rebuilding the unique index, so the ratio shows
/// what the store adds to the parser. The other steps run in memory on the shared engine and have
/// no parser to compare with.
enum XMLBaseline {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(records: Int, step: String?) throws -> [String: WorkloadReport.Figure] {
        guard step == nil || step == "reopen" else { throw Failure(description: "The xml baseline has only the reopen step (a parse).") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-raw-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        let schema = WorkloadSchema.schema
        let owner = schema.entity(named: "Owner")!, item = schema.entity(named: "Item")!
        do {
            // The same save as the workload's insert step, folded into the document (at 100,000 items
            // the workload's own store folds it too; at fewer it stays in the journal, same bytes).
            let store = try XMLStore(XMLStoreConfiguration(url: file, schema: schema, journalThreshold: 0))
            let owners = (0..<records / 100).map { i in
                DefaultSnapshot(entity: owner, persistentIdentifier: .temporary(entity: "Owner"), attributes: [.string("owner-\(i)")], relationships: [.toMany([])])
            }
            let items = (0..<records).map { i in
                DefaultSnapshot(entity: item, persistentIdentifier: .temporary(entity: "Item"), attributes: WorkloadSchema.itemValues(i), relationships: [.toOne(owners[i / 100].persistentIdentifier)])
            }
            _ = try store.save(SaveRequest(inserted: owners + items))
        }
        let journal = (try? FileManager.default.attributesOfItem(atPath: file.path + ".journal")[.size] as? Int) ?? 0
        guard journal == 0 else { throw Failure(description: "raw XML baseline: the insert was not folded into the document (journal of \(journal) bytes)") }
        var counts = strata_xml_counts()
        var error = [CChar](repeating: 0, count: 512)
        var rc: Int32 = 0
        let start = ContinuousClock.now
        if step == "reopen" {
            try BenchCommand.bracket(only: "reopen")("reopen") { rc = strata_xml_baseline_parse(file.path, &counts, &error, error.count) }
        } else {
            rc = strata_xml_baseline_parse(file.path, &counts, &error, error.count)
        }
        let elapsed = ContinuousClock.now - start
        guard rc == 0 else { throw Failure(description: "raw XML baseline: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        guard counts.elements > Int64(records) else { throw Failure(description: "raw XML baseline: only \(counts.elements) elements parsed for \(records) records") }
        let ms = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 1000
        return ["reopen": .init(value: ms, unit: "ms")]
    }
}
