import ExampleSupport
import Foundation
import StrataModel

/// The Migrations example: version 1 of a to-do app writes its store, then versions 2 and 3 of the
/// app open it with the migration plan (a custom stage, then a lightweight one), on any backend.
public enum MigrationsExample {
    /// Runs the example on a fresh store in `folder`, printing to `out`.
    public static func run(_ backend: ExampleBackend, folder: URL, out: ExampleOutput) throws {
        backend.destroy(folder)
        typealias V1 = TodoSchemaV1
        typealias V2 = TodoSchemaV2
        typealias V3 = TodoSchemaV3
        do {
            let context = ModelContext(try backend.container(for: V1.models, migrationPlan: TodoMigrationPlan.self, in: folder))
            let todos = [
                ("Book flights", true, "Trip"), ("Pack", false, "Trip"), ("Book flights", false, "Trip"),
                ("Write report", false, "Work"), ("Review budget", true, "Work"), ("Pack", false, "Trip"),
            ]
            for (title, done, project) in todos { context.insert(V1.Todo(title: title, done: done, project: project)) }
            try context.save()
            out("v1 wrote \(try context.fetchCount(FetchDescriptor<V1.Todo>())) to-dos (titles repeat, projects are names).")
        }

        do {
            let container = try backend.container(for: V2.models, migrationPlan: TodoMigrationPlan.self, in: folder)
            let context = ModelContext(container)
            out()
            out("v2 opened the store (custom stage: duplicates merged before the unique title, projects made from the names):")
            for project in try context.fetch(FetchDescriptor<V2.Project>(sortBy: [SortDescriptor(\.name)])) {
                let todos = project.todos.sorted { $0.title < $1.title }.map { "\($0.title)\($0.isDone ? " (done)" : "")" }
                out("  \(project.name): \(todos.joined(separator: ", "))")
            }
        }

        let context = ModelContext(try backend.container(for: V3.models, migrationPlan: TodoMigrationPlan.self, in: folder))
        out()
        out("v3 opened the store (lightweight stage: project name dropped, priority added with its default):")
        let todos = try context.fetch(FetchDescriptor<V3.Todo>(sortBy: [SortDescriptor(\.title)]))
        for todo in todos { out("  \(todo.title) — \(todo.project?.name ?? "no project"), priority \(todo.priority)\(todo.isDone ? ", done" : "")") }
        todos.first { !$0.isDone }?.priority = 3
        try context.save()
        let urgent = try context.fetchCount(FetchDescriptor<V3.Todo>(predicate: #Predicate { $0.priority == 3 }))
        out("  \(urgent) to-do marked urgent with v3's new property.")

        out()
        do {
            _ = try backend.container(for: V1.models, migrationPlan: TodoMigrationPlan.self, in: folder)
            out("v1 opened the v3 store (it should not have).")
        } catch let error as StrataError {
            out("v1 again: \(error.code.rawValue): \(error.message)")
        }
    }
}
