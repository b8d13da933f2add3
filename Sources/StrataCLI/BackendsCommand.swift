import ArgumentParser
import Strata

/// `strata backends`: lists the built-in backends with their capabilities.
struct BackendsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backends", abstract: "List the built-in backends and their capabilities.")

    func run() throws {
        for backend in BuiltinBackend.all {
            let capabilities = try backend.capabilities().names.joined(separator: ", ")
            print("\(backend.name)\n  \(backend.summary)\n  capabilities: \(capabilities.isEmpty ? "none" : capabilities)")
        }
    }
}
