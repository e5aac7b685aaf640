import ReelworkCore

/// A failure reported by libpq or PostgreSQL, or by this module while reading a result.
///
/// `message` is PostgreSQL's (or libpq's) own text, trimmed; `sqlState` is the five-character
/// SQLSTATE when the server sent one. Errors that happen before the server can answer (cannot
/// connect, connection lost) have no SQLSTATE and are classified as transient.
public struct PostgresError: Error, ClassifiedError, CustomStringConvertible {
    public let message: String
    public let sqlState: String?
    /// True when the connection itself failed (could not connect, or it broke during a call):
    /// such a connection must not be reused.
    let isConnectionFailure: Bool

    /// Creates an error, e.g. to report a misuse in terms callers already handle.
    public init(message: String, sqlState: String? = nil) {
        self.init(message: message, sqlState: sqlState, connectionFailure: false)
    }

    init(message: String, sqlState: String?, connectionFailure: Bool) {
        self.message = message
        self.sqlState = sqlState
        self.isConnectionFailure = connectionFailure
    }

    /// Transient for anything retrying can fix: lost connections (class 08), administrator
    /// shutdowns (57P01..57P03), serialization failures and deadlocks (40001, 40P01) and
    /// insufficient resources (class 53). Data exceptions (22) and constraint violations (23)
    /// are the input's fault. Everything else (syntax errors, missing tables…) is ours.
    public var kind: ErrorKind {
        if isConnectionFailure { return .transient }
        guard let state = sqlState else { return .internal }
        switch state {
        case "57P01", "57P02", "57P03", "40001", "40P01": return .transient
        default: break
        }
        switch state.prefix(2) {
        case "08", "53": return .transient
        case "22", "23": return .invalidInput
        default: return .internal
        }
    }

    /// Why PostgreSQL is failing us, when it is the server's state and not the statement: the
    /// connection lost or refused (including an administrator's shutdown), or insufficient
    /// resources (class 53: 53100 disk full, 53200 out of memory, 53300 too many connections).
    /// Nil for anything else (a constraint, a syntax error, a serialization failure).
    public var faultCause: DependencyFault.Cause? {
        if meansConnectionLost { return .unreachable }
        switch sqlState {
        case "53100": return .diskFull
        case "53200": return .outOfMemory
        case "53300": return .tooManyConnections
        case let state? where state.hasPrefix("53"): return .outOfResources
        default: return nil
        }
    }

    /// 23505: an INSERT or UPDATE collided with a unique index or primary key.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// 0A000, as in "cached plan must not change result type": a prepared statement's table
    /// changed shape since it was prepared. (The code alone is checked: the message may be
    /// translated, and re-preparing a statement that fails for another unsupported feature
    /// only fails again the same way.)
    var isStalePreparedStatement: Bool { sqlState == "0A000" }

    /// Whether the connection that produced this error is gone, so a pool must replace it
    /// rather than hand it out again.
    var meansConnectionLost: Bool {
        if isConnectionFailure { return true }
        guard let state = sqlState else { return false }
        return state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03"
    }

    public var description: String {
        if let sqlState { return "\(message) (SQLSTATE \(sqlState))" }
        return message
    }
}
