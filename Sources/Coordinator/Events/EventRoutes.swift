import Foundation
import Hummingbird
import Logging
import ReelworkCore
import Store

/// `GET /v1/events`: live job and stage events as server-sent events. A club key gets its own
/// club's events only; `job=` and `batch=` narrow them (another club's job or batch answers 404,
/// as its other routes do). `Last-Event-ID` (or `lastEventId=` for clients that cannot set
/// headers) resumes after that event.
struct EventRoutes {
    let backends: Backends
    /// Streams open per key on this coordinator.
    let quota: StreamQuota

    init(backends: Backends) {
        self.backends = backends
        self.quota = StreamQuota(limit: backends.config.events.maxStreamsPerKey)
    }

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
            return try await stream(request, filter: filter, key: caller.keyId)
        }
    }

    /// The events matching `filter` as a server-sent events response, resuming after the request's
    /// `Last-Event-ID` header or `lastEventId` query parameter. The dashboard's stream calls this
    /// with its session's club and key. A key with `maxStreamsPerKey` streams open here already: 429.
    /// Redis away: 503.
    func stream(_ request: Request, filter: EventFilter, key: UUID) async throws -> Response {
        guard quota.enter(key) else {
            throw APIError.busy(.tooManyRequests, "too_many_streams",
                                "this key has \(quota.limit) event streams open on this coordinator already "
                                    + "(\(EventSettings.Env.maxStreamsPerKey)); close one, then reconnect with Last-Event-ID to resume",
                                retryAfterSeconds: 5)
        }
        let after = Self.lastEventId(request)
        let subscription: EventSubscription
        do {
            subscription = try await backends.events.subscribe(filter: filter, after: after)
        } catch {
            quota.leave(key)
            backends.logger.warning("event stream not opened: \(error)")
            throw APIError.unavailable("events_unavailable", "the event stream cannot be read", error)
        }
        let quota = self.quota
        return ServerSentEvents.response(subscription, settings: backends.config.events, onEnd: { quota.leave(key) })
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
