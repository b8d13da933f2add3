import Foundation
import StrataConformance
import StrataModel

/// The standard workload's `Owner` as a model (`docs/workload.md`): the same schema as
/// `WorkloadSchema.schema`, so both levels of `strata model-bench` write the same tables.
@Model final class Owner {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Item.owner) var items: [Item] = []
    init(name: String) { self.name = name }
}

/// The standard workload's `Item` as a model.
@Model final class Item {
    @Attribute(.unique) var name: String
    var category: Int
    var price: Double
    var createdAt: Date
    var note: String?
    var owner: Owner?
    #Index<Item>([\.category])

    init(name: String, category: Int, price: Double, createdAt: Date, note: String?) {
        self.name = name
        self.category = category
        self.price = price
        self.createdAt = createdAt
        self.note = note
    }

    /// Item `index` of the workload, with the values of `WorkloadSchema.itemValues(index)`.
    convenience init(workloadIndex index: Int) {
        let digits = String(index)
        self.init(
            name: "item-" + String(repeating: "0", count: max(0, 11 - digits.count)) + digits, category: index % 100,
            price: Double(index) * 0.25, createdAt: WorkloadSchema.epoch.addingTimeInterval(Double(index)),
            note: index % 2 == 1 ? nil : WorkloadSchema.note)
    }
}
