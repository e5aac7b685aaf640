/// How one attempt of a job ended (its `job_attempts` row): a lifecycle of its own beside the
/// job's status (a job `queued` again may have an attempt `handed_back` or `stalled`). Named once,
/// like `JobStatus`: SQL takes them as `NamedState` literals.
public enum AttemptOutcome: String, Codable, NamedState {
    case succeeded, failed, cancelled
    /// Failed, with another attempt scheduled.
    case retry
    /// Given back unfinished: the worker shut down, or a service it needs was failing.
    case handedBack = "handed_back"
    /// Its run stopped reporting and another run took the job over.
    case lost
    /// Its lease expired: the reaper's verdict.
    case stalled
}
