import Foundation
import StrataConformance
import Testing

let example = StoreFactory<ExampleFileStore> { dir, schema in ExampleFileConfiguration(url: dir.appendingPathComponent("store.json"), schema: schema, lockWait: .seconds(5)) }

/// The guide's worked example passes the whole suite, like every built-in backend, with the guide's
/// template as it is: not serialized, so the cases and `everyCaseRan` may run in parallel.
@Suite struct Conformance {
    @Test(arguments: ConformanceSuite.cases) func conformance(_ c: ConformanceCase) throws {
        if let skip = try ConformanceSuite.expect(c, passesOn: example) { Issue.record("skipped: \(skip)", severity: .warning); try Test.cancel("\(skip)") }
    }
    @Test func everyCaseRan() throws { try ConformanceSuite.expectEveryCaseRan(on: example) }
}

/// The third-party tool entry point runs on the example backend with the built-in output formats.
@Test func backendToolRunsConformanceAndDump() throws {
    #expect(BackendTool.run(["conformance", "--format", "json"], name: "example", factory: example) == 0)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-example-tool-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(BackendTool.run(["sample", "--path", dir.path], name: "example", factory: example) == 0)
    #expect(BackendTool.run(["dump", "--path", dir.path], name: "example", factory: example) == 0)
    #expect(BackendTool.run(["nonsense"], name: "example", factory: example) == 2)
}
