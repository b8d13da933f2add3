import Foundation
import Strata
import StrataConformance
import StrataJSON
import Synchronization
import Testing

/// Issue 29: a reader racing the writer's folds was told `corruptStore` ("restore the store from a
/// backup") for a healthy store, 3 times in 728 reads, when its read of the journal was cut short by
/// the fold emptying it: the retry looked only at the document. Every read must now succeed.
struct JSONFoldRaceTests {
    @Test func aReaderRacingFoldsNeverCallsAHealthyStoreCorrupt() throws {
        let dir = try JSONFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.json")
        // A fold every few saves, with a journal of several read(2) chunks (64 KiB each) to cut short.
        let writer = try JSONFileTests.open(file, threshold: 160 << 10)
        let filler = String(repeating: "x", count: 40 << 10)
        let reads = Mutex(0), corrupt = Mutex<[String]>([]), done = Mutex(false)
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) {
            while !done.withLock({ $0 }) {
                do {
                    let store = try JSONStore(JSONStoreConfiguration(url: file, schema: FixtureDomain.schema, journalThreshold: 160 << 10, isReadOnly: true))
                    _ = try store.fetchCount(FetchDescriptor(entity: "Tag"))
                } catch let error as StrataError where error.code == .corruptStore {
                    corrupt.withLock { $0.append(error.message) }
                } catch {
                    corrupt.withLock { $0.append("unexpected: \(error)") }
                }
                reads.withLock { $0 += 1 }
            }
        }
        // The writer saves (and folds, every 4th save) until the reader has read 400 times beside it.
        var saves = 0
        while reads.withLock({ $0 }) < 400 || saves < 30 {
            let old = try writer.fetch(FetchDescriptor(entity: "Tag"))
            _ = try writer.save(SaveRequest(inserted: [try JSONFileTests.tag("\(saves)-" + filler)], deleted: old))
            saves += 1
        }
        done.withLock { $0 = true }
        reader.wait()
        #expect(corrupt.withLock { $0 }.isEmpty, "false corruptStore in \(reads.withLock { $0 }) reads: \(corrupt.withLock { $0 }.prefix(3))")
    }
}
