import ArgumentParser
import Strata

/// `strata`: run the conformance suite, benchmarks, samples and dumps on the built-in backends.
@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Strata: pluggable persistence for Swift. Validate, compare and inspect storage backends.",
        version: StrataVersion.current,
        subcommands: [BackendsCommand.self, ConformanceCommand.self, BenchCommand.self, ModelBenchForwarder.self, ReportCommand.self, SampleCommand.self, DumpCommand.self, SchemaCommand.self, TortureCommand.self, FuzzCommand.self, PowerLossCommand.self, CrashWriterCommand.self, ConcurrentWriterCommand.self, FuzzOpenCommand.self, DifftestCommand.self, MigrationBenchCommand.self, ConvertCommand.self, ConvertSampleCommand.self, ConvertBenchCommand.self]
    )
}
