import Foundation
import Strata
import StrataConformance
import StrataFileSupport
import StrataJSON
import StrataXML
import Testing

/// Issue 29: a JSON or XML store whose journal was emptied before its first fold opened as an empty
/// store, exit 0, though saves had been acknowledged. A journal now starts with a header line naming
/// its store, written before the journal appears and never removed, and the document says so (JSON
/// version 3, XML version 2): an emptied journal, one cut inside its header, or another store's is
/// `corruptStore`. Stores written before headers still open, and their first fold adds one.
struct JournalHeaderTests {
    /// One journaled backend: how to open its store, and how to turn a current document back into
    /// the previous version (the same bytes, the older version number, resealed).
    struct Backend: CustomStringConvertible, Sendable {
        let description: String
        let fileName: String
        let currentVersion: String
        let previousVersion: String
        let seal: DocumentSeal

        func open(_ file: URL, threshold: Int = 1 << 20, readOnly: Bool = false) throws -> Opened {
            description == "json"
                ? Opened(try JSONStore(JSONStoreConfiguration(url: file, schema: FixtureDomain.schema, journalThreshold: threshold, isReadOnly: readOnly)))
                : Opened(try XMLStore(XMLStoreConfiguration(url: file, schema: FixtureDomain.schema, journalThreshold: threshold, isReadOnly: readOnly)))
        }

        /// Rewrites the document as the version before journal headers wrote it.
        func writePreviousVersion(of file: URL) throws {
            let bytes = [UInt8](try Data(contentsOf: file))
            let text = String(decoding: try seal.content(of: bytes, file: file.path), as: UTF8.self)
            let older = text.replacingOccurrences(of: currentVersion, with: previousVersion)
            #expect(older != text, "\(self): the version is where the test expects it")
            try Data(seal.seal(Array(older.utf8))).write(to: file)
        }
    }

    /// An open store, whichever backend: saves tags and lists them.
    struct Opened {
        let saveTag: (String) throws -> Void
        let tags: () throws -> [String]

        init<Store: DataStore>(_ store: Store) where Store.Snapshot == DefaultSnapshot {
            saveTag = { _ = try store.save(SaveRequest(inserted: [try JournalHeaderTests.tag($0)])) }
            tags = { try store.fetch(FetchDescriptor(entity: "Tag", sortBy: [SortKey("name")])).map { $0["name"].string ?? "?" } }
        }
    }

    static let backends = [
        Backend(description: "json", fileName: "store.json", currentVersion: "\"version\": 3,", previousVersion: "\"version\": 2,", seal: .json),
        Backend(description: "xml", fileName: "store.xml", currentVersion: " version=\"2\" ", previousVersion: " version=\"1\" ",
                seal: DocumentSeal(lead: "<checksum>", trail: "</checksum>\n</strata-store>\n")),
    ]

    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-journal-header-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func journal(_ file: URL) -> URL { URL(fileURLWithPath: file.path + ".journal") }

    static func tag(_ name: String) throws -> DefaultSnapshot {
        try DefaultSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": .string(name)])
    }

    static func tags(_ store: Opened) throws -> [String] { try store.tags() }

    /// A new store in a new folder with the tags "a" and "b" saved, not folded (in the journal).
    static func storeWithTwoSaves(_ backend: Backend) throws -> (dir: URL, file: URL) {
        let dir = try directory()
        let file = dir.appendingPathComponent(backend.fileName)
        let store = try backend.open(file)
        for name in ["a", "b"] { try store.saveTag(name) }
        return (dir, file)
    }

    /// Both a writer and a reader refuse the store with `corruptStore`, and nothing is repaired.
    static func expectRefused(_ backend: Backend, _ file: URL, _ what: String) throws {
        let journalBefore = try Data(contentsOf: journal(file))
        for readOnly in [false, true] {
            let error = try #require(throws: StrataError.self, "\(backend) \(what), readOnly \(readOnly)") { try backend.open(file, readOnly: readOnly) }
            #expect(error.code == .corruptStore && error.file == journal(file).path, "\(backend) \(what): \(error)")
        }
        #expect(try Data(contentsOf: journal(file)) == journalBefore, "\(backend) \(what): the journal was changed")
    }

