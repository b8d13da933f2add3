import Foundation
import StrataModel
import StrataSQLite
import Testing

@Model final class Owner {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Item.owner) var items: [Item] = []
    init(name: String) { self.name = name }
}

@Model final class Item {
    @Attribute(.unique) var name: String
    var price: Double = 0
    var owner: Owner?
    init(name: String, price: Double) { self.name = name; self.price = price }
}

/// The README's example, statement for statement, so it cannot drift from the code.
@Test func readmeModelExampleRuns() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).sqlite")
    defer { try? FileManager.default.removeItem(at: url) }
    let container = try ModelContainer(for: Owner.self, configurations: SQLiteStoreConfiguration(url: url, schema: .empty))
    let context = ModelContext(container)
    let ada = Owner(name: "Ada")
    context.insert(ada)
    ada.items.append(Item(name: "pen", price: 1.5))      // inserted with Ada; pen.owner is Ada
    try context.save()
    let cheap = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.price < 2 && $0.owner?.name == "Ada" }, sortBy: [SortDescriptor(\.name)]))
    #expect(cheap.map(\.name) == ["pen"])
    #expect(cheap[0].owner?.name == "Ada")

    // The claims under the example.
    context.insert(Item(name: "pen", price: 9))
    do {
        try context.save()
        Issue.record("a duplicate was saved")
    } catch let error as StrataError {
        #expect(error.code == .uniqueConstraintViolation && error.identifiers.first == cheap[0].persistentModelID)
    }
    context.rollback()
    context.delete(ada)
    try context.save()
    #expect(try context.fetchCount(FetchDescriptor<Item>()) == 0)
}
