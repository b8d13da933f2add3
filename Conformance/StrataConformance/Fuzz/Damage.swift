import Foundation

/// One kind of damage the fuzzer applies to a copy of a store.
public enum DamageKind: String, CaseIterable, Sendable, Hashable {
    /// One bit of one byte inverted: a bad sector, a cosmic ray, a careless edit.
    case bitFlip = "bit-flip"
    /// A file cut short at a random length (zero included): a full disk, a crash during a write.
    case truncate
    /// 1–8 random bytes inserted at a random offset.
    case insertBytes = "insert-bytes"
    /// 1–8 bytes removed at a random offset.
    case deleteBytes = "delete-bytes"
    /// A whole file removed (lock files included).
    case deleteFile = "delete-file"
    /// Two files' contents exchanged.
    case swapFiles = "swap-files"
    /// A file replaced by its copy from an earlier generation (a partial restore, a sync tool).
    case staleFile = "stale-file"
}

/// A damage drawn for one trial, described well enough to reproduce it by hand.
public struct Damage: Sendable, CustomStringConvertible {
    /// The kind of damage.
    public let kind: DamageKind
    /// What was done, e.g. `store.json: bit 3 of byte 1204`.
    public let detail: String
    /// The file damaged (the first one, for a swap), relative to the store's folder.
    public var file = ""
    /// Whether `file` now holds a beginning of what it held (a cut, or a stale copy of a file that
    /// has only grown since): what a crash while appending to it can leave.
    public var leavesPrefix = false
    /// For a stale copy: the generation `file` was copied from.
    public var staleGeneration: Int? = nil

    /// The kind and its detail, as the fuzz report prints a damage.
    public var description: String { "\(kind.rawValue) \(detail)" }

    /// Applies a damage of `kind` to the store in `directory`, drawing every choice from `random`.
    /// `earlier` are copies of the same store at earlier generations (for stale files). Falls back
    /// to deleting a file when the kind cannot apply (no non-empty file, a single file to swap).
    static func apply(_ kind: DamageKind, to directory: URL, earlier: [URL], random: inout SeededGenerator) throws -> Damage {
        let files = regularFiles(in: directory)
        guard !files.isEmpty else { return Damage(kind: kind, detail: "(no files)") }
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func url(_ relative: String) -> URL { directory.appendingPathComponent(relative) }
        let nonEmpty = files.filter { (try? Data(contentsOf: url($0)).isEmpty) == false }
        switch kind {
        case .bitFlip, .truncate, .insertBytes, .deleteBytes:
            guard !nonEmpty.isEmpty || kind == .insertBytes else { return try apply(.deleteFile, to: directory, earlier: earlier, random: &random) }
            let name = kind == .insertBytes ? pick(files) : pick(nonEmpty)
            let original = [UInt8](try Data(contentsOf: url(name)))
            var bytes = original
            let detail: String
            switch kind {
            case .bitFlip:
                let offset = Int(random.next() % UInt64(bytes.count))
                let bit = Int(random.next() % 8)
                bytes[offset] ^= UInt8(1 << bit)
                detail = "\(name): bit \(bit) of byte \(offset)"
            case .truncate:
                let length = Int(random.next() % UInt64(bytes.count))
                detail = "\(name): cut from \(bytes.count) to \(length) bytes"
                bytes.removeLast(bytes.count - length)
            case .insertBytes:
                let offset = Int(random.next() % UInt64(bytes.count + 1))
                let inserted = (0...(random.next() % 8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                bytes.insert(contentsOf: inserted, at: offset)
                detail = "\(name): \(inserted.count) byte(s) inserted at \(offset)"
            default:
                let offset = Int(random.next() % UInt64(bytes.count))
                let count = min(1 + Int(random.next() % 8), bytes.count - offset)
                bytes.removeSubrange(offset..<(offset + count))
                detail = "\(name): \(count) byte(s) deleted at \(offset)"
            }
            try Data(bytes).write(to: url(name))
            // Judged by the bytes, not the kind: bytes deleted up to the end of the file are a cut too.
            return Damage(kind: kind, detail: detail, file: name, leavesPrefix: bytes.count < original.count && original.starts(with: bytes))
        case .deleteFile:
            let name = pick(files)
            try FileManager.default.removeItem(at: url(name))
            return Damage(kind: kind, detail: name, file: name)
        case .swapFiles:
            guard files.count > 1 else { return try apply(.deleteFile, to: directory, earlier: earlier, random: &random) }
            let a = pick(files)
            let b = pick(files.filter { $0 != a })
            let first = try Data(contentsOf: url(a))
            try Data(contentsOf: url(b)).write(to: url(a))
            try first.write(to: url(b))
            return Damage(kind: kind, detail: "\(a) <-> \(b)", file: a)
        case .staleFile:
            guard !earlier.isEmpty else { return try apply(.deleteFile, to: directory, earlier: earlier, random: &random) }
            let generation = Int(random.next() % UInt64(earlier.count))
            let source = earlier[generation]
            let candidates = regularFiles(in: source)
            guard !candidates.isEmpty else { return try apply(.deleteFile, to: directory, earlier: earlier, random: &random) }
            let name = pick(candidates)
            let stale = try Data(contentsOf: source.appendingPathComponent(name))
            let current = try? Data(contentsOf: url(name))
            try FileManager.default.createDirectory(at: url(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try stale.write(to: url(name))
            return Damage(kind: kind, detail: "\(name) from generation \(generation)", file: name, leavesPrefix: current.map { $0.starts(with: stale) } ?? false, staleGeneration: generation)
        }
    }

    /// The regular files under `directory`, as sorted relative paths (sorted, so a seed repeats).
    static func regularFiles(in directory: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeRegular { files.append(relative) }
        }
        return files.sorted()
    }
}
