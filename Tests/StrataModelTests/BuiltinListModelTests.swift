import Foundation
import StrataBuiltinBackends
@testable import StrataModel
import Testing

/// The model layer cannot read `BuiltinStores.all` (it would bring the conformance suite into
/// apps), so its `ModelConfiguration` opener keeps its own list of backends; this fails when it
/// misses one of the built-in list (docs/writing-a-backend.md's checklist, item 7).
struct BuiltinListModelTests {
    @Test func aModelConfigurationOpensEveryBuiltinBackend() {
        for backend in BuiltinStores.all {
            let configuration = backend.name == "memory"
                ? ModelConfiguration(isStoredInMemoryOnly: true)
                : ModelConfiguration(url: URL(fileURLWithPath: "/tmp/store.\(backend.name)"))
            #expect(ModelConfigurationBackend(configuration).rawValue == backend.name, "ModelConfigurationBackend has no case for \(backend.name)")
        }
    }
}
