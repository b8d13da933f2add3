import Foundation

/// Reads a pipe (any file handle) line by line, blocking; `nil` at the end of the file.
///
/// The tests that talk to a child process wait on its printed lines, never on time: this is the one
/// reader they share (`ChildProcess.lines`).
public final class PipeLines {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    /// A reader of `handle` (the reading end of a pipe).
    public init(_ handle: FileHandle) { self.handle = handle }

    /// The next line without its newline, blocking until it is complete; `nil` at the end of the file
    /// (a last line without a newline is dropped).
    public func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(contentsOf: chunk)
        }
    }

    /// Reads until a line satisfies `found` (true) or the file ends (false).
    @discardableResult
    public func read(until found: (String) -> Bool) -> Bool {
        while let line = next() { if found(line) { return true } }
        return false
    }
}
