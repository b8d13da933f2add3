import Foundation
import StrataModel

/// How a SwiftData-shaped sample names the store of one built-in backend: a `ModelConfiguration`
/// with a URL whose extension picks the backend, or `isStoredInMemoryOnly`.
struct SampleStore: CustomStringConvertible, Sendable {
    let name: String
    /// The file or folder name in the test's directory; `nil` for in-memory.
    let file: String?
    var description: String { name }

    static let all: [SampleStore] = [
        SampleStore(name: "memory", file: nil),
        SampleStore(name: "sqlite (.store)", file: "app.store"),
        SampleStore(name: "sqlite (.sqlite)", file: "app.sqlite"),
        SampleStore(name: "json", file: "app.json"),
        SampleStore(name: "xml", file: "app.xml"),
        SampleStore(name: "lmdb", file: "app.lmdb"),
        SampleStore(name: "csv", file: "app.csv"),
    ]

    /// The files: every one except memory (which cannot be reopened).
    static var files: [SampleStore] { all.filter { $0.file != nil } }

    /// The configuration of this store in `directory`, as a SwiftData sample writes it.
    func configuration(in directory: URL, schema: Schema? = nil, allowsSave: Bool = true) -> ModelConfiguration {
        guard let file else { return ModelConfiguration(schema: schema, isStoredInMemoryOnly: true, allowsSave: allowsSave) }
        return ModelConfiguration(schema: schema, url: directory.appendingPathComponent(file), allowsSave: allowsSave)
    }
}

/// A temporary directory removed when the test ends.
final class SampleDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-swiftdata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// What a notification observer saw, filled on the posting thread.
final class SeenNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [Notification.Name] = []
    private var infos: [[AnyHashable: Any]] = []
    private var tokens: [NSObjectProtocol] = []

    /// Observes `willSave` and `didSave` posted by `context`.
    init(_ context: ModelContext) {
        for name in [ModelContext.willSave, ModelContext.didSave] {
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { [weak self] note in
                guard let self else { return }
                self.lock.lock()
                self.names.append(note.name)
                self.infos.append(note.userInfo ?? [:])
                self.lock.unlock()
            })
        }
    }

    var seen: [Notification.Name] { lock.lock(); defer { lock.unlock() }; return names }
    var userInfos: [[AnyHashable: Any]] { lock.lock(); defer { lock.unlock() }; return infos }

    deinit { for token in tokens { NotificationCenter.default.removeObserver(token) } }
}
