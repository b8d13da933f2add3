import Foundation
import StrataModel
import Testing

/// One `#Predicate` and the same test written on plain rows.
struct PredicateCase {
    let name: String
    let predicate: Predicate<QueryNote>
    let expected: (NoteRow) -> Bool
}

/// The table: every supported construct, each checked on every backend against the rows
/// filtered by plain Swift (no Strata involved in the expectation).
enum PredicateTable {
    static func cases(_ store: QueryStore, _ context: ModelContext) throws -> [PredicateCase] {
        let cutoff = NoteRow.day(5)
        let high = QueryPriority.high, low = QueryPriority.low
        let limit = 9
        let work = "Work"
        let workFolder = try context.model(for: store.folderIDs["Work"]!, as: QueryFolder.self)
        let urgent = try context.model(for: store.tagIDs["urgent"]!, as: QueryTag.self)
        let chosenTitles = ["Garden", "Zen", "Nope"]
        let chosenIDs = [store.ids["Garden"]!, store.ids["Zen"]!]
        let travelID = store.ids["Travel"]!
        let folders: [QueryFolder?] = [workFolder, nil]
        let tagName = "idea"
        return [
            PredicateCase(name: "bool property", predicate: #Predicate { $0.isPinned }, expected: { $0.pinned }),
            PredicateCase(name: "negated bool", predicate: #Predicate { !$0.isPinned }, expected: { !$0.pinned }),
            PredicateCase(name: "bool == false", predicate: #Predicate { $0.isPinned == false }, expected: { $0.pinned == false }),
            PredicateCase(name: "string ==", predicate: #Predicate { $0.title == "Groceries" }, expected: { $0.title == "Groceries" }),
            PredicateCase(name: "string !=", predicate: #Predicate { $0.title != "Groceries" }, expected: { $0.title != "Groceries" }),
            PredicateCase(name: "string <", predicate: #Predicate { $0.title < "H" }, expected: { $0.title < "H" }),
            PredicateCase(name: "double >", predicate: #Predicate { $0.rating > 3.5 }, expected: { $0.rating > 3.5 }),
            PredicateCase(name: "double >= integer literal", predicate: #Predicate { $0.rating >= 4 }, expected: { $0.rating >= 4 }),
            PredicateCase(name: "value on the left", predicate: #Predicate { 2 > $0.rating }, expected: { 2 > $0.rating }),
            PredicateCase(name: "&&", predicate: #Predicate { $0.rating <= 2.5 && $0.isPinned }, expected: { $0.rating <= 2.5 && $0.pinned }),
            PredicateCase(name: "||", predicate: #Predicate { $0.views == 0 || $0.rating == 5 }, expected: { $0.views == 0 || $0.rating == 5 }),
            PredicateCase(name: "! of ||", predicate: #Predicate { !($0.isPinned || $0.rating > 4) }, expected: { !($0.pinned || $0.rating > 4) }),
            PredicateCase(name: "captured date", predicate: #Predicate { $0.createdAt < cutoff }, expected: { $0.createdAt < cutoff }),
            PredicateCase(name: "date || bool", predicate: #Predicate { $0.createdAt >= cutoff || $0.isPinned }, expected: { $0.createdAt >= cutoff || $0.pinned }),
            PredicateCase(name: "two properties", predicate: #Predicate { $0.updatedAt > $0.createdAt }, expected: { $0.updatedAt > $0.createdAt }),
            PredicateCase(name: "enum ==", predicate: #Predicate { $0.priority == high }, expected: { $0.priority == 2 }),
            PredicateCase(name: "enum !=", predicate: #Predicate { $0.priority != low }, expected: { $0.priority != 0 }),
            PredicateCase(name: "enum rawValue", predicate: #Predicate { $0.priority.rawValue >= 1 }, expected: { $0.priority >= 1 }),
            PredicateCase(name: "enum list membership", predicate: #Predicate { [low, high].contains($0.priority) }, expected: { [0, 2].contains($0.priority) }),
            PredicateCase(name: "int list membership", predicate: #Predicate { [1, 2, 5].contains($0.views) }, expected: { [1, 2, 5].contains($0.views) }),
            PredicateCase(name: "string list membership", predicate: #Predicate { chosenTitles.contains($0.title) }, expected: { chosenTitles.contains($0.title) }),
            PredicateCase(name: "folded arithmetic", predicate: #Predicate { $0.views > limit + 1 }, expected: { $0.views > limit + 1 }),
            PredicateCase(name: "folded negation", predicate: #Predicate { $0.views > -limit && $0.views < 3 }, expected: { $0.views > -limit && $0.views < 3 }),
            PredicateCase(name: "closed range", predicate: #Predicate { (10...40).contains($0.views) }, expected: { (10...40).contains($0.views) }),
            PredicateCase(name: "half-open range", predicate: #Predicate { (10..<40).contains($0.views) }, expected: { (10..<40).contains($0.views) }),
            PredicateCase(name: "optional == nil", predicate: #Predicate { $0.summary == nil }, expected: { $0.summary == nil }),
            PredicateCase(name: "optional != nil", predicate: #Predicate { $0.summary != nil }, expected: { $0.summary != nil }),
            PredicateCase(name: "optional == value", predicate: #Predicate { $0.summary == "short" }, expected: { $0.summary == "short" }),
            PredicateCase(name: "optional != value", predicate: #Predicate { $0.summary != "short" }, expected: { $0.summary != "short" }),
            PredicateCase(name: "nil coalescing", predicate: #Predicate { ($0.summary ?? "none") == "none" }, expected: { ($0.summary ?? "none") == "none" }),
            PredicateCase(name: "to-one == nil", predicate: #Predicate { $0.folder == nil }, expected: { $0.folder == nil }),
            PredicateCase(name: "to-one != nil", predicate: #Predicate { $0.folder != nil }, expected: { $0.folder != nil }),
            PredicateCase(name: "optional chain ==", predicate: #Predicate { $0.folder?.name == "Work" }, expected: { $0.folder == "Work" }),
            PredicateCase(name: "optional chain !=", predicate: #Predicate { $0.folder?.name != "Work" }, expected: { $0.folder != "Work" }),
            PredicateCase(name: "optional chain && captured", predicate: #Predicate { $0.folder?.name == work && $0.isPinned }, expected: { $0.folder == work && $0.pinned }),
            PredicateCase(name: "optional chain bool", predicate: #Predicate { $0.folder?.isArchived == true }, expected: { $0.folderRow?.isArchived == true }),
            PredicateCase(name: "optional chain search", predicate: #Predicate { $0.folder?.name.starts(with: "Ho") == true }, expected: { $0.folder?.starts(with: "Ho") == true }),
            PredicateCase(name: "related model ==", predicate: #Predicate { $0.folder == workFolder }, expected: { $0.folder == "Work" }),
            PredicateCase(name: "related model !=", predicate: #Predicate { $0.folder != workFolder }, expected: { $0.folder != "Work" }),
            PredicateCase(name: "related models membership", predicate: #Predicate { folders.contains($0.folder) }, expected: { $0.folder == "Work" || $0.folder == nil }),
            PredicateCase(name: "contains", predicate: #Predicate { $0.title.contains("an") }, expected: { $0.title.contains("an") }),
            PredicateCase(name: "starts(with:)", predicate: #Predicate { $0.title.starts(with: "Gr") }, expected: { $0.title.starts(with: "Gr") }),
            PredicateCase(name: "localizedStandardContains", predicate: #Predicate { $0.body.localizedStandardContains("MILK") }, expected: { $0.body.localizedStandardContains("MILK") }),
            PredicateCase(name: "optional search == true", predicate: #Predicate { $0.summary?.contains("sh") == true }, expected: { $0.summary?.contains("sh") == true }),
            PredicateCase(name: "optional search != true", predicate: #Predicate { $0.summary?.contains("sh") != true }, expected: { $0.summary?.contains("sh") != true }),
            PredicateCase(name: "string isEmpty", predicate: #Predicate { $0.body.isEmpty }, expected: { $0.body.isEmpty }),
            PredicateCase(name: "identifier membership", predicate: #Predicate { chosenIDs.contains($0.persistentModelID) }, expected: { ["Garden", "Zen"].contains($0.title) }),
            PredicateCase(name: "identifier ==", predicate: #Predicate { $0.persistentModelID == travelID }, expected: { $0.title == "Travel" }),
            PredicateCase(name: "conditional of conditions", predicate: #Predicate { $0.isPinned ? $0.rating > 4 : $0.rating < 2 }, expected: { $0.pinned ? $0.rating > 4 : $0.rating < 2 }),
            PredicateCase(name: "conditional value", predicate: #Predicate { ($0.isPinned ? $0.views : 0) > 20 }, expected: { ($0.pinned ? $0.views : 0) > 20 }),
            PredicateCase(name: "test over a captured list", predicate: #Predicate { note in chosenTitles.contains { $0 == note.title } }, expected: { row in chosenTitles.contains { $0 == row.title } }),
            PredicateCase(name: "to-many contains a model", predicate: #Predicate { $0.tags.contains(urgent) }, expected: { $0.tags.contains("urgent") }),
            PredicateCase(name: "to-many contains(where:)", predicate: #Predicate { $0.tags.contains { $0.name == "urgent" } }, expected: { $0.tags.contains("urgent") }),
            PredicateCase(name: "to-many !isEmpty", predicate: #Predicate { !$0.tags.isEmpty }, expected: { !$0.tags.isEmpty }),
            PredicateCase(name: "to-many isEmpty", predicate: #Predicate { $0.tags.isEmpty }, expected: { $0.tags.isEmpty }),
            PredicateCase(name: "to-many count >=", predicate: #Predicate { $0.tags.count >= 2 }, expected: { $0.tags.count >= 2 }),
            PredicateCase(name: "to-many count == (value on the left)", predicate: #Predicate { 1 == $0.tags.count }, expected: { $0.tags.count == 1 }),
            PredicateCase(name: "allSatisfy", predicate: #Predicate { $0.tags.allSatisfy { $0.name != "later" } }, expected: { $0.tags.allSatisfy { $0 != "later" } }),
            PredicateCase(name: "to-many search && attribute", predicate: #Predicate { $0.tags.contains { $0.name.starts(with: "l") } && $0.isPinned }, expected: { $0.tags.contains { $0.starts(with: "l") } && $0.pinned }),
            PredicateCase(name: "to-many test with a captured value", predicate: #Predicate { $0.tags.contains { $0.name == tagName } || $0.views > 50 }, expected: { $0.tags.contains(tagName) || $0.views > 50 }),
            PredicateCase(name: "negated to-many test", predicate: #Predicate { !$0.tags.contains { $0.name == "idea" } }, expected: { !$0.tags.contains("idea") }),
            PredicateCase(name: "count through a to-one", predicate: #Predicate { ($0.folder?.notes.count ?? 0) > 3 }, expected: { row in row.folder != nil && NoteRow.all.filter { $0.folder == row.folder }.count > 3 }),
            PredicateCase(name: "to-many test through a to-one", predicate: #Predicate { $0.folder?.notes.contains { $0.rating >= 5 } == true }, expected: { row in row.folder != nil && NoteRow.all.contains { $0.folder == row.folder && $0.rating >= 5 } }),
        ]
    }
}

/// To-many tests seen from the other side: folders by their notes.
enum FolderPredicateTable {
    static func notes(in folder: FolderRow) -> [NoteRow] { NoteRow.all.filter { $0.folder == folder.name } }

    static var cases: [(name: String, predicate: Predicate<QueryFolder>, expected: (FolderRow) -> Bool)] { [
        ("notes.count > 3", #Predicate { $0.notes.count > 3 }, { notes(in: $0).count > 3 }),
        ("notes.count <= 2", #Predicate { $0.notes.count <= 2 }, { notes(in: $0).count <= 2 }),
        ("notes contain a pinned, well-rated one", #Predicate { $0.notes.contains { $0.isPinned && $0.rating > 4 } }, { notes(in: $0).contains { $0.pinned && $0.rating > 4 } }),
        ("every note rated 1.5 or more", #Predicate { $0.notes.allSatisfy { $0.rating >= 1.5 } }, { notes(in: $0).allSatisfy { $0.rating >= 1.5 } }),
        ("a note tagged urgent (to-many in to-many)", #Predicate { $0.notes.contains { $0.tags.contains { $0.name == "urgent" } } }, { notes(in: $0).contains { $0.tags.contains("urgent") } }),
        ("every note pinned or untagged", #Predicate { $0.notes.allSatisfy { $0.isPinned || $0.tags.isEmpty } }, { notes(in: $0).allSatisfy { $0.pinned || $0.tags.isEmpty } }),
    ] }
}

@Suite struct PredicateTableTests {
    @Test(arguments: ModelBackend.all) func everyPredicateMatchesPlainSwift(_ backend: ModelBackend) throws {
        let store = try QueryStore(backend)
        let context = store.context()
        let cases = try PredicateTable.cases(store, context)
        #expect(cases.count >= 40)
        for entry in cases {
            let expected = NoteRow.all.filter(entry.expected).map(\.title).sorted()
            #expect(!expected.isEmpty && expected.count < NoteRow.all.count, "\(entry.name): the data should make the case discriminate")
            do {
                let found = try ModelContext(store.container).fetch(FetchDescriptor(predicate: entry.predicate))
                #expect(found.map(\.title).sorted() == expected, "\(entry.name) on \(backend)")
                let count = try context.fetchCount(FetchDescriptor(predicate: entry.predicate))
                #expect(count == expected.count, "\(entry.name) fetchCount on \(backend)")
            } catch {
                Issue.record("\(entry.name) on \(backend): \(error)")
            }
        }
        for entry in FolderPredicateTable.cases {
            let expected = FolderRow.all.filter(entry.expected).map(\.name).sorted()
            #expect(!expected.isEmpty && expected.count < FolderRow.all.count, "\(entry.name): the data should make the case discriminate")
            do {
                let found = try context.fetch(FetchDescriptor(predicate: entry.predicate))
                #expect(found.map(\.name).sorted() == expected, "\(entry.name) on \(backend)")
            } catch {
                Issue.record("\(entry.name) on \(backend): \(error)")
            }
        }
    }
}
