import Foundation
import StrataModel
import Testing

// Two many-to-many pairs whose SQL join tables were both named `Jq_b_c__Jw_y_z`:
// `Jq.b_c` ↔ `Jw.y_z` and `Jq_b.c` ↔ `Jw_y.z` (entity `_` relationship, joined by `__`).

/// One side of the first pair.
@Model final class Jq {
    var name: String
    @Relationship(inverse: \Jw.y_z) var b_c: [Jw] = []
    init(name: String) { self.name = name }
}

/// The other side of the first pair.
@Model final class Jw {
    var name: String
    var y_z: [Jq] = []
    init(name: String) { self.name = name }
}

/// One side of the second pair: entity `Jq_b`, relationship `c`.
@Model final class Jq_b {
    var name: String
    @Relationship(inverse: \Jw_y.z) var c: [Jw_y] = []
    init(name: String) { self.name = name }
}

/// The other side of the second pair: entity `Jw_y`, relationship `z`.
@Model final class Jw_y {
    var name: String
    var z: [Jq_b] = []
    init(name: String) { self.name = name }
}

// A pair whose two join columns were both named `Jk_m_n`: `Jk.m_n` ↔ `Jk_m.n`.

/// Relationship `m_n` to `Jk_m`.
@Model final class Jk {
    var name: String
    @Relationship(inverse: \Jk_m.n) var m_n: [Jk_m] = []
    init(name: String) { self.name = name }
}

/// Entity `Jk_m`, relationship `n` back to `Jk`.
@Model final class Jk_m {
    var name: String
    var n: [Jk] = []
    init(name: String) { self.name = name }
}

/// Many-to-many relationships whose entity and relationship names contain `_` keep their own
/// links on every backend: the SQL backends' join tables cannot share a name or a column.
@Suite struct JoinTableNameTests {
    @Test(arguments: ModelBackend.all) func pairsWithCollidingLegacyNamesKeepTheirOwnLinks(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [Jq.self, Jw.self, Jq_b.self, Jw_y.self]
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            let q = Jq(name: "q"), w = Jw(name: "w"), qb = Jq_b(name: "qb"), wy = Jw_y(name: "wy"), lone = Jw(name: "lone")
            for model in [q, w, lone] as [any PersistentModel] { context.insert(model) }
            context.insert(qb)
            context.insert(wy)
            q.b_c = [lone]
            qb.c = [wy]
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, types))
        let q = try #require(try context.fetch(FetchDescriptor<Jq>()).first)
        let qb = try #require(try context.fetch(FetchDescriptor<Jq_b>()).first)
        let w = try #require(try context.fetch(FetchDescriptor<Jw>(predicate: #Predicate { $0.name == "w" })).first)
        #expect(q.b_c.map(\.name) == ["lone"], "\(backend): Jq.b_c")
        #expect(qb.c.map(\.name) == ["wy"], "\(backend): Jq_b.c")
        #expect(w.y_z.isEmpty, "\(backend): Jw.y_z")
        let wy = try #require(try context.fetch(FetchDescriptor<Jw_y>()).first)
        #expect(wy.z.map(\.name) == ["qb"], "\(backend): Jw_y.z")
        #expect(try context.fetchCount(FetchDescriptor<Jq>(predicate: #Predicate { !$0.b_c.isEmpty })) == 1, "\(backend): to-many predicate over Jq.b_c")
    }

    @Test(arguments: ModelBackend.all) func aPairWhoseColumnsCollidedOpensAndLinks(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let types: [any PersistentModel.Type] = [Jk.self, Jk_m.self]
        do {
            let context = ModelContext(try backend.open(fixture.directory, types))
            let k = Jk(name: "k"), m1 = Jk_m(name: "m1"), m2 = Jk_m(name: "m2")
            context.insert(k)
            k.m_n = [m1, m2]
            context.insert(Jk_m(name: "alone"))
            try context.save()
        }
        let context = ModelContext(try backend.open(fixture.directory, types))
        let k = try #require(try context.fetch(FetchDescriptor<Jk>()).first)
        #expect(Set(k.m_n.map(\.name)) == ["m1", "m2"], "\(backend): Jk.m_n")
        let alone = try #require(try context.fetch(FetchDescriptor<Jk_m>(predicate: #Predicate { $0.name == "alone" })).first)
        #expect(alone.n.isEmpty, "\(backend): Jk_m.n of an unlinked record")
    }
}
