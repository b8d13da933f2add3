import ArgumentParser
import ExampleSupport
import Foundation
import HistoryExample

/// `swift run history --backend json --path /tmp/history`: the History example on any backend;
/// `history write` and `history follow` run the desk and the worker as two processes.
@main
@available(macOS 10.15, *)
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow a store's history: what changed, by whom, as another process saves.",
        subcommands: [Demo.self, Follow.self, Write.self], defaultSubcommand: Demo.self)
}

/// Both sides in one process (what `make examples` compares across backends).
@available(macOS 10.15, *)
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The desk and a follower in one process.")
    @OptionGroup var options: ExampleOptions

    func run() async throws {
        try await HistoryExample.run(options.backend, folder: options.folder, out: ExampleOutput(echo: true))
    }
}

/// The worker: follows the history of a store another process writes.
@available(macOS 10.15, *)
struct Follow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print every transaction after the saved token as it commits, then save the token.")
    @OptionGroup var options: ExampleOptions
    @Option(help: "Stop after this many transactions.") var count = 1
    @Option(help: "Where the last processed token is kept (read at start, written after each transaction).") var tokenFile: String?
    @Flag(help: "End each transaction line with @<CLOCK_MONOTONIC ns> when it arrived.") var timestamps = false

    func run() async throws {
        try await HistoryExample.follow(
            options.backend, folder: options.folder, count: count, tokenFile: tokenFile.map { URL(fileURLWithPath: $0) }, timestamps: timestamps,
            out: { print($0); fflush(nil) })
    }
}

/// The desk: saves numbers `--from` through `--to` of the fixed sequence (creating the store).
struct Write: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Save part of the desk's fixed sequence (creates the store; --to 0 only creates).")
    @OptionGroup var options: ExampleOptions
    @Option(help: "The first save's number.") var from = 1
    @Option(help: "The last save's number.") var to = 0
    @Flag(help: "End each line with @<CLOCK_MONOTONIC ns> after the commit and 'started @<ns>' when the save began.") var timestamps = false
    @Flag(help: "Save without recording history (to measure what recording costs).") var withoutHistory = false

    func run() throws {
        try HistoryExample.write(
            options.backend, folder: options.folder, saves: from <= to ? from...to : nil, timestamps: timestamps, recordsHistory: !withoutHistory,
            out: { print($0); fflush(nil) })
    }
}
