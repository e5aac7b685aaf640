import Foundation
import Queue
import ReelworkCore

/// A stored event as the feed passes it on: what filters look at, decoded once per event by the
/// reader, and the JSON as stored, sent to every subscriber without being encoded again (the
/// string's storage is shared by every buffer that holds it).
public struct FeedEvent: Sendable, Equatable {
    public let id: EventID
    public let type: String
    public let club: String
    public let jobId: UUID
    public let batchId: UUID?
    public let data: String

    public init(id: EventID, event: JobEvent, data: String) {
        self.id = id
        self.type = event.type.rawValue
        self.club = event.club
        self.jobId = event.jobId
        self.batchId = event.batchId
        self.data = data
    }

    /// The event a stream entry holds, or nil when its JSON is not a `JobEvent` (skipped: no
    /// subscriber could be told what it is about).
    public init?(_ entry: EventStream.Entry) {
        guard let event = try? ReelworkJSON.decoder.decode(JobEvent.self, from: Data(entry.data.utf8)) else { return nil }
        self.init(id: entry.id, event: event, data: entry.data)
    }
}
