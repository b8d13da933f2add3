import Foundation
import StrataModel
import Testing

/// Property names that are Swift keywords (written in backticks), types spelled out in full, and
/// inferred types: declarations SwiftData's `@Model` accepts.
@Model final class KeywordNames {
    var `default`: Int = 0
    var `extension`: String = ""
    var `class`: String?
    var inferredCount = 3
    var inferredRatio = -0.5
    var set: Set<String> = []
    var table: [String: Int] = [:]
    var spelled: Optional<String> = nil
    var list: Array<Int> = []
    #Index<KeywordNames>([\.`default`], [\.extension])
    init() {}
}

/// Property observers on persisted properties, with the default and with custom parameter names.
@Model final class Observed {
    var title: String {
        willSet(next) { log.append("will \(title)->\(next)") }
        didSet { log.append("did \(oldValue)->\(title)") }
    }
    var count: Int = 0 {
        didSet(previous) { if count < 0 { count = previous } }
    }
    @Transient var log: [String] = []
    init(title: String) { self.title = title }
}

/// A model that declares its own `id`, as SwiftData apps often do.
@Model final class OwnIdentifier {
    @Attribute(.unique) var id: UUID
    var name: String
    init(id: UUID, name: String) { self.id = id; self.name = name }
}

/// How `@Model` reads the declarations of a class, checked by what the stores hold.
@Suite struct ModelDeclarationTests {
    @Test(arguments: ModelBackend.all) func keywordNamesAndSpelledOutTypesRoundTrip(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [KeywordNames.self]
        let schema = try #require(try Schema(models: types).entity(named: "KeywordNames"))
        #expect(schema.attributes.map(\.name) == ["default", "extension", "class", "inferredCount", "inferredRatio", "set", "table", "spelled", "list"], "names without backticks")
        #expect(schema.indexes.count == 2, "#Index with a backticked key path")
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            let k = KeywordNames()
            k.default = 5
            k.extension = "swift"
            k.class = "c"
            k.set = ["a", "b"]
            k.table = ["x": 1]
            k.spelled = "s"
            k.list = [1, 2]
            context.insert(k)
            context.insert(KeywordNames())
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, types))
        let k = try #require(try context.fetch(FetchDescriptor<KeywordNames>(predicate: #Predicate { $0.default == 5 && $0.extension == "swift" })).first)
        #expect(k.class == "c" && k.inferredCount == 3 && k.inferredRatio == -0.5 && k.set == ["a", "b"] && k.table == ["x": 1] && k.spelled == "s" && k.list == [1, 2], "\(backend)")
        #expect(try context.fetch(FetchDescriptor<KeywordNames>(sortBy: [SortDescriptor(\.default, order: .reverse)])).map(\.default) == [5, 0], "\(backend)")
        #expect(try context.fetchCount(FetchDescriptor<KeywordNames>(predicate: #Predicate { $0.class == nil })) == 1, "\(backend)")
    }

    /// `willSet` and `didSet` run on every set, as Swift runs them; the initializer's first
    /// assignment of a property without a default initializes it and runs none (docs/models.md).
    @Test func propertyObserversRunOnSet() throws {
        let fixture = try ModelFixture(ModelBackend.all[0])
        let context = ModelContext(try fixture.backend.open(fixture.directory, [Observed.self]))
        let o = Observed(title: "a")
        #expect(o.log.isEmpty, "no observer runs in init")
        context.insert(o)
        o.title = "b"
        #expect(o.log == ["will a->b", "did a->b"])
        o.count = 5
        o.count = -1
        #expect(o.count == 5, "didSet(previous) restored the old value")
        try context.save()
        let again = try #require(try ModelContext(context.container).fetch(FetchDescriptor<Observed>()).first)
        #expect(again.title == "b" && again.count == 5 && again.log.isEmpty, "a fetch runs no observer")
    }

    /// A property named `id` is the model's own attribute in predicates and sorts, not its
    /// `persistentModelID`.
    @Test(arguments: ModelBackend.all) func aModelsOwnIdProperty(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let context = ModelContext(try backend.open(fixture.directory, [OwnIdentifier.self]))
        let ids = [UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, UUID(uuidString: "00000000-0000-0000-0000-000000000001")!]
        for (n, id) in ids.enumerated() { context.insert(OwnIdentifier(id: id, name: "n\(n)")) }
        try context.save()
        let wanted = ids[1]
        #expect(try context.fetch(FetchDescriptor<OwnIdentifier>(predicate: #Predicate { $0.id == wanted })).map(\.name) == ["n1"], "\(backend)")
        #expect(try context.fetch(FetchDescriptor<OwnIdentifier>(sortBy: [SortDescriptor(\.id)])).map(\.name) == ["n1", "n0"], "\(backend)")
        context.insert(OwnIdentifier(id: wanted, name: "again"))
        #expect(throws: StrataError.self, "\(backend): the unique id collides") { try context.save() }
    }
}
