import Foundation
import Synchronization

/// Where and how a `ModelContainer` keeps its data, as SwiftData's `ModelConfiguration` describes
/// it, mapped onto Strata's built-in backends.
///
/// ```swift
/// let config = ModelConfiguration(schema: Schema([Trip.self]), url: URL(fileURLWithPath: "trips.store"))
/// let container = try ModelContainer(for: Trip.self, configurations: config)
/// ```
///
/// Which backend opens it:
/// - `isStoredInMemoryOnly` (or the URL `/dev/null`, SwiftData's in-memory location): a fresh
///   `MemoryStore` per container, gone with the process;
/// - a URL ending in `.json`: `JSONStore`; `.xml`: `XMLStore`; `.lmdb`: `LMDBStore` (a folder);
///   `.csv`: `CSVStore` (a folder);
/// - any other URL (`.store`, `.sqlite`, none…): `SQLiteStore`, SwiftData's own format choice;
/// - no URL: SQLite at `<data>/<executable>/<name>.store`, where `<data>` is `$XDG_DATA_HOME` or
///   `~/.local/share`; `ModelConfiguration().url` says where.
///
/// `allowsSave: false` opens the store read-only (a missing store is then an error). Options that
/// have no meaning on Linux are accepted and ignored: every `groupContainer` (there are no app
/// groups) and `cloudKitDatabase: .automatic` / `.none` (there is no CloudKit entitlement, so
/// `.automatic` means no sync, as it does in SwiftData for an app without one). An explicit
/// `cloudKitDatabase: .private(…)` asks for a sync Strata cannot do and is refused with `unsupported`.
public struct ModelConfiguration: Sendable, Hashable, CustomDebugStringConvertible {
    /// The configuration's name (`"default"` unless given); it names the default store file.
    public let name: String
    /// The schema of the models this configuration stores; `nil` takes the container's.
    public let schema: Schema?
    /// The on-disk location of the store (`/dev/null` for an in-memory store, as in SwiftData).
    public let url: URL
    /// Whether the store lives in memory only.
    public let isStoredInMemoryOnly: Bool
    /// Whether saves are allowed; `false` opens the store read-only.
    public let allowsSave: Bool
    /// The app group container option (no meaning on Linux; kept as given).
    public let groupContainer: GroupContainer
    /// The CloudKit database option; only `.automatic` and `.none` can be opened.
    public let cloudKitDatabase: CloudKitDatabase

    /// Creates a basic configuration: the default store, or an in-memory one.
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// Creates a configuration for the given model types.
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// Creates a named configuration for a schema; with no URL the store goes to the default location.
    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        let name = name ?? "default"
        self.name = name
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
        self.url = isStoredInMemoryOnly ? Self.memoryURL : Self.defaultDirectory.appendingPathComponent("\(name).store")
    }

    /// Creates a named configuration with the store at `url` (its extension picks the backend).
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true, cloudKitDatabase: CloudKitDatabase = .automatic) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = url.path == Self.memoryURL.path
        self.allowsSave = allowsSave
        self.groupContainer = .automatic
        self.cloudKitDatabase = cloudKitDatabase
    }

    /// The identifier of the configuration's app group container, when one was named (kept as
    /// given; Linux has no app groups).
    public var groupAppContainerIdentifier: String? { groupContainer.identifier }

    /// `ModelConfiguration(name → location)`.
    public var debugDescription: String { "ModelConfiguration(\(name) → \(isStoredInMemoryOnly ? "memory" : url.path))" }

    /// SwiftData's location of an in-memory store.
    static let memoryURL = URL(fileURLWithPath: "/dev/null")

    /// Where stores without a URL go: `$XDG_DATA_HOME/<executable>` (or `~/.local/share/<executable>`
    /// when `XDG_DATA_HOME` is unset or not absolute, as the XDG base-directory specification says).
    /// The folder is created when a writable store is first opened there.
    static var defaultDirectory: URL {
        if let override = defaultDirectoryOverride.withLock({ $0 }) { return override }
        return defaultDirectory(environment: ProcessInfo.processInfo.environment, executable: CommandLine.arguments.first ?? "")
    }

    /// The default directory for an environment and an executable path.
    static func defaultDirectory(environment: [String: String], executable: String) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        let name = URL(fileURLWithPath: executable).lastPathComponent
        return base.appendingPathComponent(name.isEmpty ? "strata" : name, isDirectory: true)
    }

    /// Replaces `defaultDirectory` while set: the tests' way to open the default store somewhere
    /// harmless, since changing the process environment races with threads reading it.
    static let defaultDirectoryOverride = Mutex<URL?>(nil)

    /// How SwiftData finds an app group container; Linux has none, so every choice stores in the
    /// configuration's own location.
    public struct GroupContainer: Sendable, Hashable {
        let identifier: String?
        let isAutomatic: Bool

        /// Use the app's group container if its entitlements name one (never, on Linux).
        public static var automatic: GroupContainer { GroupContainer(identifier: nil, isAutomatic: true) }
        /// Use no group container.
        public static var none: GroupContainer { GroupContainer(identifier: nil, isAutomatic: false) }
        /// Use the named group container (accepted; Linux has no app groups).
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(identifier: groupName, isAutomatic: false) }
    }

    /// How SwiftData finds the CloudKit database to sync with.
    public struct CloudKitDatabase: Sendable, Hashable {
        let privateDatabase: String?
        let isAutomatic: Bool

        /// Sync with the container the app's entitlements name, if any: on Linux there are none,
        /// so nothing is synced.
        public static var automatic: CloudKitDatabase { CloudKitDatabase(privateDatabase: nil, isAutomatic: true) }
        /// No sync.
        public static var none: CloudKitDatabase { CloudKitDatabase(privateDatabase: nil, isAutomatic: false) }
        /// Sync with the named private database: refused when the store is opened (`unsupported`).
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase { CloudKitDatabase(privateDatabase: privateDBName, isAutomatic: false) }
    }
}
