import Foundation
import Strata
import StrataConformance
import StrataFileSupport
import StrataXML
import Testing

/// Issue 29: a journal entry with a valid checksum naming a key no save writes (0, -1, `Int64.max`)
/// is damage, reported as `corruptStore`; it used to trap in the record table before the key check.
struct XMLJournalKeyTests {
    @Test(arguments: [Int64(-1), 0, .max], ["put", "delete"])
    func aJournalKeyOutsideTheRangeIsCorrupt(key: Int64, kind: String) throws {
        let dir = try XMLFileTests.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("store.xml")
        do { _ = try XMLFileTests.open(file).save(SaveRequest(inserted: [try XMLFileTests.sample(["label": .string("a")])])) }
        let journal = URL(fileURLWithPath: file.path + ".journal")
        let original = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        let header = original[0] + "\n"  // the journal's header line, kept
        let body = String(original[1].dropFirst(17))  // the only save: after the checksum and space
        var lines = [body]
        if kind == "put" {
            lines[0] = body.replacingOccurrences(of: "id=\"1\"", with: "id=\"\(key)\"")
            #expect(lines[0] != body)
        } else {
            lines.append("<save seq=\"2\"><delete entity=\"Sample\">\(key)</delete></save>")
        }
        try Data(Array(header.utf8) + lines.map { Journal.line(Array($0.utf8)) }.joined()).write(to: journal)
        let error = try #require(throws: StrataError.self) { try XMLFileTests.open(file) }
        #expect(error.code == .corruptStore, "\(error)")
        #expect(error.message.contains("primary key \(key)"), "\(error)")
    }
}
