import Foundation
import StrataBuiltinBackends
import StrataConformance
import Testing

extension DifferentialBackend {
    /// A built-in backend as a participant of differential runs.
    init(_ backend: BuiltinStore) { self = Self.make(backend.name, backend.factory) }

    private static func make<Factory: BuiltinStoreFactory>(_ name: String, _ factory: Factory) -> DifferentialBackend {
        DifferentialBackend(name: name, factory: factory.stores)
    }
}

/// `BuiltinStores.all` is the one list of built-in backends; these checks fail when a place that
/// cannot read it (the `strata` tool's baselines, the Makefile, Package.swift, the format pages,
/// see docs/writing-a-backend.md's checklist) misses one of its backends.
struct BuiltinListTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let names = BuiltinStores.all.map(\.name)

    @Test func theToolListsEveryBackendWithItsBaseline() throws {
        let (status, listed) = try ReliabilityToolTests.run(["backends", "--names"])
        #expect(status == 0)
        #expect(listed.split(separator: "\n").map(String.init) == Self.names)
        let (detailStatus, details) = try ReliabilityToolTests.run(["backends"])
        #expect(detailStatus == 0, "\(details)")
        let baselines = details.split(separator: "\n").filter { $0.hasPrefix("  baseline: ") }
        #expect(baselines.count == Self.names.count, "\(details)")
        #expect(!baselines.contains("  baseline: none"), "a built-in backend without a raw-engine baseline:\n\(details)")
    }

    /// The words of a Makefile variable's default (`NAME ?= …` or `NAME = …`, up to a `$(` expression).
    static func makeVariable(_ name: String) throws -> [String] {
        let makefile = try String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("\(name) ?=") || $0.hasPrefix("\(name) =") })
        var words = line.split(separator: "=", maxSplits: 1)[1].split(separator: " ").map(String.init)
        // RELIABILITY_BACKENDS = $(if …,$(BACKEND),sqlite lmdb …): the words after the last comma
        if let expression = words.firstIndex(where: { $0.hasPrefix("$(") }) {
            let text = words[expression...].joined(separator: " ")
            words = String(text.split(separator: ",").last!.dropLast()).split(separator: " ").map(String.init)
        }
        return words
    }

    @Test func theMakefileListsEveryBackend() throws {
        // make examples runs PostgreSQL too, in a private cluster of its own.
        #expect(Set(try Self.makeVariable("EXAMPLE_BACKENDS")) == Set(Self.names + BuiltinStores.servers.map(\.name)), "make examples")
        #expect(try Self.makeVariable("EXAMPLE_BACKENDS").first == "memory", "make examples compares with the first, the memory backend")
        #expect(Set(try Self.makeVariable("RELIABILITY_BACKENDS")) == Set(BuiltinStores.all.filter(\.isPersistentOnDisk).map(\.name)), "make torture, make fuzz")
        #expect(Set(try Self.makeVariable("PERFCHECK_BACKENDS")) == Set(Self.names), "make perfcheck")
    }

    @Test func thePackageHasEveryBackendsLibrary() throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8).lowercased()
        for name in Self.names {
            #expect(package.contains(".library(name: \"strata\(name)\""), "Package.swift: no library product for \(name)")
        }
    }

    @Test func everyStoredFormatHasItsPage() throws {
        for backend in BuiltinStores.all where backend.isPersistentOnDisk {
            let page = Self.root.appendingPathComponent("docs/formats/\(backend.name).md")
            #expect(FileManager.default.fileExists(atPath: page.path), "docs/formats/\(backend.name).md is missing")
        }
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/choosing-a-backend.md"), encoding: .utf8).lowercased()
        for name in Self.names { #expect(guide.contains(name), "docs/choosing-a-backend.md does not mention \(name)") }
    }

    /// Each backend has its own test target running the suite (Tests/Strata<Name>Tests, any case).
    @Test func everyBackendHasItsOwnTests() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Tests").path).map { $0.lowercased() }
        for name in Self.names {
            #expect(targets.contains("strata\(name)tests"), "Tests/ has no test target of \(name) (Tests/Strata<Name>Tests)")
        }
    }

    /// `make perfcheck` has a limit for every step of every backend (the same steps for all).
    @Test func everyBackendHasItsPerformanceLimits() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Benchmarks/Thresholds").path)
        let steps = Set(files.compactMap { $0.hasPrefix("memory-") && $0.hasSuffix(".txt") ? String($0.dropFirst(7).dropLast(4)) : nil })
        #expect(steps.count >= 9, "\(steps.sorted())")
        for name in Self.names {
            let own = Set(files.compactMap { $0.hasPrefix(name + "-") && $0.hasSuffix(".txt") ? String($0.dropFirst(name.count + 1).dropLast(4)) : nil })
            #expect(own == steps, "Benchmarks/Thresholds: \(name) has limits for \(own.sorted()), the others for \(steps.sorted())")
        }
    }
}
