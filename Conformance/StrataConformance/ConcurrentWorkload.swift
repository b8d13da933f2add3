import Foundation
import Strata

/// Random saves by several processes on one store at once, each acknowledged save reported as a line,
/// so a checker can prove afterwards that every acknowledged save is there and every invariant holds
/// (`strata concurrent-writer`, docs/formats/postgres.md, "Many processes").
///
/// Worker `w` of a run draws `saves` operations from its seed, on the fixture domain:
/// - `tag`: inserts Tag `w<w>-t<i>` → `tag <key> <name>`;
/// - `shared`: inserts Tag `shared-<r>` (r < 40, every worker draws from the same names): `tag …`,
///   or `refused <name>` when another save holds the name (the server's UNIQUE);
/// - `untag`: deletes one of its own tags → `untag <key>`;
/// - `library`: inserts Library `w<w>-L<i>` (city `n=<books>`) with 1–3 books of 0–2 chapters in
///   one save → `library <key> <book keys, comma-separated>`;
/// - `adopt`: inserts a book into any worker's library → `book <key> <library key>`, or `gone
///   <library key>` when that library was deleted in between (the server's FOREIGN KEY);
/// - `close`: deletes one of its own libraries (cascading to books and chapters) → `close <key>`;
/// - `property`: writes only its own attribute (`properties[w]`) of the Sample `shared` (a
///   property-level update) → `property <name> <i>`;
/// - `increment`: adds one to `int` of the Sample `contested` with the conflict check on the value
///   it read → `increment <new value>`, or `conflict` (`writeConflict`).
///
/// A save that fails with `storeUnavailable` (the server went away) is reported `unavailable <op> <i>`:
/// unacknowledged, so it may or may not have been applied, but all or nothing; then
/// `whenUnavailable` is called (the tool waits for a line on standard input: the server is back).
public enum ConcurrentWorkload {
    /// The attribute of the Sample `shared` each worker writes, by worker number.
    public static let properties = ["int", "count", "double", "string", "date"]
    /// How many distinct `shared-<r>` tag names the workers compete for.
    public static let sharedNames = 40

    /// Creates the two shared Samples (`shared` and `contested`, `int` 0) the workers update;
    /// call once before the workers start.
    public static func prepare<Store: DataStore>(_ store: Store) throws {
        let sample = try store.schema.requireEntity("Sample")
        _ = try store.save(SaveRequest(inserted: [
            try Store.Snapshot.inserting(sample, values: ["label": "shared", "int": 0]),
            try Store.Snapshot.inserting(sample, values: ["label": "contested", "int": 0]),
        ]))
    }

