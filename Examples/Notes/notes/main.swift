import ArgumentParser
import ExampleSupport
import NotesExample

/// `swift run notes --backend lmdb --path /tmp/notes`: the Notes example on any backend.
struct Notes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Notes in folders with tags: search, paging by offset and by cursor, counts, a batched import of 10,000 notes.")
    @OptionGroup var options: ExampleOptions
    @Option(help: "How many notes to import.") var importCount = 10_000

    func run() throws {
        try NotesExample.run(options.backend, folder: options.folder, out: ExampleOutput(echo: true), importCount: importCount)
    }
}

Notes.main()
