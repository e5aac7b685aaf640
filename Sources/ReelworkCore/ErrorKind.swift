/// Why a run failed, which decides whether it is retried.
public enum ErrorKind: String, Codable, CaseIterable, Sendable {
    /// Network blips, a server restarting: retrying can succeed.
    case transient
    /// The input cannot be processed (corrupt or unsupported video, invalid options): never retried.
    case invalidInput = "invalid_input"
    /// Something a person must fix first (no ball visible, lane not calibrated): never retried.
    case needsPerson = "needs_person"
    /// A bug or an unexpected state on our side: retried, since a fixed deploy may succeed.
    case `internal`

    public var isRetryable: Bool { self == .transient || self == .internal }
}

/// An error with a kind and a message meant for the person who reads it.
public protocol ClassifiedError: Error {
    var kind: ErrorKind { get }
    var message: String { get }
}

/// Errors raised by Reelwork's own logic (not by a C library).
public enum ReelworkError: Error, ClassifiedError, CustomStringConvertible, Equatable {
    case invalidRequest(String)
    case notFound(String)
    case conflict(String)
    case invalidInput(String)
    case unavailable(String)
    case configuration(String)
    /// Something only a person can fix (no ball visible, invalid lane calibration); the message says
    /// what to do, in the seeds' words where they have them. Never retried.
    case needsPerson(String)

    public var kind: ErrorKind {
        switch self {
        case .invalidRequest, .invalidInput, .notFound, .conflict, .configuration: return .invalidInput
        case .unavailable: return .transient
        case .needsPerson: return .needsPerson
        }
    }

    public var message: String {
        switch self {
        case .invalidRequest(let m), .notFound(let m), .conflict(let m), .invalidInput(let m),
             .unavailable(let m), .configuration(let m), .needsPerson(let m):
            return m
        }
    }

    public var description: String { message }
}
