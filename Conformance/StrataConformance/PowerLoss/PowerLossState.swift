import Foundation

/// One disk state a power loss at a given step could leave, built from a `PowerLossLog`.
///
/// The model (as ALICE, OSDI 2014, and CrashMonkey build their states):
/// - a write or truncate of a file is durable once the file is synced after it (`fsync`,
///   `fdatasync`, or a write through `O_SYNC`/`O_DSYNC`); a create, rename, link, unlink or mkdir
///   once its folder is synced after it;
/// - of the folder changes not yet durable, a prefix survives (a journaling file system commits its
///   metadata in order);
/// - of the file changes not yet durable, each file keeps all, none, a prefix or any subset, and
///   the last kept write may be torn at a 512-byte sector boundary.
struct PowerLossState {
    /// The files (relative path → bytes) and folders the state holds.
    var files: [String: [UInt8]] = [:]
    var folders: Set<String> = [""]

    /// The state after a power loss just before step `cut`, the choices drawn from `random`.
    init(_ log: PowerLossLog, cut: Int, random: inout some RandomNumberGenerator) {
        let steps = log.steps[..<cut]
        var lastFileSync: [Int: Int] = [:]
        var lastFolderSync: [String: Int] = [:]
        for (i, step) in steps.enumerated() {
            if case .syncFile(let node) = step { lastFileSync[node] = i }
            if case .syncFolder(let path) = step { lastFolderSync[path] = i }
        }
        // Folder changes: the durable ones plus a prefix of the others.
        let pendingFolderSteps = steps.indices.filter { i in
            let folders = steps[i].folders
            return !folders.isEmpty && !folders.allSatisfy { (lastFolderSync[$0] ?? -1) > i }
        }
        let keptFolderSteps = Set(pendingFolderSteps.prefix(Int.random(in: 0...pendingFolderSteps.count, using: &random)))
        let pendingFolder = Set(pendingFolderSteps)
        // File changes: per file, all, none, a prefix or a subset of those not yet durable.
        var pendingByNode: [Int: [Int]] = [:]
        for (i, step) in steps.enumerated() {
            switch step {
            case .write(let node, _, _), .truncate(let node, _):
                if (lastFileSync[node] ?? -1) < i { pendingByNode[node, default: []].append(i) }
            default: break
            }
        }
        var keptFileSteps: Set<Int> = []
        var torn: [Int: Int] = [:]  // step → bytes of the write kept
        for node in pendingByNode.keys.sorted() {
            let pending = pendingByNode[node]!
            let kept: [Int]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: kept = pending
            case 1: kept = []
            case 2: kept = Array(pending.prefix(Int.random(in: 0...pending.count, using: &random)))
            default: kept = pending.filter { _ in Bool.random(using: &random) }
            }
            keptFileSteps.formUnion(kept)
            if let last = kept.last, Int.random(in: 0..<3, using: &random) == 0, case .write(_, let offset, let bytes) = steps[last] {
                let boundaries = stride(from: (offset / 512 + 1) * 512, to: offset + bytes.count, by: 512).map { $0 - offset }
                if let keep = boundaries.randomElement(using: &random) { torn[last] = keep }
            }
        }
        var names: [String: Int] = [:]
        var contents: [Int: [UInt8]] = [:]
        for (i, step) in steps.enumerated() {
            let durable: Bool
            switch step {
            case .write(let node, _, _), .truncate(let node, _): durable = (lastFileSync[node] ?? -1) > i || keptFileSteps.contains(i)
            case .create, .rename, .link, .unlink, .mkdir: durable = !pendingFolder.contains(i) || keptFolderSteps.contains(i)
            default: durable = false
            }
            guard durable else { continue }
            switch step {
            case .create(let path, let node): names[path] = node
            case .write(let node, let offset, let bytes):
                let part = torn[i].map { bytes.prefix($0) } ?? bytes[...]
                var content = contents[node] ?? []
                if content.count < offset + part.count { content += [UInt8](repeating: 0, count: offset + part.count - content.count) }
                content.replaceSubrange(offset..<offset + part.count, with: part)
                contents[node] = content
            case .truncate(let node, let size):
                var content = contents[node] ?? []
                if content.count > size { content.removeSubrange(size...) } else { content += [UInt8](repeating: 0, count: size - content.count) }
                contents[node] = content
            case .rename(let from, let to):
                if let node = names.removeValue(forKey: from) { names[to] = node }
            case .link(let from, let to):
                if let node = names[from] { names[to] = node }
            case .unlink(let path):
                names[path] = nil
                folders.remove(path)
            case .mkdir(let path): folders.insert(path)
            default: break
            }
        }
        for (path, node) in names where folders.contains(PowerLossLog.parent(path)) { files[path] = contents[node] ?? [] }
    }

    /// Writes the state into the empty folder `folder`.
    func write(into folder: URL) throws {
        for path in folders.sorted(by: { $0.count < $1.count }) where !path.isEmpty {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        for (path, bytes) in files {
            try Data(bytes).write(to: folder.appendingPathComponent(path))
        }
    }
}
