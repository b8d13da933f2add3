import Foundation
import Strata
import StrataCSV
import StrataConformance
import StrataJSON
import StrataLMDB
import StrataMemory
import StrataModel
import StrataPostgres
import StrataSQLite
import StrataXML

/// What a user of the package writes: a model class.
@Model final class Greeting {
    var text: String
    init(text: String) { self.text = text }
}

/// The store API's schema for the same record.
let schema = try Schema { Entity("Greeting") { Attribute("text", .string) } }

/// Saves one record through the model layer, fetches it in a new context, returns its text.
func throughModel<Configuration: DataStoreConfiguration>(_ configuration: Configuration) throws -> String {
    let container = try ModelContainer(for: [Greeting.self], configurations: configuration)
    let context = ModelContext(container)
    context.insert(Greeting(text: "hello through the model layer"))
    try context.save()
    let fetched = try ModelContext(container).fetch(StrataModel.FetchDescriptor<Greeting>())
    guard fetched.count == 1, fetched[0].text == "hello through the model layer" else {
        throw ConsumerError("model layer: fetched \(fetched.map(\.text)), expected the one greeting saved")
    }
    return fetched[0].text
}

/// Saves one record through the store API, reopens the store, fetches it, returns its text.
func throughStore<Store: DataStore>(_: Store.Type, _ configuration: Store.Configuration) throws -> String {
    var store: Store? = try Store(configuration)
    let entity = schema.entity(named: "Greeting")!
    let record = Store.Snapshot(entity: entity, persistentIdentifier: .temporary(entity: "Greeting"), attributes: [.string("hello through the store API")], relationships: [])
    _ = try store!.save(SaveRequest(inserted: [record]))
    store = nil
    let reopened = try Store(configuration)
    let fetched = try reopened.fetch(Strata.FetchDescriptor(entity: "Greeting"))
    guard fetched.count == 1, case .string(let text) = fetched[0].attributeValues[0], text == "hello through the store API" else {
        throw ConsumerError("store API: fetched \(fetched.map(\.attributeValues)), expected the one record saved")
    }
    return text
}

struct ConsumerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-consumer-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: root) }
func folder(_ name: String) throws -> URL {
    let url = root.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

print("Strata \(StrataVersion.current); conformance suite of \(ConformanceSuite.cases.count) cases")
var failed = false
@MainActor func check(_ backend: String, _ body: () throws -> (String, String)) {
    do {
        let (model, store) = try body()
        print("\(backend): model layer read \"\(model)\"; store API read \"\(store)\"")
    } catch {
        print("\(backend): FAILED: \(error)")
        failed = true
    }
}
check("memory") {
    (try throughModel(MemoryStoreConfiguration(name: "consumer-model", schema: .empty)),
     try throughStore(MemoryStore.self, MemoryStoreConfiguration(name: "consumer-store", schema: schema)))
}
check("sqlite") {
    (try throughModel(SQLiteStoreConfiguration(url: try folder("sqlite-model").appendingPathComponent("store.sqlite"), schema: .empty)),
     try throughStore(SQLiteStore.self, SQLiteStoreConfiguration(url: try folder("sqlite-store").appendingPathComponent("store.sqlite"), schema: schema)))
}
check("lmdb") {
    (try throughModel(LMDBStoreConfiguration(folder: try folder("lmdb-model").appendingPathComponent("store"), schema: .empty)),
     try throughStore(LMDBStore.self, LMDBStoreConfiguration(folder: try folder("lmdb-store").appendingPathComponent("store"), schema: schema)))
}
check("json") {
    (try throughModel(JSONStoreConfiguration(url: try folder("json-model").appendingPathComponent("store.json"), schema: .empty)),
     try throughStore(JSONStore.self, JSONStoreConfiguration(url: try folder("json-store").appendingPathComponent("store.json"), schema: schema)))
}
check("csv") {
    (try throughModel(CSVStoreConfiguration(folder: try folder("csv-model").appendingPathComponent("store"), schema: .empty)),
     try throughStore(CSVStore.self, CSVStoreConfiguration(folder: try folder("csv-store").appendingPathComponent("store"), schema: schema)))
}
check("xml") {
    (try throughModel(XMLStoreConfiguration(url: try folder("xml-model").appendingPathComponent("store.xml"), schema: .empty)),
     try throughStore(XMLStore.self, XMLStoreConfiguration(url: try folder("xml-store").appendingPathComponent("store.xml"), schema: schema)))
}
// PostgreSQL needs a server (make test starts one; the consumer does not): the product links and its
// configuration parses a URL without showing the password.
let postgres = PostgresStoreConfiguration(url: "postgresql://consumer:secret@localhost:5432/strata", schema: schema)
if String(describing: postgres).contains("secret") { print("postgres: FAILED: the password shows"); failed = true }
print("postgres: configuration \(postgres) (no server in the consumer check)")
if failed { exit(1) }
print("consumer: every backend saved and fetched through both APIs")
