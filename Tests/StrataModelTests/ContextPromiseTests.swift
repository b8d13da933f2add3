import Foundation
import StrataModel
import Testing

/// What a `ModelContext` promises, on every built-in backend (issue 27): its fetches see its own
/// unsaved work, `rollback()` returns to what is stored, one object per record (the identity map)
/// also after a deleted object is saved, relationships agree on both sides after a save and a
/// reopen, and `upsert` finds the stored record through every shape of unique constraint.
@Suite struct ContextPromiseTests {
    /// A store of two groups, two labels and three items: a, b in group Work, c in no group.
    struct Store {
        let fixture: ModelFixture
        let container: ModelContainer
        let ids: [String: PersistentIdentifier]

        init(_ backend: ModelBackend) throws {
            fixture = try ModelFixture(backend)
            container = try backend.open(fixture.directory, OracleStore.types)
            let context = ModelContext(container)
            let work = OracleGroup(name: "Work", archived: false), home = OracleGroup(name: "Home", archived: true)
            let urgent = OracleLabel(name: "urgent", weight: 1), later = OracleLabel(name: "later", weight: 2)
            let items = ["a", "b", "c"].enumerated().map { n, name in
                OracleItem(name: name, note: nil, count: n, score: Double(n), bonus: nil, when: Date(timeIntervalSince1970: Double(n)), flag: false, level: .low, kind: nil)
            }
            for model in [work, home] as [any PersistentModel] + [urgent, later] + items { context.insert(model) }
            items[0].group = work
            items[1].group = work
            items[0].labels = [urgent, later]
            try context.save()
            ids = Dictionary(uniqueKeysWithValues: zip(["a", "b", "c", "Work", "Home", "urgent", "later"], (items as [any PersistentModel] + [work, home, urgent, later]).map(\.persistentModelID)))
        }

