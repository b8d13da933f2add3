import BooksExample
import ExampleSupport
import Foundation
import MigrationsExample
import NotesExample
import PixarExample
import Testing
import TripsExample

/// Each example runs on every built-in backend and prints exactly the same lines; a few lines
/// are pinned so that an example that printed nothing (or the same wrong thing everywhere) fails.
@Suite struct ExamplesTests {
    typealias Example = (ExampleBackend, URL, ExampleOutput) throws -> Void

    /// The example's output on each backend, in a fresh folder each.
    func outputs(_ example: Example, on backends: [ExampleBackend] = ExampleBackend.allCases) throws -> [ExampleBackend: [String]] {
        var result: [ExampleBackend: [String]] = [:]
        for backend in backends {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-example-\(backend)-\(UUID().uuidString)")
            defer { backend.destroy(folder) }
            let out = ExampleOutput()
            try example(backend, folder, out)
            result[backend] = out.lines
        }
        return result
    }

    /// Every backend printed what the memory backend printed, which contains `expected`.
    func expectSame(_ outputs: [ExampleBackend: [String]], containing expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = outputs[.memory] ?? []
        for (backend, lines) in outputs where backend != .memory {
            #expect(lines == reference, "\(backend) differs from memory:\n\(lines.joined(separator: "\n"))\n---\n\(reference.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
        for line in expected { #expect(reference.contains(line), "missing line: \(line)\n\(reference.joined(separator: "\n"))", sourceLocation: sourceLocation) }
    }

    @Test func trips() throws {
        expectSame(try outputs { try TripsExample.run($0, folder: $1, out: $2) }, containing: [
            "Planned 4 trips with 7 bucket-list items.",
            "  Lisbon — Portugal, 2025-07-14 to 2025-07-20, 3 items, staying at Casa Azul (Rua das Flores 12)",
            "  3 of 4 are in the plan.",
            "Deleted Lisbon: 3 trips, 6 bucket-list items, 1 accommodations left.",
            "  Tokyo — Japan, 2025-10-03 to 2025-10-12, 4 items, staying at Ryokan Sakura (2-1 Nihonbashi)",
        ])
    }

    @Test func migrations() throws {
        // Every built-in backend, PostgreSQL too when a server is named (`make test` names one).
        expectSame(try outputs({ try MigrationsExample.run($0, folder: $1, out: $2) }, on: ExampleBackend.allCasesWithServers), containing: [
            "v1 wrote 6 to-dos (titles repeat, projects are names).",
            "  Trip: Book flights (done), Pack",
            "  Work: Review budget (done), Write report",
            "  Book flights — Trip, priority 0, done",
            "  1 to-do marked urgent with v3's new property.",
        ])
    }

    @Test func books() throws {
        expectSame(try outputs { try BooksExample.run($0, folder: $1, out: $2) }, containing: [
            "  Dune by Frank Herbert: 4.0 average of 2 reviews",
            "Inserting a second \"Dune\" failed: uniqueConstraintViolation.",
            "Books after the failed save: 3",
            "Deleted Neuromancer: 2 books, 3 reviews left.",
        ])
    }

    @Test func notes() throws {
        expectSame(try outputs { try NotesExample.run($0, folder: $1, out: $2, importCount: 2_000) }, containing: [
            "Seeded 24 notes in 4 folders with 3 tags.",
            "By (createdAt, serial) cursor: 5 pages, the same as by offset.",
            "  notes 24, pinned 3, high priority 8",
            "  Work: 9 notes",
            "  #20 Old tax papers #20 — 2025-01-06 19:00, high, in Ideas, tags: later urgent",
            "  2000 / 2000",
            "  notes 2024, in \"Imported\" 2000",
        ])
    }

    @Test func pixar() throws {
        expectSame(try outputs { try PixarExample.run($0, folder: $1, out: $2) }, containing: [
            "Loaded 15 films from movies.json.",
            "  Incredibles 2 (2018, Brad Bird) $1243.1M",
            "Films past a billion: 3.",
        ])
    }
}
