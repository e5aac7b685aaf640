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

    /// A lost connection, a restarting server, or one refusing writes for now (out of memory under
    /// `noeviction`, loading its data, busy with a script, a read-only replica) is worth retrying;
    /// any other server error reply is ours.
    public var kind: ErrorKind {
        if source == .connection { return .transient }
        let code = message.prefix { $0 != " " }
        return source == .server && Self.transientCodes.contains(String(code)) ? .transient : .internal
    }

    static let transientCodes: Set<String> = ["OOM", "LOADING", "BUSY", "MASTERDOWN", "READONLY", "TRYAGAIN", "CLUSTERDOWN"]

    /// Redis is out of memory and refuses writes (`maxmemory` reached with `noeviction`).
    public var isOutOfMemory: Bool { source == .server && message.hasPrefix("OOM") }
    public var description: String { "redis: \(message)" }
}
