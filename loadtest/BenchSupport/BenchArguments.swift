import Foundation

/// A bench's command line, `MODE FILE [--flag VALUE]...` (bowling-bench, basketball-bench), read one
/// way so each bench refuses bad input alike: its name in front, on standard error, exit status 2.
public struct BenchArguments: Sendable {
    /// The bench's name, in front of each message.
    public let name: String
    public let mode: String
    public let file: String
    private let values: [String: String]

    /// Reads `arguments` (the process's own by default). Fails with `usage` when MODE or FILE is
    /// missing, and on a flag without a value or not among `flags`; a flag given twice keeps its last value.
    public init(name: String, usage: String, flags: Set<String>, arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        self.name = name
        var rest = arguments
        guard rest.count >= 2 else { Self.fail(name, usage) }
        mode = rest.removeFirst()
        file = rest.removeFirst()
        var values: [String: String] = [:]
        while !rest.isEmpty {
            let flag = rest.removeFirst()
            guard let value = rest.first else { Self.fail(name, "\(flag) needs a value") }
            rest.removeFirst()
            guard flags.contains(flag) else { Self.fail(name, "unknown flag \(flag)") }
            values[flag] = value
        }
        self.values = values
    }

    /// The value given for `flag`, as written; nil when it was not given.
    public subscript(flag: String) -> String? { values[flag] }

    /// Writes `NAME: message` to standard error and exits with status 2 (a usage error to the scripts).
    public func fail(_ message: String) -> Never { Self.fail(name, message) }

    private static func fail(_ name: String, _ message: String) -> Never {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
        exit(2)
    }
}

extension Duration {
    /// The duration in seconds, for the benches' JSON lines.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
