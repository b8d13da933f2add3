import Foundation
import Strata
import StrataConformance
import StrataFileSupport
import StrataJSON
import Testing

/// Issue 29: a journal line with a valid checksum naming a key no save writes (0, -1, `Int64.max`)
/// is damage, reported as `corruptStore`; it used to trap in the record table before the key check.
struct JSONJournalKeyTests {
    typealias T = JSONFileTests

    @Test(arguments: [Int64(-1), 0, .max], ["put", "delete"])
    func aJournalKeyOutsideTheRangeIsCorrupt(key: Int64, kind: String) throws {
        let (dir, file) = try JSONDamageTests.store(saving: ["a"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = JSONDamageTests.journal(file)
        let original = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        let header = original[0] + "\n"  // the journal's header line, kept
        let body = String(original[1].dropFirst(17))  // the first save: after the checksum and space
        let line: String
        if kind == "put" {
            line = body.replacingOccurrences(of: "\"@id\":1", with: "\"@id\":\(key)")
            #expect(line != body)
        } else {
            line = body + "\n" + "{\"seq\":2,\"next\":{},\"put\":{},\"delete\":{\"Tag\":[\(key)]}}"
        }
        let lines = line.split(separator: "\n").map { Journal.line(Array($0.utf8)) }
        try Data(Array(header.utf8) + lines.joined()).write(to: journal)
        let error = try #require(throws: StrataError.self) { try T.open(file) }
        #expect(error.code == .corruptStore, "\(error)")
        #expect(error.message.contains("primary key \(key)"), "\(error)")
    }
}
