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
    /// `noeviction`, loading its data, busy with a script, a read-only replica, a failing save) is worth retrying;
    /// any other server error reply is ours.
    public var kind: ErrorKind {
        if source == .connection { return .transient }
        let code = message.prefix { $0 != " " }
        return source == .server && Self.transientCodes.contains(String(code)) ? .transient : .internal
    }

    static let transientCodes: Set<String> = ["OOM", "LOADING", "BUSY", "MASTERDOWN", "READONLY", "TRYAGAIN", "CLUSTERDOWN", "MISCONF"]

    /// Why Redis is failing us, when it is Redis's state and not the command: unreachable, or
    /// refusing writes (`OOM`, `READONLY`, `MISCONF`) or not ready (the other transient codes).
    /// Nil for any other error (a script bug, a wrong type).
    public var faultCause: DependencyFault.Cause? {
        switch source {
        case .connection: return .unreachable
        case .protocolViolation: return nil
        case .server:
            switch String(message.prefix { $0 != " " }) {
            case "OOM": return .outOfMemory
            case "READONLY": return .readOnly
            case "MISCONF": return .persistenceFailing
            case let code where Self.transientCodes.contains(code): return .notReady
            default: return nil
            }
        }
    }

    /// Redis is out of memory and refuses writes (`maxmemory` reached with `noeviction`).
    public var isOutOfMemory: Bool { source == .server && message.hasPrefix("OOM") }
    public var description: String { "redis: \(message)" }
}
