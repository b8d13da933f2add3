import Foundation
@_spi(StrataEngine) import Strata

extension ConcurrentWorkload {
    /// What the store must hold after workers ran: checks it against every worker's lines (one
    /// array per worker, as printed by `run`) and returns the problems, one sentence each (empty
    /// when every promise held).
    ///
    /// Checked: the store's invariants (`StoreInvariants`: both sides of every relationship, unique
    /// constraints), no book without its library and no chapter without its book (the cascade
    /// delete rule), every library with all of its first save's books or none (a save is atomic,
    /// also when unacknowledged), every acknowledged insert present and every acknowledged delete
    /// absent, each worker's own property of `shared` holding its last written value (property-level
    /// updates keep every writer's change), `contested.int` equal to the number of acknowledged
    /// increments and no two increments acknowledging one value (no lost update under the conflict
    /// check), and no key handed out twice.
    public static func check<Store: DataStore>(_ store: Store, lines: [[String]]) throws -> [String] {
        var problems: [String] = []
        func fail(_ problem: String) { if problems.count < 30 { problems.append(problem) } }
        let schema = store.schema
        let all = try schema.entities.map { entity in
            try store.fetch(FetchDescriptor(entity: entity.name)).map {
                DefaultSnapshot(entity: entity, persistentIdentifier: $0.persistentIdentifier, attributes: $0.attributeValues, relationships: $0.relationshipValues)
            }
        }
        StoreInvariants.violations(schema, storeIdentifier: store.identifier, records: all).forEach(fail)
        func records(_ entity: String) -> [Int64: DefaultSnapshot] {
            guard let index = schema.entity(named: entity)?.index else { return [:] }
            return Dictionary(uniqueKeysWithValues: all[index].map { ($0.persistentIdentifier.primaryKey, $0) })
        }
        let tags = records("Tag"), libraries = records("Library"), books = records("Book"), chapters = records("Chapter")
        for (key, book) in books {
            guard let library = try book.related("library").target, libraries[library.primaryKey] != nil else { fail("Book \(key) has no library"); continue }
        }
        for (key, chapter) in chapters where (try chapter.related("book").target).map({ books[$0.primaryKey] == nil }) ?? true {
            fail("Chapter \(key) has no book")
        }
        for (key, library) in libraries {
            guard let name = try library.value("name").string, name.hasPrefix("w"),
                  let n = try library.value("city").string.flatMap({ Int($0.dropFirst(2)) }) else { continue }
            let own = try library.related("books").targets.filter { (try books[$0.primaryKey]?.value("title").string)?.hasPrefix(name + "-b") == true }
            if own.count != n { fail("Library \(key) (\(name)) holds \(own.count) of the \(n) books its save inserted") }
        }

        // Keys handed out, per entity; what the workers acknowledged.
        var tagKeys: [Int64: String] = [:], bookKeys: Set<Int64> = [], libraryKeys: Set<Int64> = []
        var untagged: Set<Int64> = [], closed: Set<Int64> = [], libraryBooks: [Int64: [Int64]] = [:], adopted: [Int64: Int64] = [:]
        var increments: [Int64] = [], unacknowledgedIncrements = 0
        var sharedNames: Set<String> = []
        func handedOut(_ key: Int64, _ entity: String, _ seen: inout Set<Int64>) {
            if !seen.insert(key).inserted { fail("\(entity) key \(key) was acknowledged to two inserts") }
        }
        let sample = try schema.requireEntity("Sample")
        let shared = all[sample.index].first { $0.attributeValue(at: sample.attributeIndex("label")!) == .string("shared") }
        let contested = all[sample.index].first { $0.attributeValue(at: sample.attributeIndex("label")!) == .string("contested") }
        for (worker, output) in lines.enumerated() {
            var lastProperty: Int?, unacknowledgedProperties: [Int] = []
            for line in output {
                let parts = line.split(separator: " ").map(String.init)
                switch (parts.first, parts.count) {
                case ("tag", 3):
                    let key = Int64(parts[1]) ?? 0
                    if tagKeys.updateValue(parts[2], forKey: key) != nil { fail("Tag key \(key) was acknowledged to two inserts") }
                    if parts[2].hasPrefix("shared-"), !sharedNames.insert(parts[2]).inserted { fail("two acknowledged inserts of the unique tag \(parts[2])") }
                case ("untag", 2): untagged.insert(Int64(parts[1]) ?? 0)
                case ("library", 3):
                    let key = Int64(parts[1]) ?? 0
                    handedOut(key, "Library", &libraryKeys)
                    libraryBooks[key] = parts[2].split(separator: ",").compactMap { Int64($0) }
                    libraryBooks[key]!.forEach { handedOut($0, "Book", &bookKeys) }
                case ("book", 3):
                    let key = Int64(parts[1]) ?? 0
                    handedOut(key, "Book", &bookKeys)
                    adopted[key] = Int64(parts[2]) ?? 0
                case ("close", 2): closed.insert(Int64(parts[1]) ?? 0)
                case ("property", 3): lastProperty = Int(parts[2]); unacknowledgedProperties = []
                case ("unavailable", 3) where parts[1] == "property": Int(parts[2]).map { unacknowledgedProperties.append($0) }
                case ("increment", 2): increments.append(Int64(parts[1]) ?? 0)
                case ("unavailable", 3) where parts[1] == "increment": unacknowledgedIncrements += 1
                default: break
                }
            }
            let name = properties[worker % properties.count]
            guard let lastProperty, let shared else { continue }
            let value = try shared.value(name)
            let allowed = ([lastProperty] + unacknowledgedProperties).map { i -> Value in
                switch name {
                case "double": .double(Double(i))
                case "string": .string("\(i)")
                case "date": .date(Date(timeIntervalSinceReferenceDate: Double(i)))
                default: .int(Int64(i))
                }
            }
            if !allowed.contains(value) { fail("worker \(worker)'s property \(name) of shared holds \(value), not its last write \(lastProperty)") }
        }
        for (key, name) in tagKeys {
            let stored = try tags[key]?.value("name").string
            if untagged.contains(key) {
                if stored != nil { fail("Tag \(key) was deleted but is there") }
            } else if stored != name {
                fail("acknowledged Tag \(key) \(name) reads back as \(stored ?? "missing")")
            }
        }
        for (key, bookList) in libraryBooks {
            let present = libraries[key] != nil
            if present == closed.contains(key) { fail("Library \(key) is \(present ? "there after its acknowledged delete" : "missing though acknowledged") ") }
            for book in bookList where (books[book] != nil) != present { fail("Book \(book) of library \(key) is \(present ? "missing" : "there after the cascade")") }
        }
        for (key, library) in adopted where (books[key] != nil) == closed.contains(library) {
            fail("acknowledged Book \(key) in library \(library) is \(closed.contains(library) ? "there after the cascade" : "missing")")
        }
        if Set(increments).count != increments.count { fail("two increments were acknowledged with one value: a lost update") }
        if let contested {
            let total = Int64(increments.count)
            let stored = try contested.value("int").int ?? -1
            if stored < total || stored > total + Int64(unacknowledgedIncrements) {
                fail("contested.int is \(stored) after \(total) acknowledged increments (+ up to \(unacknowledgedIncrements) unacknowledged)")
            }
        } else {
            fail("the Sample 'contested' is missing")
        }
        return problems
    }
}
