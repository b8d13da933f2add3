import Foundation
import Strata

extension FixtureDomain {
    /// Writes a small library that uses every entity, relationship shape and delete rule of the
    /// fixture into `store`, so a person can open what a backend writes with the backend's own tools.
    ///
    /// - Returns: the permanent identifiers of the inserted records.
    @discardableResult
    public static func writeSample<Store: DataStore>(into store: Store) throws -> [PersistentIdentifier] {
        let schema = store.schema
        var records: [Store.Snapshot] = []
        func add(_ entity: String, _ values: [String: Value], _ links: [String: RelationshipValue] = [:]) throws -> PersistentIdentifier {
            let s = try Store.Snapshot.inserting(try schema.requireEntity(entity), values: values, relationships: links)
            records.append(s)
            return s.persistentIdentifier
        }
        let central = try add("Library", ["name": "Central", "city": "Lyon"])
        _ = try add("Library", ["name": "Annex"])
        let shelves = try (1...3).map { try add("Shelf", ["label": .string("Shelf \($0)")]) }
        let dune = try add("Book", ["title": "Dune", "isbn": "978-0441013593", "pages": 412], ["library": .toOne(central), "shelf": .toOne(shelves[0])])
        let messiah = try add("Book", ["title": "Dune Messiah", "pages": 256], ["library": .toOne(central), "prequel": .toOne(dune), "shelf": .toOne(shelves[0])])
        _ = try add("Book", ["title": "Notes, \"quoted\"\nand <marked> & odd"], ["library": .toOne(central)])
        for (i, title) in ["Arrakis", "Muad'Dib"].enumerated() {
            _ = try add("Chapter", ["title": .string("\(i + 1). \(title)")], ["book": .toOne(dune)])
        }
        let herbert = try add("Author", ["name": "Frank Herbert", "country": "US"], ["books": .toMany([dune, messiah])])
        _ = try add("Author", ["name": "Brian Herbert", "country": "US"], ["mentor": .toOne(herbert), "books": .toMany([messiah])])
        records[0] = try records[0].updating(relationships: ["shelves": .toMany([shelves[2], shelves[0], shelves[1]])])
        let parts = try (0..<3).map { try add("Part", ["name": .string("ring-\($0)")]) }
        for i in parts.indices {
            let index = records.firstIndex { $0.persistentIdentifier == parts[i] }!
            records[index] = try records[index].updating(relationships: ["next": .toOne(parts[(i + 1) % parts.count])])
        }
        let tag = try add("Tag", ["name": "to-read"])
        _ = try add("Note", ["text": "Start with Dune."], ["tag": .toOne(tag)])
        let team = try add("Team", ["name": "Readers"])
        _ = try add("Player", ["name": "Ada"], ["team": .toOne(team)])
        _ = try add("Sample", [
            "label": "edges", "flag": true, "int": .int(.min), "double": .double(-0.0), "string": "emoji 👩‍👩‍👧 and NUL \u{0}",
            "date": .date(Date(timeIntervalSince1970: 1_700_000_000.25)), "data": .data(Data([0, 1, 2, 255])),
            "uuid": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "url": .url(URL(string: "https://example.com/?q=a,b")!),
        ])
        _ = try add("Sample", ["label": "specials", "double": .double(.nan), "int": .int(.max)])
        _ = try add("Sample", ["label": "nils"])
        let result = try store.save(SaveRequest(inserted: records))
        return records.map { result.remappedIdentifiers[$0.persistentIdentifier]! }
    }
}
