import Foundation
import Strata

/// The data of the standard benchmark workload (`docs/workload.md`): owners with 100 items each.
public enum WorkloadSchema {
    /// `Owner { name; items → Item.owner (cascade) }`, `Item { name (unique); category (indexed);
    /// price; createdAt; note?; owner }`.
    public static let schema: Schema = {
        do {
            return try Schema {
                Entity("Owner") {
                    Attribute("name", .string)
                    Relationship.toMany("items", "Item", inverse: "owner", deleteRule: .cascade)
                }
                Entity("Item") {
                    Attribute("name", .string, unique: true)
                    Attribute("category", .int, indexed: true)
                    Attribute("price", .double)
                    Attribute("createdAt", .date)
                    Attribute("note", .string, optional: true)
                    Relationship.toOne("owner", "Owner", inverse: "items")
                }
            }
        } catch { preconditionFailure("The workload schema is invalid: \(error)") }
    }()

    /// The fixed epoch of `createdAt`.
    public static let epoch = Date(timeIntervalSince1970: 1_700_000_000)
    /// The 40-character note of even items.
    public static let note = String(repeating: "abcdefghij", count: 4)

    /// The attribute values of item `index`, in the entity's order (raw baselines use them too).
    public static func itemValues(_ index: Int) -> [Value] {
        let digits = String(index)
        let name = "item-" + String(repeating: "0", count: max(0, 11 - digits.count)) + digits
        return [
            .string(name), .int(Int64(index % 100)), .double(Double(index) * 0.25),
            .date(epoch.addingTimeInterval(Double(index))), index % 2 == 1 ? .null : .string(note),
        ]
    }
}

/// A small, fixed-seed random generator (SplitMix64), so every run draws the same identifiers.
public struct SeededGenerator: RandomNumberGenerator {
    /// The generator's state; start it at the workload's seed (42).
    public var state: UInt64
    /// A generator from a seed.
    public init(state: UInt64) { self.state = state }
    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
