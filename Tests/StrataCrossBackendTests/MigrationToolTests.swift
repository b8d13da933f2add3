import Foundation
import Testing

/// `strata schema`, `strata dump` without the fixture schema, and a short seeded
/// `strata torture --migration` on the file backends (the long run is 200 kills per backend).
struct MigrationToolTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/LegacyStores")

    @Test(arguments: ["sqlite", "json", "csv", "xml", "lmdb"])
    func schemaPrintsTheRecordAndDumpReadsAnyStore(backend: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-schema-tool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The store of the migration workload's last version: neither the fixture domain nor v1.
        let (written, _) = try ReliabilityToolTests.run(["torture", "--migration", "--backend", backend, "--trials", "1", "--records", "20", "--work-directory", dir.path])
        #expect(written == 0)
        let (legacy, text) = try ReliabilityToolTests.run(["schema", "--backend", backend, "--path", Self.fixtures.appendingPathComponent(backend).path])
        #expect(legacy == 0 && text.contains("version (none recorded)") && text.contains("entity Library"), "\(text)")
        let fresh = dir.appendingPathComponent("template")
        let (status, record) = try ReliabilityToolTests.run(["schema", "--backend", backend, "--path", fresh.path])
        #expect(status == 0 && record.hasPrefix("version 1.0.0") && record.contains("entity Item"), "\(record)")
        let (dumped, dump) = try ReliabilityToolTests.run(["dump", "--backend", backend, "--path", fresh.path])
        #expect(dumped == 0 && dump.contains("item-19"), "\(dump.prefix(300))")
    }

    @Test(arguments: ["sqlite", "json", "csv", "xml", "lmdb"])
    func killsDuringAMigrationLeaveAWholeVersion(backend: String) throws {
        let (status, table) = try ReliabilityToolTests.run(["torture", "--migration", "--backend", backend, "--trials", "6", "--records", "200", "--seed", "3"])
        #expect(status == 0, "\(table)")
        #expect(table.contains("result: PASS"), "\(table)")
    }
}
