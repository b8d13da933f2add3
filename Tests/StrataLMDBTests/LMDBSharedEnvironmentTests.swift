import Foundation
@_spi(StrataEngine) import Strata
import StrataConformance
import Testing

@testable import StrataLMDB

/// One LMDB environment per folder per process (liblmdb forbids two): stores opened on one folder
/// in this process share it (issue 25: two containers on one store).
struct LMDBSharedEnvironmentTests {
    typealias T = LMDBFileTests

    static func reader(_ folder: URL) throws -> LMDBStore {
        try LMDBStore(LMDBStoreConfiguration(folder: folder, schema: FixtureDomain.schema, isReadOnly: true))
    }

    static func tags(_ store: LMDBStore) throws -> Int { try store.fetchCount(FetchDescriptor(entity: "Tag")) }

    @Test func storesOnOneFolderShareTheEnvironment() throws {
        let dir = try T.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("store")
        do {
            let first = try T.open(folder), second = try T.open(folder), reader = try Self.reader(folder)
            #expect(first.environment === second.environment && reader.environment === first.environment)
            let tag = try LMDBSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "shared"])
            _ = try second.save(SaveRequest(inserted: [tag]))
            #expect(try Self.tags(first) == 1 && (try Self.tags(reader)) == 1)
            let error = try #require(throws: StrataError.self) {
                try reader.save(SaveRequest(inserted: [try LMDBSnapshot.inserting(FixtureDomain.schema.entity(named: "Tag")!, values: ["name": "no"])]))
            }
            #expect(error.code == .readOnlyStore, "a read-only store on a shared writable environment still refuses saves")
        }
        // Every store released: a read-only open gets its own read-only environment, which a
        // writer of this process cannot share…
        var reader: LMDBStore? = try Self.reader(folder)
        let error = try #require(throws: StrataError.self) { try T.open(folder) }
        #expect(error.code == .storeLocked && error.message.contains("read-only"), "\(error)")
        #expect(try Self.tags(reader!) == 1)
        // …until the reader is released.
        reader = nil
        #expect(try Self.tags(try T.open(folder)) == 1)
        _ = reader
    }
}
