import ArgumentParser
import ExampleSupport
import PixarExample

/// `swift run pixar --backend csv --path /tmp/pixar`: the Pixar catalog example on any backend.
struct Pixar: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A Pixar film catalog from a bundled JSON file: sorted, limited and filtered fetches.")
    @OptionGroup var options: ExampleOptions

    func run() throws {
        try PixarExample.run(options.backend, folder: options.folder, out: ExampleOutput(echo: true))
    }
}

Pixar.main()
