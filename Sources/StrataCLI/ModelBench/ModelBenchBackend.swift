import ArgumentParser
import Strata
import StrataBuiltinBackends
import StrataConformance
import StrataToolSupport

/// One built-in backend as `strata-model-bench` measures it: the standard workload on the store
/// (`StandardWorkload`) and through the model layer (`ModelWorkload`), on the same factory.
struct ModelBenchBackend: Sendable {
    let name: String
    /// The store-level workload (what `strata bench` runs), plus the store's `filter-again` figure.
    let store: @Sendable (_ records: Int, _ bracket: StandardWorkload.StepBracket?) throws -> WorkloadReport
    /// The model-level workload.
    let model: @Sendable (_ records: Int, _ bracket: StandardWorkload.StepBracket?) throws -> [String: WorkloadReport.Figure]

    init<Factory: BuiltinStoreFactory>(_ name: String, _ builtin: Factory) {
        let factory = builtin.stores
        self.name = name
        store = { records, bracket in
            var report = try StandardWorkload.run(name, factory: factory, records: records, bracket: bracket)
            report.steps[ModelWorkload.filterAgainStep] = try StoreFilterAgain.run(factory: factory, records: records, bracket: bracket)
            return report
        }
        model = { records, bracket in try ModelWorkload.run(factory: factory, records: records, bracket: bracket) }
    }

    /// The built-in backends (`BuiltinStores.all`), in the order `strata backends` lists them.
    static let all = BuiltinStores.all.map { ModelBenchBackend($0.name, $0.factory) }

    /// The backend called `name`, or a validation error listing the known ones.
    static func named(_ name: String) throws -> ModelBenchBackend {
        guard let backend = all.first(where: { $0.name == name }) else {
            throw ValidationError("Unknown backend '\(name)'. Built-in backends: \(all.map(\.name).joined(separator: ", ")).")
        }
        return backend
    }
}