        /// Item names as a fresh context reads them from the store, by name.
        func storedNames(_ predicate: Predicate<OracleItem>? = nil) throws -> [String] {
            try ModelContext(container).fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])).map(\.name)
        }
    }

    @Test(arguments: ModelBackend.all) func fetchesSeeTheContextsOwnUnsavedWork(_ backend: ModelBackend) throws {
        let store = try Store(backend)
        let context = ModelContext(store.container)
        let a = try context.model(for: store.ids["a"]!, as: OracleItem.self)
        let c = try context.model(for: store.ids["c"]!, as: OracleItem.self)
        a.count = 100
        context.delete(c)
        let d = OracleItem(name: "d", note: "new", count: 50, score: 0, bonus: nil, when: .distantPast, flag: true, level: .high, kind: .beta)
        context.insert(d)
        let names = try context.fetch(FetchDescriptor<OracleItem>(sortBy: [SortDescriptor(\.count, order: .reverse)])).map(\.name)
        #expect(names == ["a", "d", "b"], "changed a sorts by its new count, new d appears, deleted c does not")
        #expect(try context.fetch(FetchDescriptor<OracleItem>(predicate: #Predicate { $0.count >= 50 })).map(\.name) == ["a", "d"])
        #expect(try context.fetchCount(FetchDescriptor<OracleItem>(predicate: #Predicate { $0.count < 50 })) == 1, "only b: c is deleted")
        #expect(try store.storedNames() == ["a", "b", "c"], "another context sees only what is stored")
        var storeOnly = FetchDescriptor<OracleItem>(sortBy: [SortDescriptor(\.name)])
        storeOnly.includePendingChanges = false
        #expect(try context.fetch(storeOnly).map(\.name) == ["a", "b", "c"], "includePendingChanges = false reads the store alone")
    }

    @Test(arguments: ModelBackend.all) func rollbackReturnsToWhatIsStored(_ backend: ModelBackend) throws {
        let store = try Store(backend)
        let context = ModelContext(store.container)
        let a = try context.model(for: store.ids["a"]!, as: OracleItem.self)
        let b = try context.model(for: store.ids["b"]!, as: OracleItem.self)
        let home = try context.model(for: store.ids["Home"]!, as: OracleGroup.self)
        a.name = "changed"
        a.note = "note"
        a.group = home
        a.labels = []
        context.delete(b)
        context.insert(OracleItem(name: "new", note: nil, count: 9, score: 9, bonus: 9, when: .distantFuture, flag: true, level: .mid, kind: .alpha))
        #expect(context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty && context.changedModelsArray.isEmpty && context.deletedModelsArray.isEmpty)
        #expect(a.name == "a" && a.note == nil, "the changed object reads its stored values again")
        #expect(a.group?.name == "Work", "and its stored to-one")
        #expect(Set(a.labels.map(\.name)) == ["urgent", "later"], "and its stored to-many")
        #expect(Set(home.items.map(\.name)).isEmpty, "the inverse side is back too")
        #expect(!b.isDeleted, "the deleted object is back")
        #expect(try context.fetch(FetchDescriptor<OracleItem>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["a", "b", "c"])
        try context.save()
        #expect(try store.storedNames() == ["a", "b", "c"], "a save after rollback writes nothing of the rolled-back work")
    }

    @Test(arguments: ModelBackend.all) func oneObjectPerRecordAlsoAfterADeleteIsSaved(_ backend: ModelBackend) throws {
        let store = try Store(backend)
        let context = ModelContext(store.container)
        let fetched = try context.fetch(FetchDescriptor<OracleItem>(sortBy: [SortDescriptor(\.name)]))
        let again = try context.fetch(FetchDescriptor<OracleItem>(predicate: #Predicate { $0.name == "a" }))
        #expect(again.first === fetched.first, "a second fetch returns the same object")
        #expect(try context.model(for: store.ids["a"]!, as: OracleItem.self) === fetched[0], "model(for:) returns it too")
        #expect((context.registeredModel(for: store.ids["a"]!) as OracleItem?) === fetched[0])
        #expect(fetched[0].group === fetched[1].group, "a and b share one group object")

        let b = fetched[1], bID = b.persistentModelID
        context.delete(b)
        try context.save()
        #expect(b.isDeleted, "a saved delete marks the object deleted")
        #expect((context.registeredModel(for: bID) as OracleItem?) == nil, "the identity map no longer holds the deleted record")
        #expect(context.model(for: bID) as? OracleItem == nil, "model(for:) finds no record")
        #expect(throws: StrataError.self) { try context.model(for: bID, as: OracleItem.self) }
        #expect(try context.fetch(FetchDescriptor<OracleItem>(sortBy: [SortDescriptor(\.name)])).map(\.name) == ["a", "c"])
        let work = try context.model(for: store.ids["Work"]!, as: OracleGroup.self)
        #expect(work.items.map(\.name) == ["a"], "the deleted item left its group's list")

        let replacement = OracleItem(name: "b", note: nil, count: 1, score: 1, bonus: nil, when: .distantPast, flag: false, level: .low, kind: nil)
        context.insert(replacement)
        try context.save()
        #expect(replacement.persistentModelID != bID, "a new record never takes a deleted record's identifier")
        #expect((context.registeredModel(for: replacement.persistentModelID) as OracleItem?) === replacement)
        #expect(try store.storedNames() == ["a", "b", "c"])
    }

    @Test(arguments: ModelBackend.all) func relationshipsAgreeAfterSaveAndReopen(_ backend: ModelBackend) throws {
        let store = try Store(backend)
        let context = ModelContext(store.container)
        let b = try context.model(for: store.ids["b"]!, as: OracleItem.self)
        let c = try context.model(for: store.ids["c"]!, as: OracleItem.self)
        let home = try context.model(for: store.ids["Home"]!, as: OracleGroup.self)
        let later = try context.model(for: store.ids["later"]!, as: OracleLabel.self)
        b.group = home  // moves b from Work to Home
        c.group = home
        c.labels = [later]
        let d = OracleItem(name: "d", note: nil, count: 3, score: 3, bonus: nil, when: .distantPast, flag: false, level: .low, kind: nil)
        context.insert(d)
        home.items.append(d)
        try context.save()

        func check(_ context: ModelContext, _ when: Comment) throws {
            let items = try context.fetch(FetchDescriptor<OracleItem>(sortBy: [SortDescriptor(\.name)]))
            #expect(items.map { $0.group?.name ?? "-" } == ["Work", "Home", "Home", "Home"], when)
            let work = try context.model(for: store.ids["Work"]!, as: OracleGroup.self)
            let home = try context.model(for: store.ids["Home"]!, as: OracleGroup.self)
            #expect(work.items.map(\.name) == ["a"], when)
            #expect(Set(home.items.map(\.name)) == ["b", "c", "d"], when)
            let later = try context.model(for: store.ids["later"]!, as: OracleLabel.self)
            #expect(Set(later.items.map(\.name)) == ["a", "c"], when)
            #expect(try context.fetch(FetchDescriptor<OracleItem>(predicate: #Predicate { $0.group?.name == "Home" })).count == 3, when)
        }
        try check(context, "the saving context")
        try check(ModelContext(store.container), "a new context")
        let reopened = try backend.open(store.fixture.directory, OracleStore.types)
        try check(ModelContext(reopened), "a reopened container")
    }

    @Test(arguments: ModelBackend.all) func upsertFindsTheStoredRecordThroughEveryConstraintShape(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try backend.open(fixture.directory, [Trip.self, Person.self, User.self, Shelf.self])
        let setup = ModelContext(container)
        let ann = User(email: "ann@example.com", name: "Ann"), bob = User(email: "bob@example.com", name: "Bob")
        let trip = Trip(name: "Rome", destination: "Italy"), person = Person(first: "Ada", last: "Lovelace")
        let shelf = Shelf(label: "A", owner: ann)
        for model in [ann, bob, trip, person, shelf] as [any PersistentModel] { setup.insert(model) }
        try setup.save()

        let context = ModelContext(container)
        // One attribute (@Attribute(.unique)).
        let sameTrip = try context.upsert(Trip(name: "Rome", destination: "Lazio"))
        #expect(sameTrip.persistentModelID == trip.persistentModelID && sameTrip.destination == "Lazio")
        // Two attributes (#Unique([\.first, \.last])): both must match.
        let samePerson = try context.upsert(Person(first: "Ada", last: "Lovelace"))
        #expect(samePerson.persistentModelID == person.persistentModelID)
        let otherPerson = try context.upsert(Person(first: "Ada", last: "Byron"))
        #expect(otherPerson.persistentModelID.isTemporary, "the same first name alone is no match")
        // An attribute and a to-one (#Unique([\.label, \.owner])): the owner must match too.
        let annInContext = try context.model(for: ann.persistentModelID, as: User.self)
        let bobInContext = try context.model(for: bob.persistentModelID, as: User.self)
        let sameShelf = try context.upsert(Shelf(label: "A", owner: annInContext))
        #expect(sameShelf.persistentModelID == shelf.persistentModelID)
        let otherShelf = try context.upsert(Shelf(label: "A", owner: bobInContext))
        #expect(otherShelf.persistentModelID.isTemporary, "the same label with another owner is no match")
        try context.save()

        let check = ModelContext(container)
        #expect(try check.fetch(FetchDescriptor<Trip>()).map(\.destination) == ["Lazio"])
        #expect(try check.fetch(FetchDescriptor<Person>(sortBy: [SortDescriptor(\.last)])).map(\.last) == ["Byron", "Lovelace"])
        let shelves = try check.fetch(FetchDescriptor<Shelf>()).map { "\($0.label) \($0.owner?.name ?? "-")" }.sorted()
        #expect(shelves == ["A Ann", "A Bob"])
    }
}
