import Foundation
import Strata
import StrataConformance
import StrataPostgres
import Testing

/// The namespace of the store the suite keeps in `directory`: the folder's path hashed (FNV-1a), so
/// a case reopening its folder reopens its store and every case has its own.
func postgresNamespace(_ directory: URL) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in directory.standardizedFileURL.path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return "suite_" + String(hash, radix: 16)
}

/// The suite over the cluster's Unix socket; a case's store is dropped with its folder.
let postgres = StoreFactory<PostgresStore>(
    configuration: { dir, schema in PostgresStoreConfiguration(url: PostgresTestServer.url, schema: schema, namespace: postgresNamespace(dir)) },
    destroy: { dir in
        try? PostgresStore.dropStore(PostgresStoreConfiguration(url: PostgresTestServer.url, schema: try Schema(entities: []), namespace: postgresNamespace(dir)))
        try? FileManager.default.removeItem(at: dir)
    })

/// Serialized so that this backend's cases run one at a time (the suite itself needs no order).
@Suite(.serialized, .enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.reason))
struct PostgresConformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: postgres) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: postgres) }
}
