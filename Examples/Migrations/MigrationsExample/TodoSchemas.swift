import Foundation
import StrataModel

// Three versions of a to-do app, written as for SwiftData (only the import differs).
//
// v1: a to-do has a title, a done flag and a project name typed by hand; titles repeat.
// v2: titles are unique (duplicates are merged in willMigrate), `done` is renamed `isDone`, and
//     projects become their own entity, filled in didMigrate from the project names.
// v3: the project name is gone (the relationship replaced it) and to-dos get a priority.

/// Version 1.0.0 of the to-do app.
public enum TodoSchemaV1: VersionedSchema {
    public static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    public static var models: [any PersistentModel.Type] { [Todo.self] }

    /// A to-do.
    @Model public final class Todo {
        /// What to do.
        public var title: String
        /// Whether it is done.
        public var done: Bool
        /// The project, typed by hand.
        public var project: String
        /// A to-do.
        public init(title: String, done: Bool = false, project: String) {
            self.title = title
            self.done = done
            self.project = project
        }
    }
}

/// Version 2.0.0: unique titles, `isDone`, a `Project` entity.
public enum TodoSchemaV2: VersionedSchema {
    public static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    public static var models: [any PersistentModel.Type] { [Todo.self, Project.self] }

    /// A to-do.
    @Model public final class Todo {
        /// What to do, once per store.
        @Attribute(.unique) public var title: String
        /// Whether it is done (`done` in v1).
        @Attribute(originalName: "done") public var isDone: Bool
        /// The project name of v1, kept for one version so didMigrate can read it.
        @Attribute(originalName: "project") public var projectName: String
        /// The project.
        public var project: Project?
        /// A to-do.
        public init(title: String, isDone: Bool = false, projectName: String) {
            self.title = title
            self.isDone = isDone
            self.projectName = projectName
        }
    }

    /// A project and its to-dos.
    @Model public final class Project {
        /// The project's name.
        @Attribute(.unique) public var name: String
        /// Its to-dos.
        @Relationship(deleteRule: .cascade, inverse: \Todo.project) public var todos: [Todo] = []
        /// A project.
        public init(name: String) { self.name = name }
    }
}

/// Version 3.0.0: no project name, a priority.
public enum TodoSchemaV3: VersionedSchema {
    public static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    public static var models: [any PersistentModel.Type] { [Todo.self, Project.self] }

    /// A to-do.
    @Model public final class Todo {
        /// What to do, once per store.
        @Attribute(.unique) public var title: String
        /// Whether it is done.
        public var isDone: Bool
        /// 0 (none) to 3 (urgent); 0 for every to-do of v2.
        public var priority: Int = 0
        /// The project.
        public var project: Project?
        /// A to-do.
        public init(title: String, isDone: Bool = false, priority: Int = 0) {
            self.title = title
            self.isDone = isDone
            self.priority = priority
        }
    }

    /// A project and its to-dos.
    @Model public final class Project {
        /// The project's name.
        @Attribute(.unique) public var name: String
        /// Its to-dos.
        @Relationship(deleteRule: .cascade, inverse: \Todo.project) public var todos: [Todo] = []
        /// A project.
        public init(name: String) { self.name = name }
    }
}

/// The plan: a custom stage to v2 (merge duplicate titles before the unique constraint, then make
/// projects from the names), a lightweight stage to v3.
public enum TodoMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [TodoSchemaV1.self, TodoSchemaV2.self, TodoSchemaV3.self] }
    public static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: TodoSchemaV1.self, toVersion: TodoSchemaV2.self,
        willMigrate: { context in
            // Keep the first to-do of each title; it is done if any of its duplicates was.
            var kept: [String: TodoSchemaV1.Todo] = [:]
            for todo in try context.fetch(FetchDescriptor<TodoSchemaV1.Todo>(sortBy: [SortDescriptor(\.title)])) {
                if let first = kept[todo.title] {
                    first.done = first.done || todo.done
                    context.delete(todo)
                } else {
                    kept[todo.title] = todo
                }
            }
            try context.save()
        },
        didMigrate: { context in
            var projects: [String: TodoSchemaV2.Project] = [:]
            for todo in try context.fetch(FetchDescriptor<TodoSchemaV2.Todo>(sortBy: [SortDescriptor(\.title)])) {
                let project = projects[todo.projectName] ?? TodoSchemaV2.Project(name: todo.projectName)
                projects[todo.projectName] = project
                todo.project = project
            }
            try context.save()
        })

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: TodoSchemaV2.self, toVersion: TodoSchemaV3.self)
}
