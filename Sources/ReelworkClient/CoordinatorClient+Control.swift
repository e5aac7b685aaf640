import Foundation
import ReelworkCore

/// The operators' controls over the pool (operator keys).
extension CoordinatorClient {
    public func workers() async throws -> WorkerList {
        try await queueGet("/v1/workers")
    }

    /// Asks a worker to drain (idempotent).
    public func drainWorker(_ id: String) async throws -> WorkerView {
        try await queuePost("/v1/workers/\(Self.pathSegment(id))/drain")
    }

    /// Pauses (or with `paused: false` resumes) one club's queue, or the whole queue when `club` is nil.
    public func setPaused(_ paused: Bool, club: String?) async throws -> PauseStateView {
        let verb = paused ? "pause" : "resume"
        return try await queuePost(club.map { "/v1/clubs/\(Self.pathSegment($0))/\(verb)" } ?? "/v1/queue/\(verb)")
    }

    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "_-.:@"))) ?? text
    }
}
