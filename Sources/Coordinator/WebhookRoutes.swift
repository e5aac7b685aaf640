import Foundation
import Hummingbird
import NIOPosix
import ReelworkCore
import Store
import Webhooks

/// `POST /v1/webhooks`, `GET /v1/webhooks`, `GET /v1/webhooks/{id}`, `DELETE /v1/webhooks/{id}`,
/// `POST /v1/webhooks/{id}/rotate`, `GET /v1/webhooks/{id}/deliveries`,
/// `POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver`.
/// An endpoint is one club's; another club's endpoint id answers as a missing one. Secrets leave
/// the server only in the answers to create and rotate.
struct WebhookRoutes {
    let backends: Backends
    let jobs: JobRoutes

    /// Whether `text` can be a delivery id (`webhook-id`) as the outbox makes them: `msg_` and 16
    /// to 64 ASCII letters or digits (the table's CHECK).
    static func isDeliveryId(_ text: String) -> Bool {
        guard text.hasPrefix("msg_") else { return false }
        let rest = text.utf8.dropFirst(4)
        return (16...64).contains(rest.count) && rest.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    func register(on api: APIRouter) {
        api.post("/v1/webhooks", .clubData) { request, _, caller in try await create(request, caller) }
        api.get("/v1/webhooks", .clubData) { request, _, caller in try await list(request, caller) }
        api.get("/v1/webhooks/:id", .clubData) { _, context, caller in
            try JSONResponse.make(try await endpoint(RouteParams.uuid(context, "id"), caller))
        }
        api.delete("/v1/webhooks/:id", .clubData) { _, context, caller in
            let endpoint = try await endpoint(RouteParams.uuid(context, "id"), caller)
            try await backends.sql { try WebhookRepository($0).delete(id: endpoint.id, club: nil) }
            return Response(status: .noContent)
        }
        api.post("/v1/webhooks/:id/rotate", .clubData) { _, context, caller in
            let endpoint = try await endpoint(RouteParams.uuid(context, "id"), caller)
            let grace = backends.config.webhooks.rotationGraceSeconds
            let rotated = try await backends.sql { try WebhookRepository($0).rotate(id: endpoint.id, club: nil, grace: grace) }
            return try JSONResponse.make(WebhookSecretView(webhook: rotated.endpoint, secret: rotated.secret.text))
        }
        api.get("/v1/webhooks/:id/deliveries", .clubData) { request, context, caller in
            let endpoint = try await endpoint(RouteParams.uuid(context, "id"), caller)
            return try await deliveries(request, endpoint)
        }
        api.post("/v1/webhooks/:id/deliveries/:deliveryId/redeliver", .clubData) { request, context, caller in
            let endpoint = try await endpoint(RouteParams.uuid(context, "id"), caller)
            return try await redeliver(context.parameters.get("deliveryId") ?? "", of: endpoint, now: try Self.flag(request, "now"))
        }
    }

    /// The endpoint, if `caller` may see it; 404 `webhook_not_found` otherwise.
    func endpoint(_ id: UUID, _ caller: Caller) async throws -> WebhookEndpointRecord {
        try await backends.visible("webhook endpoint", id: id, code: "webhook_not_found", to: caller) {
            try WebhookRepository($0).find(id: id, club: $1)
        }
    }

    /// Registers an endpoint for the caller's club and answers with its secret, this once. The URL
    /// is checked, where it resolves included, before anything is written.
    func create(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONResponse.decode(CreateWebhookRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
        let club = try caller.owningClub(requested: body.club, defaultClub: JobRoutes.defaultClub)
        let events: [WebhookEventType]
        do { events = try WebhookEventType.parseList(body.events) } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_events", error.message)
        }
        let policy = try backends.config.webhooks.urlPolicy()
        let url = body.url
        do {
            // Resolving the host blocks: on NIO's blocking pool, not an event loop or a database thread.
            _ = try await NIOThreadPool.singleton.runIfActive { try policy.check(url) }
        } catch let error as WebhookURLError {
            throw APIError(.badRequest, "invalid_url", error.description)
        }
        let created: CreatedWebhookEndpoint
        do {
            created = try await backends.sql { try WebhookRepository($0).create(club: club, url: url, events: events) }
        } catch ReelworkError.conflict(let message) {
            throw APIError(.conflict, "too_many_webhooks", message)
        }
        return try JSONResponse.make(WebhookSecretView(webhook: created.endpoint, secret: created.secret.text), status: .created)
    }

    /// The caller's endpoints; an operator sees every club's, or one club's with `club=`. A club
    /// key naming another club finds nothing, as if it had none.
    func list(_ request: Request, _ caller: Caller) async throws -> Response {
        let (limit, cursor) = try jobs.page(request, of: "webhook")
        var club = try request.uri.queryParameters.get("club").map(JobRoutes.validClub)
        if let own = caller.visibleClub {
            if let named = club, named != own { return try JSONResponse.make(WebhookEndpointPage(webhooks: [], nextCursor: nil)) }
            club = own
        }
        return try JSONResponse.make(try await backends.sql { [club] in try WebhookRepository($0).list(club: club, limit: limit, cursor: cursor) })
    }

    /// A page of the endpoint's deliveries, newest first, each with every attempt.
    func deliveries(_ request: Request, _ endpoint: WebhookEndpointRecord) async throws -> Response {
        let query = request.uri.queryParameters
        var limit = 50
        if let text = query.get("limit") {
            guard let l = Int(text), (1...WebhookRepository.maxPageSize).contains(l) else {
                throw APIError(.badRequest, "invalid_request", "'limit' must be a whole number from 1 to \(WebhookRepository.maxPageSize)")
            }
            limit = l
        }
        let cursor = query.get("cursor")
        if let cursor, !Self.isDeliveryId(cursor) {
            throw APIError(.badRequest, "invalid_request", "'cursor' is not a delivery id (msg_…)")
        }
        let page = try await backends.sql { try WebhookRepository($0).deliveries(endpoint: endpoint.id, club: nil, limit: limit, cursor: cursor) }
        return try JSONResponse.make(page)
    }

    /// A query flag: absent or `false` is off, `true` on, anything else 400.
    static func flag(_ request: Request, _ name: String) throws -> Bool {
        switch request.uri.queryParameters.get(name) {
        case nil, "false": return false
        case "true": return true
        case let other?: throw APIError(.badRequest, "invalid_request", "'\(name)' must be true or false, not '\(other.prefix(40))'")
        }
    }

    /// Sends a finished delivery again (202): the same `webhook-id`, its retry schedule started
    /// afresh; with `now`, a pending one's next attempt is made due at once.
    func redeliver(_ deliveryId: String, of endpoint: WebhookEndpointRecord, now: Bool) async throws -> Response {
        guard Self.isDeliveryId(deliveryId) else {
            throw APIError(.notFound, "delivery_not_found", "no delivery with id '\(deliveryId.prefix(80))' for this endpoint")
        }
        do {
            let delivery = try await backends.sql { try WebhookRepository($0).redeliver(endpoint: endpoint.id, delivery: deliveryId, club: nil, now: now) }
            return try JSONResponse.make(delivery, status: .accepted)
        } catch ReelworkError.notFound {
            throw APIError(.notFound, "delivery_not_found", "no delivery with id \(deliveryId) for this endpoint")
        } catch ReelworkError.conflict(let message) {
            throw APIError(.conflict, "not_redeliverable", message)
        }
    }
}