    /// Runs worker `worker`'s `saves` operations, calling `say` with each line as its save returns.
    /// With `toleratesUnavailable`, a save that fails with `storeUnavailable` is reported, then
    /// `whenUnavailable` is called before the next operation.
    ///
    /// - Throws: any error the contract does not expect from these operations (and
    ///   `storeUnavailable` unless `toleratesUnavailable`).
    public static func run<Store: DataStore>(_ store: Store, worker: Int, saves: Int, seed: UInt64, toleratesUnavailable: Bool = false, whenUnavailable: () -> Void = {}, say: (String) -> Void) throws {
        var random = SeededGenerator(state: seed &+ UInt64(worker) &* 0x9E37_79B9)
        let schema = store.schema
        let tag = try schema.requireEntity("Tag"), library = try schema.requireEntity("Library")
        let book = try schema.requireEntity("Book"), chapter = try schema.requireEntity("Chapter"), sample = try schema.requireEntity("Sample")
        let property = properties[worker % properties.count]
        let propertyIndex = try required(sample.attributeIndex(property))
        let intIndex = try required(sample.attributeIndex("int"))
        func sampleNamed(_ label: String) throws -> Store.Snapshot {
            guard let found = try store.fetch(FetchDescriptor(entity: "Sample", predicate: .compare("label", .equal, .string(label)))).first else {
                throw StrataError(.invalidRequest, "The Sample '\(label)' is missing: run ConcurrentWorkload.prepare first.")
            }
            return found
        }
        let shared = try sampleNamed("shared")
        var ownTags: [Store.Snapshot] = [], ownLibraries: [PersistentIdentifier] = []
        func keys(_ result: SaveResult<Store.Snapshot>) -> [PersistentIdentifier: PersistentIdentifier] {
            Dictionary(uniqueKeysWithValues: zip(result.remappedIdentifiers.temporaryIdentifiers, result.remappedIdentifiers.permanentIdentifiers))
        }
        for i in 0..<saves {
            let op = Int.random(in: 0..<100, using: &random)
            let name = switch op {
            case 0..<20: "tag"
            case 20..<30: "shared"
            case 30..<40 where !ownTags.isEmpty: "untag"
            case 30..<55: "library"
            case 55..<65: "adopt"
            case 65..<72 where !ownLibraries.isEmpty: "close"
            case 65..<85: "property"
            default: "increment"
            }
            do {
                switch name {
                case "tag":
                    let new = try Store.Snapshot.inserting(tag, values: ["name": .string("w\(worker)-t\(i)")])
                    let result = try store.save(SaveRequest(inserted: [new]))
                    let id = try required(keys(result)[new.persistentIdentifier])
                    ownTags.append(new.copy(persistentIdentifier: id, remappedIdentifiers: IdentifierRemapping()))
                    say("tag \(id.primaryKey) w\(worker)-t\(i)")
                case "shared":
                    let label = "shared-\(Int.random(in: 0..<sharedNames, using: &random))"
                    let new = try Store.Snapshot.inserting(tag, values: ["name": .string(label)])
                    do {
                        let result = try store.save(SaveRequest(inserted: [new]))
                        say("tag \(try required(keys(result)[new.persistentIdentifier]).primaryKey) \(label)")
                    } catch let error as StrataError where error.code == .uniqueConstraintViolation {
                        say("refused \(label)")
                    }
                case "untag":
                    let doomed = ownTags.remove(at: Int.random(in: 0..<ownTags.count, using: &random))
                    _ = try store.save(SaveRequest(deleted: [doomed]))
                    say("untag \(doomed.persistentIdentifier.primaryKey)")
                case "library":
                    let lib = PersistentIdentifier.temporary(entity: "Library")
                    var inserted: [Store.Snapshot] = [], bookIDs: [PersistentIdentifier] = []
                    for b in 0..<Int.random(in: 1...3, using: &random) {
                        let bookID = PersistentIdentifier.temporary(entity: "Book")
                        let chapters = (0..<Int.random(in: 0...2, using: &random)).map { _ in PersistentIdentifier.temporary(entity: "Chapter") }
                        for (c, id) in chapters.enumerated() {
                            inserted.append(try Store.Snapshot.inserting(chapter, values: ["title": .string("c\(c)")], relationships: ["book": .toOne(bookID)]).copy(persistentIdentifier: id, remappedIdentifiers: IdentifierRemapping()))
                        }
                        inserted.append(try Store.Snapshot.inserting(book, values: ["title": .string("w\(worker)-L\(i)-b\(b)")], relationships: ["library": .toOne(lib), "chapters": .toMany(chapters)]).copy(persistentIdentifier: bookID, remappedIdentifiers: IdentifierRemapping()))
                        bookIDs.append(bookID)
                    }
                    inserted.append(try Store.Snapshot.inserting(library, values: ["name": .string("w\(worker)-L\(i)"), "city": .string("n=\(bookIDs.count)")], relationships: ["books": .toMany(bookIDs)]).copy(persistentIdentifier: lib, remappedIdentifiers: IdentifierRemapping()))
                    let remapped = keys(try store.save(SaveRequest(inserted: inserted)))
                    let key = try required(remapped[lib])
                    ownLibraries.append(key)
                    say("library \(key.primaryKey) \(try bookIDs.map { String(try required(remapped[$0]).primaryKey) }.joined(separator: ","))")
                case "adopt":
                    let count = try store.fetchCount(FetchDescriptor(entity: "Library"))
                    guard count > 0, let target = try store.fetchIdentifiers(FetchDescriptor(entity: "Library", sortBy: [SortKey("name")], fetchLimit: 1, fetchOffset: Int.random(in: 0..<count, using: &random))).first else {
                        say("skip")
                        continue
                    }
                    let new = try Store.Snapshot.inserting(book, values: ["title": .string("w\(worker)-adopted-\(i)")], relationships: ["library": .toOne(target)])
                    do {
                        let result = try store.save(SaveRequest(inserted: [new]))
                        say("book \(try required(keys(result)[new.persistentIdentifier]).primaryKey) \(target.primaryKey)")
                    } catch let error as StrataError where error.code == .unknownIdentifier {
                        say("gone \(target.primaryKey)")
                    }
                case "close":
                    let doomed = ownLibraries.remove(at: Int.random(in: 0..<ownLibraries.count, using: &random))
                    _ = try store.save(SaveRequest(deleted: [Store.Snapshot(entity: library, persistentIdentifier: doomed, attributes: [], relationships: [])]))
                    say("close \(doomed.primaryKey)")
                case "property":
                    let value: Value = switch property {
                    case "double": .double(Double(i))
                    case "string": .string("\(i)")
                    case "date": .date(Date(timeIntervalSinceReferenceDate: Double(i)))
                    default: .int(Int64(i))
                    }
                    var request = SaveRequest(updated: [try shared.updating([property: value])])
                    request.updatedProperties[shared.persistentIdentifier] = UpdatedProperties(attributes: [propertyIndex])
                    _ = try store.save(request)
                    say("property \(property) \(i)")
                default:
                    let contested = try sampleNamed("contested")
                    let seen = contested.attributeValue(at: intIndex)
                    let next = Value.int((seen.int ?? 0) + 1)
                    var request = SaveRequest(updated: [try contested.updating(["int": next])])
                    request.updatedProperties[contested.persistentIdentifier] = UpdatedProperties(attributes: [intIndex], expecting: [seen], relationships: [], expecting: [])
                    do {
                        _ = try store.save(request)
                        say("increment \(next.int ?? 0)")
                    } catch let error as StrataError where error.code == .writeConflict {
                        say("conflict")
                    }
                }
            } catch let error as StrataError where toleratesUnavailable && error.code == .storeUnavailable {
                say("unavailable \(name) \(i)")
                whenUnavailable()
            }
        }
        say("done \(saves)")
    }

    /// The value, or an `invalidRequest` error naming what the store did not hand back.
    private static func required<T>(_ value: T?) throws -> T {
        guard let value else { throw StrataError(.invalidRequest, "The store's answer lacks an identifier or attribute the workload needs.") }
        return value
    }
}
