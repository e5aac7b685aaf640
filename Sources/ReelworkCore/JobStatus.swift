/// A job's place in its lifecycle: `queued → running → succeeded | failed | cancelled`,
/// with `retry_scheduled` between attempts.
public enum JobStatus: String, Codable, CaseIterable, Sendable {
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

    /// `statuses` as an SQL list, `('queued', 'retry_scheduled')`: the states are named here once,
    /// and the SQL that groups them takes the group from here.
    public static func sqlList(_ statuses: [JobStatus]) -> String {
        "(" + statuses.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
    }

    /// The names a status filter takes: every status and `waiting`.
    public static let filterNames = allCases.map(\.rawValue) + ["waiting"]

    /// The statuses a filter's name stands for; nil for an unknown name.
    public static func filter(_ name: String) -> [JobStatus]? {
        name == "waiting" ? waiting : JobStatus(rawValue: name).map { [$0] }
    }
}

/// A stage's state within one attempt.
public enum StageStatus: String, Codable, CaseIterable, Sendable {
    case pending, running, succeeded, skipped, failed

    public var isFinished: Bool { self == .succeeded || self == .skipped || self == .failed }
}
