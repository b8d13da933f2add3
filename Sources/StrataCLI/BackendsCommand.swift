import ArgumentParser
import Strata

/// `strata backends`: lists the built-in backends with their capabilities.
struct BackendsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backends", abstract: "List the built-in backends and their capabilities.")

    @Flag(help: "Print only the names, one per line (for scripts).") var names = false

    func run() throws {
        if names {
            BuiltinBackend.all.forEach { print($0.name) }
            return
        }
        for backend in BuiltinBackend.all {
            let capabilities = try backend.capabilities().names.joined(separator: ", ")
            print("\(backend.name)\n  \(backend.summary)\n  capabilities: \(capabilities.isEmpty ? "none" : capabilities)")
            print("  baseline: \(BuiltinBackend.baselines[backend.name]?.description ?? "none")")
        }
    }
}
