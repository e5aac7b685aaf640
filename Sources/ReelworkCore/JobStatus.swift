/// A job's place in its lifecycle: `queued → running → succeeded | failed | cancelled`,
/// with `retry_scheduled` between attempts.
public enum JobStatus: String, Codable, CaseIterable, Sendable {
    case queued, running, succeeded, failed, cancelled
    case retryScheduled = "retry_scheduled"

    /// A terminal job never changes again (until an operator retries it).
    public var isTerminal: Bool { self == .succeeded || self == .failed || self == .cancelled }
}

/// A stage's state within one attempt.
public enum StageStatus: String, Codable, CaseIterable, Sendable {
    case pending, running, succeeded, skipped, failed

    public var isFinished: Bool { self == .succeeded || self == .skipped || self == .failed }
}
