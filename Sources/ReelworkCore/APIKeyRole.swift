/// What an API key may do (guarantee 7). The raw values are the `api_keys.role` column's.
public enum APIKeyRole: String, Codable, CaseIterable, Sendable {
    /// One club's videos, jobs, results, batches and webhooks; nothing of another club.
    case club
    /// Every club's work, plus retry, cancel, pause and drain.
    case `operator`
    /// Reads video content for the jobs it runs, nothing else.
    case worker

    /// The readable start of a key of this role, so a leaked key says what it opens
    /// (and secret scanners can match it).
    public var keyPrefix: String {
        switch self {
        case .club: return "rw_club_"
        case .operator: return "rw_op_"
        case .worker: return "rw_worker_"
        }
    }
}
