import Foundation
import Strata
import StrataCSV
import StrataTestSupport
import StrataConformance
import StrataFileSupport
import Testing

/// The CSV backend's files: read back by Python's `csv` module, crash-safe, damage reported by file,
/// line and column.
struct CSVFileTests {
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Opens with a lock wait: while another test spawns a process, a lock this process just
    /// released can be held for an instant by the child being started.
    static func open(_ folder: URL, wait: Duration? = .seconds(5)) throws -> CSVStore {
        try CSVStore(CSVStoreConfiguration(folder: folder, schema: FixtureDomain.schema, lockWait: wait))
    }

    static func manifest(_ folder: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json"))) as! [String: Any]
    }

    /// The file of `table`'s first chunk (keys 1–1,024: all of a small fixture's records).
    static func manifestFile(_ folder: URL, _ table: String) throws -> URL {
        folder.appendingPathComponent(try #require((try manifest(folder)["files"] as? [String: String])?[table + "@0"], "no file for \(table)"))
    }

    /// Replaces the manifest with an edited one whose checksum is valid again: what a careful hand
    /// edit (or a bug in a writer) produces, as opposed to damage.
    static func rewriteManifest(_ folder: URL, _ edit: (inout [String: Any]) -> Void) throws {
        var object = try manifest(folder)
        object["checksum"] = nil
        edit(&object)
        var text = [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        text.removeLast()  // the closing brace; the seal closes the object
        text += Array(",\n".utf8)
        try Data(DocumentSeal(lead: "  \"checksum\": \"", trail: "\"\n}\n").seal(text)).write(to: folder.appendingPathComponent("manifest.json"))
    }

    /// Writes `text` as the first chunk of the table `name` and names it in the manifest with its checksum.
    static func replaceTable(_ folder: URL, _ table: String, with text: String) throws -> URL {
        let name = table + "@0", file = "\(name).50.csv"
        try Data(text.utf8).write(to: folder.appendingPathComponent(file))
        try rewriteManifest(folder) { object in
            var files = object["files"] as! [String: String], checksums = object["checksums"] as! [String: String]
            files[name] = file
            checksums[file] = Checksum.hex(Array(text.utf8))
            object["files"] = files
            object["checksums"] = checksums
        }
        return folder.appendingPathComponent(file)
    }

    @Test func pythonsCSVModuleReadsTheSameRecords() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let store = try Self.open(folder)
        try FixtureDomain.writeSample(into: store)
        let book = try Self.manifestFile(folder, "Book")
        let sample = try Self.manifestFile(folder, "Sample")
        let python = try ChildProcess.run(ChildProcess.onPath("python3"), ["-c", """
            import csv, sys, json
            books = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
            samples = list(csv.DictReader(open(sys.argv[2], newline='', encoding='utf-8')))
            print(json.dumps({"titles": sorted(b["title"] for b in books), "libraries": sorted(b["library"] for b in books),
                              "edge": [s for s in samples if s["label"] == "edges"][0]["string"],
                              "int": [s for s in samples if s["label"] == "edges"][0]["int"]}))
            """, book.path, sample.path])
        #expect(python.status == 0, "\(python.errors)")
        let read = try JSONSerialization.jsonObject(with: Data(python.output.utf8)) as! [String: Any]
        let stored = try store.fetch(FetchDescriptor(entity: "Book"))
        #expect(read["titles"] as? [String] == stored.map { $0.attributeValue(at: 0).string! }.sorted())
        #expect(read["libraries"] as? [String] == stored.map { String($0.relationshipValue(at: 0).target!.primaryKey) }.sorted())
        #expect(read["edge"] as? String == "emoji 👩‍👩‍👧 and NUL \\0")  // NUL is written \\0 so csv readers accept the file
        #expect(read["int"] as? String == String(Int64.min))
    }

    @Test func quotingKeepsEveryCharacterAndNilApartFromEmpty() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        let tricky = " lead, \"quoted\"\r\nline \\ back\u{0}slash trail "
        do {
            let store = try Self.open(folder)
            let entity = FixtureDomain.schema.entity(named: "Sample")!
            _ = try store.save(SaveRequest(inserted: [
                try CSVSnapshot.inserting(entity, values: ["label": .string(tricky), "string": ""]),
                try CSVSnapshot.inserting(entity, values: ["label": "nil"]),
            ]))
        }
        let store = try Self.open(folder)
        let rows = try store.fetch(FetchDescriptor(entity: "Sample"))
        #expect(try rows[0].value("label") == .string(tricky))
        #expect(try rows[0].value("string") == .string(""))
        #expect(try rows[1].value("string") == .null)
    }

    /// Issue 25: a second writer in this process shares the store; each sees the other's saves at
    /// once and none is lost.
    @Test func aSecondWriterInThisProcessSharesTheStore() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        do {
            let first = try Self.open(folder, wait: nil), second = try Self.open(folder, wait: nil)
            for n in 0..<6 {
                _ = try (n % 2 == 0 ? first : second).save(SaveRequest(inserted: [try CSVSharingTests.tag("tag \(n)")]))
                #expect(try first.fetchCount(FetchDescriptor(entity: "Tag")) == n + 1)
                #expect(try second.fetchCount(FetchDescriptor(entity: "Tag")) == n + 1)
            }
        }
        #expect(try Self.open(folder).fetchCount(FetchDescriptor(entity: "Tag")) == 6)
    }

    @Test func aKilledWriterAlwaysLeavesTheOldOrTheNewState() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CrashWorkload.killBuiltWriter(backend: "csv", in: dir, rounds: 20) {
            try CrashWorkload.check(try Self.open(dir.appendingPathComponent("store")))
        }
        let strays = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("store").path).filter { $0.contains(".tmp-") }
        #expect(strays.isEmpty)
    }

    @Test(arguments: [
        ("wrong column count", "@id,text,tag\r\n1,\"a\"\r\n", 2, 3),
        ("bad quoting", "@id,text,tag\r\n1,\"a\"b,\r\n", 2, 6),
        ("unparsable number", "@id,text,tag\r\nx1,\"a\",\r\n", 2, 1),
        ("unknown header", "@id,text,tag,colour\r\n", 1, 4),
        ("unparsable key", "@id,text,tag\r\n1,\"a\",seven\r\n", 2, 3),
    ])
    func aMalformedFileIsCorruptNamingFileLineAndColumn(_ example: (String, String, Int, Int)) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        do { _ = try Self.open(folder) }
        let notes = try Self.replaceTable(folder, "Note", with: example.1)
        let error = try #require(throws: StrataError.self, "\(example.0)") { try Self.open(folder) }
        #expect(error.code == .corruptStore, "\(example.0)")
        #expect(error.file == notes.path, "\(example.0)")
        #expect(error.line == example.2, "\(example.0): \(error)")
        #expect(error.column == example.3, "\(example.0): \(error)")
    }
}
