import Foundation

/// What the power-loss recorder (`PowerLossRecorder`) logged while a writer ran: every change to
/// the files under the recorded folder, in call order, with the writer's acknowledgements between
/// them, each change tied to the file (inode) or folder it changes.
public struct PowerLossLog: Sendable {
    /// One recorded operation; paths are relative to the recorded folder ("" is the folder).
    public enum Step: Sendable {
        /// A new file `path` (a new inode, `node`).
        case create(path: String, node: Int)
        /// Bytes written into a file at an offset.
        case write(node: Int, offset: Int, bytes: [UInt8])
        /// A file's size set (cut or extended with zeros).
        case truncate(node: Int, size: Int)
        /// `fsync`/`fdatasync` (or a write through `O_SYNC`) of a file.
        case syncFile(node: Int)
        /// `fsync` of a folder: its entries (creates, renames, unlinks) are durable.
        case syncFolder(path: String)
        /// `rename(from, to)`.
        case rename(from: String, to: String)
        /// `link(from, to)`.
        case link(from: String, to: String)
        /// `unlink` or `rmdir`.
        case unlink(path: String)
        /// `mkdir`.
        case mkdir(path: String)
        /// The writer acknowledged save `generation` (printed `saved <g>`).
        case acknowledged(generation: Int)

        /// The folders whose entries this step changes (empty for a step on a file's content).
        var folders: [String] {
            switch self {
            case .create(let path, _), .unlink(let path), .mkdir(let path): [PowerLossLog.parent(path)]
            case .rename(let from, let to), .link(let from, let to): [PowerLossLog.parent(from), PowerLossLog.parent(to)]
            default: []
            }
        }
    }

    /// The steps in call order.
    public var steps: [Step] = []

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Parses the recorder's log of a writer that worked under `root` (an absolute path without
    /// symbolic links, as the recorder resolves it).
    public init(_ bytes: [UInt8], root: String) throws {
        var at = 0
        func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard at + count <= bytes.count else { throw WorkloadError("the power-loss log ends inside a record at byte \(at)") }
            defer { at += count }
            return bytes[at..<at + count]
        }
        func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
            try take(MemoryLayout<T>.size).reversed().reduce(T(0)) { $0 << 8 | T($1) }
        }
        func relative(_ bytes: ArraySlice<UInt8>) -> String? {
            let path = String(decoding: bytes, as: UTF8.self)
            if path == root { return "" }
            guard path.hasPrefix(root + "/") else { return nil }
            return String(path.dropFirst(root.count + 1))
        }
        var nodes: [UInt64: Int] = [:]
        var nextNode = 0
        var folders: Set<String> = [""]
        var pendingMark: [UInt8] = []
        while at < bytes.count {
            let op = try take(1).first!
            let inode = try integer(UInt64.self)
            let a = try integer(Int64.self)
            _ = try integer(Int64.self)
            let one = try take(Int(try integer(UInt32.self)))
            let two = try take(Int(try integer(UInt32.self)))
            switch op {
            case UInt8(ascii: "C"):
                guard let path = relative(one) else { continue }
                nodes[inode] = nextNode  // an inode number is reused after an unlink: a new file all the same
                steps.append(.create(path: path, node: nextNode))
                nextNode += 1
            case UInt8(ascii: "W"):
                if let node = nodes[inode] { steps.append(.write(node: node, offset: Int(a), bytes: Array(one))) }
            case UInt8(ascii: "T"):
                if let node = nodes[inode] { steps.append(.truncate(node: node, size: Int(a))) }
            case UInt8(ascii: "S"):
                if let path = relative(one), folders.contains(path) {
                    steps.append(.syncFolder(path: path))
                } else if let node = nodes[inode] {
                    steps.append(.syncFile(node: node))
                }
            case UInt8(ascii: "R"), UInt8(ascii: "L"):
                guard let from = relative(one), let to = relative(two) else { continue }
                steps.append(op == UInt8(ascii: "R") ? .rename(from: from, to: to) : .link(from: from, to: to))
            case UInt8(ascii: "U"):
                guard let path = relative(one) else { continue }
                folders.remove(path)
                steps.append(.unlink(path: path))
            case UInt8(ascii: "D"):
                guard let path = relative(one) else { continue }
                folders.insert(path)
                steps.append(.mkdir(path: path))
            case UInt8(ascii: "M"):
                pendingMark += one
                while let end = pendingMark.firstIndex(of: 0x0A) {
                    let line = String(decoding: pendingMark[..<end], as: UTF8.self)
                    pendingMark.removeSubrange(...end)
                    if line.hasPrefix("saved "), let generation = Int(line.dropFirst(6)) { steps.append(.acknowledged(generation: generation)) }
                }
            default:
                throw WorkloadError("the power-loss log holds an unknown record '\(op)' at byte \(at)")
            }
        }
    }

    /// How many steps sync a file or a folder.
    public var syncs: Int {
        steps.count { if case .syncFile = $0 { true } else if case .syncFolder = $0 { true } else { false } }
    }

    /// The last save acknowledged before step `cut`, and whether another one was under way.
    func acknowledged(before cut: Int) -> (last: Int, another: Bool) {
        var last = -1
        for step in steps[..<cut] { if case .acknowledged(let g) = step { last = g } }
        let another = steps[cut...].contains { if case .acknowledged = $0 { true } else { false } }
        return (last, another)
    }
}
