import Foundation
import Strata
import StrataBuiltinBackends
import StrataConformance
import StrataTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `strata convert`'s progress (docs/convert.md): with standard error on a terminal, one line
/// rewritten in place for each phase (`records`, `links`, `verify`) and erased at the end; on a
/// pipe nothing but the summary on standard output; on a pipe with `--progress`, one plain line a
/// batch. The terminal is a real pseudo-terminal the child writes to.
struct ConvertProgressTests {
    static let eraseLine = "\r\u{1B}[K"

    @Test func aProgressLineOnATerminalAndQuietOnAPipe() throws {
        let sqlite = try #require(BuiltinStores.named("sqlite")), json = try #require(BuiltinStores.named("json"))
        let source = ConvertTests.folder("progress-source"), parent = ConvertTests.folder("progress")
        defer { ConvertTests.destroy(sqlite, source); try? FileManager.default.removeItem(at: parent) }
        try ConvertTests.write(sqlite.factory, source, DifferentialSchema.schema) { _ = try RandomStore.write(into: $0, records: 500, seed: 9, batch: 250) }
        func arguments(_ to: String, _ extra: [String] = []) -> [String] {
            ["convert", "--from-backend", "sqlite", "--from", source.path, "--to-backend", "json", "--to", parent.appendingPathComponent(to).path, "--batch-size", "100"] + extra
        }

        let piped = try ChildProcess.run(BuiltProducts.strata, arguments("piped"), errors: .captured)
        #expect(piped.status == 0 && piped.output.contains("verified: both stores"), "\(piped.output)\(piped.errors)")
        #expect(piped.errors.isEmpty, "standard error on a pipe: \(piped.errors.debugDescription)")

        let terminal = try Self.runWithTerminal(BuiltProducts.strata, arguments("terminal"))
        #expect(terminal.status == 0 && terminal.output.contains("verified: both stores"), "\(terminal.output)")
        let screen = terminal.terminal
        for phase in ["records", "links", "verify"] {
            #expect(screen.contains("\(Self.eraseLine)\(phase): "), "no \(phase) progress on the terminal: \(screen.debugDescription)")
        }
        #expect(screen.components(separatedBy: Self.eraseLine).count > 10, "the line is rewritten once a batch")
        #expect(!screen.contains("\n"), "one line rewritten in place, never a new line: \(screen.debugDescription)")
        #expect(screen.hasSuffix(Self.eraseLine), "the line is erased at the end: \(screen.debugDescription)")

        let logged = try ChildProcess.run(BuiltProducts.strata, arguments("logged", ["--progress"]), errors: .captured)
        let lines = logged.errors.split(separator: "\n")
        #expect(logged.status == 0 && lines.count > 10 && !logged.errors.contains("\u{1B}"), "\(logged.errors.debugDescription)")
        #expect(lines.allSatisfy { $0.hasPrefix("records: ") || $0.hasPrefix("links: ") || $0.hasPrefix("verify: ") }, "\(lines)")
        #expect(try ConvertTests.dump(json, parent.appendingPathComponent("terminal")) == ConvertTests.dump(sqlite, source))
    }

    /// Runs `executable` with its standard error on a new pseudo-terminal and its standard output on
    /// a pipe; what it wrote to each, and its exit status.
    static func runWithTerminal(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String, terminal: String) {
        // posix_openpt and friends are not in Swift's Glibc module: the same through /dev/ptmx and
        // Linux's ioctls (TIOCSPTLCK = _IOW('T', 0x31, int) unlocks, TIOCGPTN = _IOR('T', 0x30,
        // unsigned int) numbers it; asm-generic/ioctls.h, the same on x86_64 and arm64).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0, "no pseudo-terminal: errno \(errno)")
        defer { close(master) }
        var unlock: CInt = 0, number: CUnsignedInt = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0, "errno \(errno)")
        let name = "/dev/pts/\(number)"
        // Close-on-exec, so that no other child started meanwhile keeps the terminal open; the
        // child gets it as its standard error by dup2, which clears the flag there.
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0)
        var settings = termios()
        tcgetattr(slave, &settings)
        settings.c_oflag &= ~tcflag_t(OPOST)  // the bytes as written: no "\n" → "\r\n"
        tcsetattr(slave, TCSANOW, &settings)
        let process = Process(), output = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { close(slave); throw error }
        close(slave)
        // Read the terminal to its end (EIO once no process holds it open) beside standard output.
        var screen = Data(), buffer = [UInt8](repeating: 0, count: 4096)
        let done = DispatchSemaphore(value: 0), reader = output.fileHandleForReading, printed = DataBox()
        Thread { printed.data = reader.readDataToEndOfFile(); done.signal() }.start()
        while true {
            let count = read(master, &buffer, buffer.count)
            if count > 0 { screen.append(contentsOf: buffer[0..<count]) } else if count < 0, errno == EINTR { continue } else { break }
        }
        done.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed.data, as: UTF8.self), String(decoding: screen, as: UTF8.self))
    }
}

/// Data a reader thread fills before it signals.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
