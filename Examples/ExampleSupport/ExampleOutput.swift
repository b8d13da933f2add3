/// Collects what an example prints, so the executable shows it and a test compares it across backends.
public final class ExampleOutput {
    /// The lines printed so far.
    public private(set) var lines: [String] = []
    private let echo: Bool

    /// An output that also prints each line when `echo` is set (the executables).
    public init(echo: Bool = false) { self.echo = echo }

    /// Prints one line.
    public func callAsFunction(_ line: String = "") {
        lines.append(line)
        if echo { print(line) }
    }
}

/// Something an example expected is not there: a bug in the example or the store, never input.
public struct ExampleError: Error, CustomStringConvertible {
    /// What was missing.
    public let description: String
    /// An error saying what was expected.
    public init(_ description: String) { self.description = description }

    /// `value`, or this error when it is `nil`.
    public static func require<T>(_ value: T?, _ description: String) throws -> T {
        guard let value else { throw ExampleError(description) }
        return value
    }
}