    /// The finding: saves acknowledged, journal emptied (or cut inside its header) before the first
    /// fold — refused, never an empty store. The same after a fold, where the journal holds its
    /// header alone.
    @Test(arguments: backends) func anEmptiedJournalIsRefusedNeverAnEmptyStore(backend: Backend) throws {
        let (dir, file) = try Self.storeWithTwoSaves(backend)
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = [UInt8](try Data(contentsOf: Self.journal(file)))
        let text = String(decoding: journal, as: UTF8.self)
        #expect(text.split(separator: "\n").count == 3 && text.dropFirst(16).hasPrefix(" strata-journal "), "\(backend): \(text)")
        for cut in [0, 1, 17, 30] {
            try Data(journal.prefix(cut)).write(to: Self.journal(file))
            try Self.expectRefused(backend, file, "journal cut to \(cut) bytes")
        }
        try Data(journal).write(to: Self.journal(file))
        #expect(try Self.tags(try backend.open(file)) == ["a", "b"])

        do {
            let store = try backend.open(file, threshold: 0)
            try store.saveTag("c")  // folds
        }
        let folded = try Data(contentsOf: Self.journal(file))
        #expect(String(decoding: folded, as: UTF8.self).split(separator: "\n").count == 1, "\(backend): a fold keeps the header alone")
        #expect(folded == Data(journal.prefix(folded.count)), "\(backend): the same header")
        #expect(try Self.tags(try backend.open(file)) == ["a", "b", "c"])
        try Data().write(to: Self.journal(file))
        try Self.expectRefused(backend, file, "journal emptied after a fold")
    }

    /// A brand-new store, never saved to, opens for writing and reading with no records.
    @Test(arguments: backends) func aNewStoreWithoutSavesOpens(backend: Backend) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(backend.fileName)
        _ = try backend.open(file)
        #expect(try Self.tags(try backend.open(file)).isEmpty)
        #expect(try Self.tags(try backend.open(file, readOnly: true)).isEmpty)
        let journal = String(decoding: try Data(contentsOf: Self.journal(file)), as: UTF8.self)
        #expect(journal.hasSuffix("\n") && journal.split(separator: "\n").count == 1 && journal.contains(" strata-journal "), "\(backend): \(journal)")
    }

    /// Another store's journal (header and lines with valid checksums) put beside the document.
    @Test(arguments: backends) func anotherStoresJournalIsRefused(backend: Backend) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("one-" + backend.fileName), second = dir.appendingPathComponent("two-" + backend.fileName)
        for file in [first, second] { try backend.open(file).saveTag("x") }
        try FileManager.default.removeItem(at: Self.journal(first))
        try FileManager.default.copyItem(at: Self.journal(second), to: Self.journal(first))
        try Self.expectRefused(backend, first, "another store's journal")
    }

    /// A store of the version before journal headers (its journal has none) opens, keeps its
    /// saves, and its first save folds and adds the header; from then on an emptied journal is
    /// refused. Each state the upgrade passes through (`JournaledDocumentFiles.fold`: the old
    /// document beside the emptied journal, then beside the header alone) opens whole.
    @Test(arguments: backends) func aStoreWrittenBeforeHeadersOpensAndGetsOne(backend: Backend) throws {
        let (dir, file) = try Self.storeWithTwoSaves(backend)
        defer { try? FileManager.default.removeItem(at: dir) }
        // The old format: the previous document version, the journal's lines without the header.
        try backend.writePreviousVersion(of: file)
        let lines = String(decoding: try Data(contentsOf: Self.journal(file)), as: UTF8.self).split(separator: "\n").map { $0 + "\n" }
        let header = lines[0]
        try lines.dropFirst().joined().write(to: Self.journal(file), atomically: false, encoding: .utf8)
        #expect(try Self.tags(try backend.open(file, readOnly: true)) == ["a", "b"])
        do {
            let store = try backend.open(file)
            #expect(try Self.tags(store) == ["a", "b"])
            try store.saveTag("c")  // an older document: this save folds
        }
        let upgraded = String(decoding: try Data(contentsOf: Self.journal(file)), as: UTF8.self)
        #expect(upgraded.split(separator: "\n").count == 1 && upgraded.contains(" strata-journal ") && upgraded == header, "\(backend): \(upgraded)")
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self).contains(backend.currentVersion), "\(backend): the document is of the current version")
        #expect(try Self.tags(try backend.open(file)) == ["a", "b", "c"])

        // The states between the upgrade's steps.
        let document = try Data(contentsOf: file)
        try backend.writePreviousVersion(of: file)
        #expect(try Self.tags(try backend.open(file, readOnly: true)) == ["a", "b", "c"], "\(backend): old document, header alone")
        try Data().write(to: Self.journal(file))
        #expect(try Self.tags(try backend.open(file, readOnly: true)) == ["a", "b", "c"], "\(backend): old document, emptied journal")
        try upgraded.write(to: Self.journal(file), atomically: false, encoding: .utf8)
        try document.write(to: file)

        try Data().write(to: Self.journal(file))
        try Self.expectRefused(backend, file, "journal emptied after the upgrade")
    }
}
