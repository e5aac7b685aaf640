/// A job's place in its lifecycle: `queued → running → succeeded | failed | cancelled`,
/// with `retry_scheduled` between attempts.
///
/// The states and their groups are named here once. SQL takes them as `NamedState` literals
/// (`JobStatus.running.sql`, `JobStatus.waiting.sql`), the dashboard, the CLI and
/// `reelwork_jobs_finished_total`'s `outcome` label from the cases and groups below.
public enum JobStatus: String, Codable, NamedState {
    case queued, running, succeeded, failed, cancelled
    case retryScheduled = "retry_scheduled"

    /// A terminal job never changes again (until an operator retries it).
    public var isTerminal: Bool { self == .succeeded || self == .failed || self == .cancelled }

    /// What the views call "waiting" (a batch's column, the dashboard): queued or between attempts.
    public static let waiting: [JobStatus] = [.queued, .retryScheduled]

    /// Not yet ended: waiting or running (a batch with any is not complete).
    public static let open: [JobStatus] = waiting + [.running]

    /// Ended: nothing changes them again until an operator retries them.
    public static let terminal: [JobStatus] = allCases.filter(\.isTerminal)

    /// Ended without a result: what a retry (the API's, an operator's bulk retry) takes back into
    /// the queue.
    public static let retryable: [JobStatus] = [.failed, .cancelled]

    /// The names a status filter takes: every status and `waiting`.
    public static let filterNames = allCases.map(\.rawValue) + ["waiting"]

    /// The statuses a filter's name stands for; nil for an unknown name.
    public static func filter(_ name: String) -> [JobStatus]? {
        name == "waiting" ? waiting : JobStatus(rawValue: name).map { [$0] }
    }
}
