import Foundation
@_spi(StrataEngine) import Strata
@_spi(StrataEngine) import StrataFileSupport
#if canImport(Glibc)
import Glibc
#endif

/// The store folder and the durable writes that make a multi-file save atomic.
///
/// A save writes new versions of the tables it changes beside the old ones (`Item.7.csv`), syncs
/// them, then replaces `manifest.json` (temporary file, sync, rename, sync the folder). The rename is
/// the commit: before it the old manifest names the old files, after it the new one names the new
/// files. Files no manifest names (replaced tables, or tables and temporary files a killed writer
/// left) are removed only inside a save, after its commit, and only if they have the names this
/// store gives its own files; opening never writes.
struct CSVFolder {
    let url: URL
    let manifestPath: String
    /// The store's history (`history.journal`), written before the manifest that commits it.
    let history: HistoryFile
    private let prefix: String

    init(url: URL) {
        self.url = url
        self.prefix = url.path.hasSuffix("/") ? url.path : url.path + "/"
        self.manifestPath = prefix + "manifest.json"
        self.history = HistoryFile(path: prefix + "history.journal")
    }

    /// The path of a file in the folder (no URL round trip: a save stats every file it names).
    func path(_ name: String) -> String { prefix + name }

    /// The current manifest, or `nil` if there is none.
    func readManifest() throws -> CSVManifest? {
        guard let bytes = try DurableFile.read(manifestPath) else { return nil }
        return try CSVManifest.decode(bytes, file: manifestPath)
    }

    /// The table files (`*.csv`) in the folder: a folder holding some but no manifest is a damaged
    /// store, never a place to start an empty one.
    func tableFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
    }

    /// Writes a new table file and syncs it; returns its checksum.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try DurableFile.write(path(name), bytes)
        return Checksum.hex(bytes)
    }

    /// Replaces the manifest atomically: the commit point of a save.
    func commit(_ manifest: CSVManifest) throws {
        try DurableFile.replace(manifestPath, with: manifest.encoded())
    }

    /// Removes files the store made that `manifest` (just committed) no longer names: those the
    /// `previous` manifest named, and once per store object every `<table>.<generation>.csv` or
    /// `<table>@<chunk>.<generation>.csv` and manifest temporary file a killed writer left. Anything
    /// else in the folder is not the store's and is left alone.
    func removeUnnamed(previous: CSVManifest, keeping manifest: CSVManifest, tables: Set<String>, everyStray: Bool) {
        let named = Set(manifest.files.values)
        for name in previous.files.values where !named.contains(name) { unlink(path(name)) }
        guard everyStray else { return }
        DurableFile.removeTemporaries(of: manifestPath)
        for name in tableFiles() where !named.contains(name) {
            let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 2, let last = parts.last, !last.isEmpty, last.allSatisfy(\.isNumber),
                let table = CSVChunks.parse(parts.dropLast().joined(separator: "."))?.table, tables.contains(table)
            else { continue }
            unlink(path(name))
        }
    }

    /// The files whose stamps tell whether someone else changed the store: the manifest, then every
    /// file it names, in a fixed order, then the history (which `deleteHistory` changes alone). Worked out once per manifest, not per look: sorting and
    /// joining the names cost more than the `stat` calls themselves.
    func watched(_ manifest: CSVManifest) -> [String] {
        [manifestPath] + manifest.files.values.sorted().map(path) + [history.path]
    }

    /// The stamps of `paths` (from `watched`), to compare with a later look.
    static func stamps(_ paths: [String]) -> [FileStamp?] { paths.map(FileStamp.init) }

    /// Whether every file of `paths` still has the stamp it had; stops at the first that differs
    /// (the manifest, first, changes with every commit).
    static func unchanged(_ paths: [String], _ stamps: [FileStamp?]) -> Bool {
        guard paths.count == stamps.count else { return false }
        for (path, stamp) in zip(paths, stamps) where FileStamp(path) != stamp { return false }
        return true
    }
}
