import Foundation
import Strata
#if canImport(Glibc)
import Glibc
#endif

/// The store folder: the manifest naming the current file of every entity and pair, and the durable
/// writes that make a multi-file save atomic.
///
/// A save writes new versions of the files it changes beside the old ones (`Item.7.csv`), syncs them,
/// then replaces `manifest.json` (temporary file, sync, rename, sync the folder). The rename is the
/// commit: before it the old manifest names the old files, after it the new one names the new files.
/// Files no manifest names (left by a crash) are removed on open.
struct CSVFolder {
    let url: URL
    var manifestURL: URL { url.appendingPathComponent("manifest.json") }

    struct Manifest {
        var storeIdentifier: String
        var fingerprint: String
        var generation: Int64
        var files: [String: String]
        var nextKeys: [String: Int64]
    }

    static let format = "strata-csv"
    static let version = 1

    func readManifest() throws -> Manifest? {
        guard let data = FileManager.default.contents(atPath: manifestURL.path) else { return nil }
        let path = manifestURL.path
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw StrataError(.corruptStore, "The manifest is not readable JSON; the folder is not a usable CSV store.", file: path)
        }
        guard object["format"] as? String == Self.format else {
            throw StrataError(.corruptStore, "The manifest is not a Strata CSV manifest.", file: path)
        }
        guard let version = object["version"] as? Int, version <= Self.version else {
            throw StrataError(.unsupported, "The store was written by a newer Strata; upgrade Strata.", file: path)
        }
        guard let identifier = object["storeIdentifier"] as? String, let fingerprint = object["schemaFingerprint"] as? String,
            let generation = (object["generation"] as? NSNumber)?.int64Value, let files = object["files"] as? [String: String],
            let next = object["nextKeys"] as? [String: NSNumber]
        else { throw StrataError(.corruptStore, "The manifest lacks fields.", file: path) }
        return Manifest(storeIdentifier: identifier, fingerprint: fingerprint, generation: generation, files: files, nextKeys: next.mapValues(\.int64Value))
    }

    func manifestBytes(_ m: Manifest) -> [UInt8] {
        func json(_ s: String) -> String {
            String(decoding: (try? JSONSerialization.data(withJSONObject: s, options: .fragmentsAllowed)) ?? Data("\"\"".utf8), as: UTF8.self)
        }
        var text = "{\n  \"format\": \"\(Self.format)\",\n  \"version\": \(Self.version),\n"
        text += "  \"schemaFingerprint\": \(json(m.fingerprint)),\n  \"storeIdentifier\": \(json(m.storeIdentifier)),\n"
        text += "  \"generation\": \(m.generation),\n  \"files\": {"
        text += m.files.sorted { $0.key < $1.key }.map { "\n    \(json($0.key)): \(json($0.value))" }.joined(separator: ",") + "\n  },\n  \"nextKeys\": {"
        text += m.nextKeys.sorted { $0.key < $1.key }.map { "\n    \(json($0.key)): \($0.value)" }.joined(separator: ",") + "\n  }\n}\n"
        return Array(text.utf8)
    }

    private func fail(_ what: String, _ path: String) -> StrataError {
        StrataError(.ioFailure, "Cannot \(what) (\(String(cString: strerror(errno)))); the store is unchanged.", file: path)
    }

    /// Writes a new file and syncs it.
    func write(_ name: String, _ bytes: [UInt8]) throws {
        let path = url.appendingPathComponent(name).path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("create \(name)", path) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            guard n > 0 else { throw fail("write \(name)", path) }
            written += n
        }
        guard fsync(fd) == 0 else { throw fail("sync \(name)", path) }
    }

    /// Replaces the manifest atomically: the commit point of a save.
    func commit(_ m: Manifest) throws {
        let temporary = "manifest.json.tmp-\(getpid())"
        try write(temporary, manifestBytes(m))
        guard rename(url.appendingPathComponent(temporary).path, manifestURL.path) == 0 else {
            unlink(url.appendingPathComponent(temporary).path)
            throw fail("replace the manifest", manifestURL.path)
        }
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Takes the folder's exclusive advisory lock (`.lock`), so a second process cannot write beside
    /// this one and lose its updates; returns the descriptor to release, or throws `storeLocked`.
    func lock(wait: Duration?) throws -> Int32 {
        let path = url.appendingPathComponent(".lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("open the lock file", path) }
        let deadline = ContinuousClock.now + (wait ?? .zero)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                close(fd)
                throw StrataError(.storeLocked, "Another process has this CSV store open; close it there, or open with a lock wait.", file: url.path)
            }
            usleep(5_000)
        }
        return fd
    }

    /// Removes every data file the manifest does not name (left by an interrupted save).
    func removeStrays(keeping m: Manifest) {
        let keep = Set(m.files.values).union(["manifest.json", ".lock"])
        for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where !keep.contains(name) {
            if name.hasSuffix(".csv") || name.hasPrefix("manifest.json.tmp-") { unlink(url.appendingPathComponent(name).path) }
        }
    }
}
