#if canImport(Glibc)
import Glibc
#endif

/// The identity, size and modification time of a file, to notice that someone else changed it.
///
/// A store compares the stamp of its files with the one it recorded after its own last write; a
/// difference means another process (or a hand edit) changed them, and the store reloads.
public struct FileStamp: Equatable, Sendable {
    /// The device and inode: a file renamed over the old one has a new one.
    public let device: UInt64, inode: UInt64
    /// The size in bytes.
    public let size: Int64
    /// The modification time in nanoseconds.
    public let modified: Int64

    /// The stamp of `path`, or `nil` if it does not exist.
    ///
    /// `withCString` lends a native string's own bytes; passing the `String` to `stat` directly
    /// copied it into a new array on every call (a CSV store stats every table file it names).
    public init?(_ path: String) {
        var s = stat()
        guard path.withCString({ stat($0, &s) }) == 0 else { return nil }
        self.init(s)
    }

    /// The stamp of an open file.
    public init?(descriptor: Int32) {
        var s = stat()
        guard fstat(descriptor, &s) == 0 else { return nil }
        self.init(s)
    }

    private init(_ s: stat) {
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        size = Int64(s.st_size)
        modified = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
    }

    /// Whether the two stamps name the same file (whatever its content).
    public func isSameFile(as other: FileStamp) -> Bool { device == other.device && inode == other.inode }
}
