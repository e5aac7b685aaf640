import ReelworkCore

/// A Redis failure, carrying Redis's or hiredis's own message.
public struct RedisError: Error, ClassifiedError, CustomStringConvertible {
    public enum Source: Sendable { case connection, server, protocolViolation }
    public let source: Source
    public let message: String

    public init(_ source: Source, _ message: String) {
        self.source = source
        self.message = message
    }

    /// A lost connection or a restarting server is worth retrying; a server error reply is ours.
    public var kind: ErrorKind { source == .connection ? .transient : .internal }
    public var description: String { "redis: \(message)" }
}
