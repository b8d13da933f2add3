import ArgumentParser
import ExampleSupport
import MigrationsExample

/// `swift run migrations --backend sqlite --path /tmp/migrations`: the Migrations example on any backend.
struct Migrations: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Version 1 of a to-do app writes a store; versions 2 and 3 migrate it (a custom and a lightweight stage).")
    @OptionGroup var options: ExampleOptions

    func run() throws {
        try MigrationsExample.run(options.backend, folder: options.folder, out: ExampleOutput(echo: true))
    }
}

Migrations.main()
