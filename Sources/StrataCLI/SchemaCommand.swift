import ArgumentParser
import Foundation
import Strata

/// `strata schema --backend <name> --path <dir>`: the schema a store records (declaration, version,
/// fingerprint), read without opening the store at a schema.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "schema", abstract: "Print the schema a store records: version, fingerprint and one line per entity, property, constraint and index.")

    @Option(help: "The backend that wrote the store.") var backend: String
    @Option(help: "The directory of the store.") var path: String
    @Flag(help: "Print the record as JSON (the form the store keeps).") var json = false

    func run() throws {
        guard let recorded = try BuiltinBackend.named(backend).recordedSchema(URL(fileURLWithPath: path)) else {
            throw StrataError(.ioFailure, "There is no \(backend) store at \(path).", file: path)
        }
        print(json ? String(decoding: recorded.encoded(), as: UTF8.self) : recorded.description)
    }
}
