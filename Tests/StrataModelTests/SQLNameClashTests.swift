import Foundation
import StrataModel
import Testing

/// Two entities whose names differ only in ASCII case: one table name to SQLite.
@Model final class Nk {
    var name: String
    init(name: String) { self.name = name }
}

/// `Nk` in capitals.
@Model final class NK {
    var name: String
    init(name: String) { self.name = name }
}

/// A 61-byte entity name: PostgreSQL cuts `<name>__unique_0` and `__unique_1` to one 63-byte name.
@Model final class LongEntityNameThatPostgreSQLCutsAfterSixtyThreeBytesOfTheName {
    @Attribute(.unique) var first: String
    @Attribute(.unique) var second: String
    init(first: String, second: String) { self.first = first; self.second = second }
}

/// Schemas whose SQL names coincide as the server compares names (ASCII case on SQLite, the first
/// 63 bytes on PostgreSQL): refused at open with `unsupported` naming both, never a server error
/// or two objects silently made one; every other backend stores them.
@Suite struct SQLNameClashTests {
    /// Opens `types` in `fixture`, saves `make`'s objects and opens the store again; for a backend
    /// in `refusing`, expects `unsupported` at open and returns nil.
    static func openAndSave(_ fixture: ModelFixture, _ types: [any PersistentModel.Type], refusing: Set<String>, _ make: () -> [any PersistentModel]) throws -> ModelContainer? {
        let backend = fixture.backend
        guard refusing.contains(backend.name) else {
            let context = ModelContext(try backend.open(fixture.directory, types))
            for model in make() { context.insert(model) }
            try context.save()
            return try backend.open(fixture.directory, types)
        }
        let error = #expect(throws: StrataError.self, "\(backend): refused at open") { _ = try backend.open(fixture.directory, types) }
        #expect(error?.code == .unsupported, "\(backend): \(String(describing: error))")
        return nil
    }

    @Test(arguments: ModelBackend.all) func entityNamesDifferingInCase(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        guard let container = try Self.openAndSave(fixture, [Nk.self, NK.self], refusing: ["sqlite"], { [Nk(name: "lower"), NK(name: "upper")] }) else { return }
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Nk>()).map(\.name) == ["lower"], "\(backend)")
        #expect(try context.fetch(FetchDescriptor<NK>()).map(\.name) == ["upper"], "\(backend)")
    }

    @Test(arguments: ModelBackend.all) func indexNamesPastSixtyThreeBytes(_ backend: ModelBackend) throws {
        typealias Long = LongEntityNameThatPostgreSQLCutsAfterSixtyThreeBytesOfTheName
        let fixture = try ModelFixture(backend)
        guard let container = try Self.openAndSave(fixture, [Long.self], refusing: ["postgres"], { [Long(first: "a", second: "b"), Long(first: "c", second: "d")] }) else { return }
        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<Long>()) == 2, "\(backend)")
        context.insert(Long(first: "e", second: "b"))
        let error = #expect(throws: StrataError.self, "\(backend): the second unique constraint holds") { try context.save() }
        #expect(error?.code == .uniqueConstraintViolation, "\(backend)")
    }
}
