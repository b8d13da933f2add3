import Foundation
import StrataConformance
import StrataJSON
import Synchronization
import Testing

/// `ConformanceWithFolds` is only worth its time if its stores really fold while a case runs. A
/// document records the journal sequence it holds: 0 when created, the sequence of the last folded
/// save after a fold. This factory reads it from each case's store before removing the store.
@Suite struct JSONFoldingRunTests {
    @Test func suiteCasesFoldTheirJournals() throws {
        let stores = Mutex<(all: Int, folded: Int)>((0, 0))
        let factory = StoreFactory<JSONStore>(
            configuration: { dir, schema in
                JSONStoreConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: .seconds(5), journalThreshold: 256)
            },
            destroy: { dir in
                let document = (try? String(contentsOf: dir.appendingPathComponent("store.json"), encoding: .utf8)) ?? ""
                let sequence = document.split(separator: "\n").first { $0.contains("\"journalSequence\":") }
                    .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))) }
                stores.withLock { counts in
                    if sequence != nil { counts.all += 1 }
                    if let sequence, sequence > 0 { counts.folded += 1 }
                }
                try? FileManager.default.removeItem(at: dir)
            })
        let cases = ConformanceSuite.cases.filter { $0.id.hasPrefix("persistence.") || $0.id.hasPrefix("relationships.") }
        let results = ConformanceSuite.run(on: factory, cases: cases)
        for result in results { #expect(result.outcome == .passed, "\(result.caseID): \(result.outcome)") }
        let counts = stores.withLock { $0 }
        #expect(counts.all > 0, "no case left a JSON document to read")
        #expect(counts.folded > 0, "\(counts.all) stores, none folded: the folding run never folds")
    }
}
