import ArgumentParser
import BooksExample
import ExampleSupport

/// `swift run books --backend json --path /tmp/books`: the Books and reviews example on any backend.
struct Books: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Books with unique names and their reviews: a duplicate fails loudly, deleting a book deletes its reviews.")
    @OptionGroup var options: ExampleOptions

    func run() throws {
        try BooksExample.run(options.backend, folder: options.folder, out: ExampleOutput(echo: true))
    }
}

Books.main()
