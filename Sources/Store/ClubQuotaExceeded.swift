/// A club asked for more waiting jobs than its quota allows; nothing was created.
public struct ClubQuotaExceeded: Error, Sendable, Equatable, CustomStringConvertible {
    public let club: String
    /// Jobs the club had waiting (queued or scheduled for a retry) before this request.
    public let waiting: Int
    /// Jobs this request would have added.
    public let adding: Int
    public let limit: Int

    public var description: String {
        "club \(club) has \(waiting) waiting job(s) and asked for \(adding) more; at most \(limit) may wait at once "
            + "(wait for some to start, or ask an operator to raise REELWORK_MAX_WAITING_JOBS_PER_CLUB)"
    }
}
