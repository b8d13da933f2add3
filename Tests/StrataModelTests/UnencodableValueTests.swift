import Foundation
import StrataModel
import Testing

/// A `Codable` value whose own `encode(to:)` throws is refused by the save (`typeMismatch`
/// naming the property), on insert and on update, required or optional; the store keeps what it
/// had. Before, the text `"null"` was stored in its place and the save succeeded.
@Suite struct UnencodableValueTests {
    struct Label: Codable, Equatable {
        var text: String
        var broken = false

        func encode(to encoder: Encoder) throws {
            if broken { throw EncodingError.invalidValue(text, .init(codingPath: [], debugDescription: "a broken label")) }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(broken, forKey: .broken)
        }
    }

    @Model final class Parcel {
        var name: String
        var label: Label
        var note: Label?
        init(name: String, label: Label, note: Label? = nil) {
            self.name = name
            self.label = label
            self.note = note
        }
    }

    /// A container of `Parcel` in the fixture's folder (which the fixture removes).
    private static func open(_ fixture: ModelFixture) throws -> ModelContainer {
        try fixture.backend.open(fixture.directory, [Parcel.self])
    }

    private static func refusal(_ error: any Error, names property: String) -> Bool {
        guard let error = error as? StrataError else { return false }
        return error.code == .typeMismatch && error.properties == [property] && error.message.contains("cannot be encoded")
    }

    @Test(arguments: ModelBackend.all) func anInsertOfAnUnencodableValueIsRefused(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try Self.open(fixture)
        let context = ModelContext(container)
        context.insert(Parcel(name: "a", label: Label(text: "fine"), note: Label(text: "bad", broken: true)))
        let error = #expect(throws: StrataError.self) { try context.save() }
        #expect(error.map { Self.refusal($0, names: "note") } == true, "\(backend): \(String(describing: error))")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Parcel>()) == 0, "\(backend): nothing stored")
    }

    @Test(arguments: ModelBackend.all) func anUpdateToAnUnencodableValueIsRefusedAndTheStoreKeepsTheOld(_ backend: ModelBackend) throws {
        let fixture = try ModelFixture(backend)
        let container = try Self.open(fixture)
        let setup = ModelContext(container)
        setup.insert(Parcel(name: "a", label: Label(text: "first")))
        try setup.save()

        let context = ModelContext(container)
        let parcel = try #require(try context.fetch(FetchDescriptor<Parcel>()).first)
        parcel.label = Label(text: "second", broken: true)
        let error = #expect(throws: StrataError.self) { try context.save() }
        #expect(error.map { Self.refusal($0, names: "label") } == true, "\(backend): \(String(describing: error))")
        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<Parcel>()).first)
        #expect(stored.label == Label(text: "first"), "\(backend): the stored value stays")

        parcel.label = Label(text: "third")
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Parcel>()).first?.label == Label(text: "third"), "\(backend): the fixed save stores it")
    }
}
