import Foundation

/// Which events a subscriber gets: all of one club's (a club key's, a club's dashboard session),
/// optionally narrowed to one job or one batch; every club's when `club` is nil (operators).
public struct EventFilter: Sendable, Equatable {
    public var club: String?
    public var jobId: UUID?
    public var batchId: UUID?

    public init(club: String? = nil, jobId: UUID? = nil, batchId: UUID? = nil) {
        self.club = club
        self.jobId = jobId
        self.batchId = batchId
    }

    public func matches(_ event: FeedEvent) -> Bool {
        if let club, event.club != club { return false }
        if let jobId, event.jobId != jobId { return false }
        if let batchId, event.batchId != batchId { return false }
        return true
    }
}
