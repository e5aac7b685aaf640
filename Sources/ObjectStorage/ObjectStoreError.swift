import Foundation
import ReelworkCore

/// A store refusing or failing a request, in words that name the store and what to do.
public struct ObjectStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// The bucket or folder does not exist.
        case missingContainer
        /// The store refused our credentials or their signature.
        case refused
        /// The store failed (5xx), answered too slowly or could not be reached: worth retrying.
        case unavailable
        /// The store answered something we did not ask for or cannot read.
        case unexpected
        /// A key or a file we were given is not one we can store.
        case invalid
        /// The store holds no such upload in parts (it dropped its parts: aborted, expired, or a
        /// store that keeps them in memory restarted).
        case missingUpload
    }

    public var reason: Reason
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    /// The error taxonomy's kind: a failing store is a transient problem of ours, not the input's.
    public var kind: ErrorKind { reason == .invalid ? .invalidInput : .transient }
}
