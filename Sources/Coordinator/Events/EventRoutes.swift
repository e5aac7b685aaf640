import Foundation
import Hummingbird
import ReelworkCore
import Store

/// `GET /v1/events`: live job and stage events as server-sent events. A club key gets its own
/// club's events only; `job=` and `batch=` narrow them (another club's job or batch answers 404,
/// as its other routes do). `Last-Event-ID` (or `lastEventId=` for clients that cannot set
/// headers) resumes after that event.
struct EventRoutes {
    let backends: Backends

    func register(on api: APIRouter) {
        api.get("/v1/events", .clubData) { request, _, caller in
            let query = request.uri.queryParameters
            var filter = EventFilter(club: caller.visibleClub)
            if let text = query.get("job") {
                let id = try Self.uuid(text, "job")
                // A job the caller may not see answers as one that does not exist.
                _ = try await backends.visible("job", id: id, code: "job_not_found", to: caller) { try JobRepository($0).find(id: id, club: $1) }
                filter.jobId = id
            }
            if let text = query.get("batch") {
                let id = try Self.uuid(text, "batch")
                _ = try await backends.visible("batch", id: id, code: "batch_not_found", to: caller) { try BatchRepository($0).find(id: id, club: $1) }
                filter.batchId = id
            }
            return try await stream(request, filter: filter)
        }
    }

    /// The events matching `filter` as a server-sent events response, resuming after the request's
    /// `Last-Event-ID` header or `lastEventId` query parameter. The dashboard's stream calls this
    /// with its session's club. Redis away: 503.
    func stream(_ request: Request, filter: EventFilter) async throws -> Response {
        let after = Self.lastEventId(request)
        let subscription: EventSubscription
        do {
            subscription = try await backends.events.subscribe(filter: filter, after: after)
        } catch {
            throw APIError(.serviceUnavailable, "events_unavailable", "the event stream cannot be read now: \(error)")
        }
        return ServerSentEvents.response(subscription, settings: backends.config.events)
    }

    /// The id to resume after: the header (what `EventSource` sends) wins over the query parameter.
    /// An empty one is none. A malformed one is passed on: the stream starts from now and says so
    /// first (`reset`), since a browser's `EventSource` cannot act on a 400 but reconnects.
    static func lastEventId(_ request: Request) -> String? {
        let header = request.headers[.init("Last-Event-ID")!]
        let text = header ?? request.uri.queryParameters.get("lastEventId")
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    static func uuid(_ text: String, _ name: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else {
            throw APIError(.badRequest, "invalid_request", "'\(name)' must be a \(name) id (a UUID), not '\(text.prefix(64))'")
        }
        return id
    }
}
