import ArgumentParser
import ExampleSupport
import TripsExample

/// `swift run trips --backend sqlite --path /tmp/trips`: the Trips example on any backend.
struct Trips: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Plan trips with bucket lists; list, add, delete (WWDC24's custom data store sample).")
    @OptionGroup var options: ExampleOptions

    func run() throws {
        try TripsExample.run(options.backend, folder: options.folder, out: ExampleOutput(echo: true))
    }
}

Trips.main()
