import Foundation
import ReelworkCore
import Webhooks

/// Reads and writes `webhook_endpoints`, `webhook_deliveries` and `webhook_attempts`: a club's
/// endpoints (the routes' side), the outbox (the job writers' side), and claims and outcomes (the
/// dispatcher's side).
///
/// `club` parameters scope a call to one club (a club key's); nil means every club (an operator).
/// Another club's endpoint answers exactly like one that does not exist.
public struct WebhookRepository {
    let db: PGConnection

    /// Endpoints one club may have: each terminal job writes one delivery per subscribed endpoint,
    /// in the job's own transaction, so the count is bounded.
    public static let maxEndpointsPerClub = 20
    /// Most deliveries one page of the list may ask for.
    public static let maxPageSize = 100

    public init(_ db: PGConnection) {
        self.db = db
    }

    // MARK: - Endpoints (the routes)

    /// Registers an endpoint for `club` and returns it with its secret, which is never shown again.
    /// `url` must have passed `WebhookURLPolicy.check` (which resolves its host: the caller does that
    /// before it holds a connection); its form is checked again here.
    /// Route: `POST /v1/webhooks` `{"url", "events"}` → 201 with the endpoint and `secret`.
    /// - Throws: `ReelworkError.invalidRequest` for a bad club name, URL form or an empty event
    ///   list; `.conflict` when the club already has `maxEndpointsPerClub` endpoints.
    public func create(club: String, url: String, events: [WebhookEventType]) throws -> CreatedWebhookEndpoint {
        let clubName = try ClubName.validate(club)
        guard !events.isEmpty else { throw ReelworkError.invalidRequest("an endpoint must subscribe to at least one event") }
        do {
            _ = try WebhookURLPolicy.checkForm(url)
        } catch let error as WebhookURLError {
            throw ReelworkError.invalidRequest(error.description)
        }
        var unique: [WebhookEventType] = []
        for event in events where !unique.contains(event) { unique.append(event) }
        let secret = WebhookSecret.generate()
        return try db.transaction { tx in
            // Orders concurrent creations for one club, so the limit cannot be passed by racing.
            try tx.query(SQL.lockEndpoints, [clubName])
            let count = try tx.query(SQL.countEndpoints, [clubName]).rows[0].int("n")
            guard count < Self.maxEndpointsPerClub else {
                throw ReelworkError.conflict(
                    "club \(clubName) already has \(count) webhook endpoints, the most allowed; delete one before adding another")
            }
            let row = try tx.query(SQL.insertEndpoint, [UUID(), clubName, url, Self.textArray(unique.map(\.rawValue)), secret.text]).rows[0]
            return CreatedWebhookEndpoint(endpoint: try Self.endpoint(row), secret: secret)
        }
    }

    /// A page of the endpoints of `club` (nil: every club's), newest first; `cursor` is the last
    /// endpoint of the previous page.
    /// Route: `GET /v1/webhooks?limit=&cursor=`.
    public func list(club: String?, limit: Int = 50, cursor: UUID? = nil) throws -> WebhookEndpointPage {
        let limit = max(1, limit)
        let rows = try db.query(SQL.page, [club, cursor, limit + 1]).rows
        let endpoints = try rows.prefix(limit).map(Self.endpoint)
        return WebhookEndpointPage(webhooks: endpoints, nextCursor: rows.count > limit ? endpoints.last?.id.pgText : nil)
    }

    /// The endpoint, or nil when there is none with this id in `club`.
    /// Route: `GET /v1/webhooks/{id}`.
    public func find(id: UUID, club: String?) throws -> WebhookEndpointRecord? {
        try db.query(SQL.find, [id, club]).rows.first
            .map(Self.endpoint)
    }

    /// Deletes the endpoint with its deliveries and their attempts; a send in progress can no
    /// longer record its outcome.
    /// Route: `DELETE /v1/webhooks/{id}` → 204.
    /// - Throws: `ReelworkError.notFound` when there is no such endpoint in `club`.
    public func delete(id: UUID, club: String?) throws {
        let deleted = try db.query(SQL.delete, [id, club])
        if deleted.affectedRows == 0 { throw Self.noEndpoint(id) }
    }

    /// Gives the endpoint a new secret and returns it (shown once). The old secret keeps signing
    /// for `grace` seconds, so deliveries carry both signatures while the receiver switches over;
    /// a second rotation within that time drops the oldest secret at once.
    /// Route: `POST /v1/webhooks/{id}/rotate` → the endpoint and the new `secret`.
    /// - Throws: `ReelworkError.notFound` when there is no such endpoint in `club`.
    public func rotate(id: UUID, club: String?, grace: TimeInterval) throws -> CreatedWebhookEndpoint {
        let secret = WebhookSecret.generate()
        let rows = try db.query(SQL.rotate, [id, club, max(0, grace), secret.text]).rows
        guard let row = rows.first else { throw Self.noEndpoint(id) }
        return CreatedWebhookEndpoint(endpoint: try Self.endpoint(row), secret: secret)
    }

    /// Stops deliveries to the endpoint: it gets no new ones, and its pending ones end `failed`
    /// (one being sent right now records its attempt first, then ends at the next claim).
    /// Disabling a disabled endpoint keeps its first time and reason. The dispatcher calls this
    /// when an endpoint answers 410 Gone.
    /// Route: an operator's `POST /v1/webhooks/{id}/disable` (if one is added).
    /// - Throws: `ReelworkError.notFound` when there is no such endpoint in `club`.
    @discardableResult
    public func disable(id: UUID, club: String?, reason: String) throws -> WebhookEndpointRecord {
        try db.transaction { tx in
            let rows = try tx.query(SQL.disable, [id, club, reason]).rows
            guard let row = rows.first else { throw Self.noEndpoint(id) }
            try tx.query(SQL.failPending, [id])
            return try Self.endpoint(row)
        }
    }

    // MARK: - The outbox (the writers of events)

    /// Records a delivery of event `type` with `data` for every enabled endpoint of `club` (the
    /// club's name, as `jobs.club` holds it) that subscribes to it, and returns how many. Call it
    /// on the connection and inside the transaction that writes the event's own change, so both
    /// commit or neither does. Job events are recorded by the job writers themselves (see
    /// `WebhookOutbox.jobEvents`); this is for the others (`batch.completed`).
    @discardableResult
    public static func enqueueEvent(type: WebhookEventType, club: String, data: JSONValue, on db: PGConnection) throws -> Int {
        try db.query(WebhookOutbox.insert(event: "$1::text", club: "$2", data: "$3::jsonb", source: nil),
                     [type.rawValue, club, try data.encodedText()]).affectedRows
    }

    // MARK: - Sending (the dispatcher)

    /// Claims up to `limit` due deliveries for one attempt each, the longest due first, and leases
    /// them for `lease` seconds: until then no other claim returns them (rows another dispatcher is
    /// claiming at this moment are skipped, not waited for). Due deliveries of disabled endpoints are
    /// closed as `failed` instead. One statement, so a claim is all or nothing.
    public func claimDue(limit: Int, lease: TimeInterval) throws -> [ClaimedWebhookDelivery] {
        try db.query(SQL.claimDue, [max(0, limit), max(0, lease)]).rows
            .map { row in
                ClaimedWebhookDelivery(id: try row.string("id"), endpointId: try row.uuid("endpoint_id"), url: try row.string("url"),
                                       eventType: try Self.eventType(row), data: try Self.json(row, "data"),
                                       createdAt: try row.date("created_at"),
                                       secretTexts: [try row.string("secret")] + [row["previous_secret"]].compactMap { $0 },
                                       attempts: try row.int("attempts"), schedulePosition: try row.int("schedule_position"),
                                       leaseToken: try row.uuid("lease_token"))
            }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Records the attempt a claim made and what follows it (`decision`): the attempt's row, and the
    /// delivery succeeded, due again after the decision's wait, abandoned, or failed with its
    /// endpoint disabled (410). Returns false, writing nothing, when the claim's lease was lost (the
    /// delivery was claimed again, redelivered or deleted since).
    @discardableResult
    public func record(_ claim: ClaimedWebhookDelivery, result: WebhookSendResult, decision: WebhookDecision) throws -> Bool {
        let (status, wait): (WebhookDeliveryStatus, TimeInterval?) = switch decision {
        case .delivered: (.succeeded, nil)
        case .retry(let after): (.pending, max(0, after))
        case .abandon: (.abandoned, nil)
        case .disableEndpoint: (.failed, nil)
        }
        return try db.transaction { tx in
            let recorded = try tx.query(SQL.record, [claim.id, claim.leaseToken, status.rawValue, wait ?? 0, result.outcome.statusCode, result.latencyMs,
                      result.outcome.error.map { String($0.prefix(1_000)) }, result.sentAt])
            guard recorded.affectedRows == 1 else { return false }
            if case .disableEndpoint(let reason) = decision {
                try WebhookRepository(tx).disable(id: claim.endpointId, club: nil, reason: reason)
            }
            return true
        }
    }

    // MARK: - Deliveries (the routes)

    /// A page of the endpoint's deliveries, newest first, each with every attempt. `cursor` is the
    /// previous page's `nextCursor`.
    /// Route: `GET /v1/webhooks/{id}/deliveries?limit=&cursor=`.
    /// - Throws: `ReelworkError.notFound` when there is no such endpoint in `club`;
    ///   `.invalidRequest` for a limit outside 1…`maxPageSize`.
    public func deliveries(endpoint: UUID, club: String?, limit: Int = 50, cursor: String? = nil) throws -> WebhookDeliveryPage {
        guard (1...Self.maxPageSize).contains(limit) else {
            throw ReelworkError.invalidRequest("limit must be a whole number from 1 to \(Self.maxPageSize)")
        }
        guard try find(id: endpoint, club: club) != nil else { throw Self.noEndpoint(endpoint) }
        // The deliveries and their attempts are two queries: read from one snapshot, an attempt
        // recorded in between cannot show beside the delivery's state from before it.
        return try db.snapshot { tx in
            let rows = try tx.query(SQL.deliveries, [endpoint, cursor, limit + 1]).rows
            let page = try WebhookRepository(tx).withAttempts(Array(rows.prefix(limit)))
            return WebhookDeliveryPage(deliveries: page, nextCursor: rows.count > limit ? page.last?.id : nil)
        }
    }

    /// Sends a finished delivery again: the same delivery (the same `webhook-id`, since it is the
    /// same event and a receiver that already handled it should drop it) is made due now with its
    /// retry schedule started afresh; its earlier attempts stay in its history. A pending delivery
    /// is already on its way: with `now` its next attempt is made due at once (its place in the
    /// retry schedule kept; one being sent at this moment is left to finish). An endpoint that is
    /// disabled takes none.
    /// Route: `POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver[?now=true]` → 202 with the delivery.
    /// - Throws: `ReelworkError.notFound` when the endpoint (in `club`) has no such delivery;
    ///   `.conflict` when it is pending (without `now`) or the endpoint is disabled.
    @discardableResult
    public func redeliver(endpoint: UUID, delivery: String, club: String?, now: Bool = false) throws -> WebhookDeliveryRecord {
        try db.transaction { tx in
            let rows = try tx.query(SQL.lockDelivery, [delivery, endpoint, club]).rows
            guard let found = rows.first else {
                throw ReelworkError.notFound("webhook endpoint \(endpoint.uuidString.lowercased()) has no delivery \(delivery)")
            }
            if let reason = found["disabled_reason"] {
                throw ReelworkError.conflict("the endpoint is disabled (\(reason)); register it again to receive deliveries")
            }
            if try found.string("status") == WebhookDeliveryStatus.pending.rawValue {
                guard now else {
                    throw ReelworkError.conflict("delivery \(delivery) is still pending: its next attempt is already scheduled "
                        + "(send it now with ?now=true, `reelwork webhooks redeliver … --now`)")
                }
                try tx.query(SQL.sendNow, [delivery])
                return try WebhookRepository(tx).withAttempts(try tx.query(SQL.findDelivery, [delivery]).rows)[0]
            }
            let reset = try tx.query(SQL.resetDelivery, [delivery]).rows
            return try WebhookRepository(tx).withAttempts(reset)[0]
        }
    }

    // MARK: - Rows

    /// The deliveries of `rows`, each with its attempts (one query for all of them).
    private func withAttempts(_ rows: [PGRow]) throws -> [WebhookDeliveryRecord] {
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.string("id") }
        let attempts = Dictionary(grouping: try db.query(SQL.attempts, [Self.textArray(ids)]).rows, by: { $0["delivery_id"] ?? "" })
        return try rows.map { row in
            let id = try row.string("id")
            return WebhookDeliveryRecord(
                id: id, endpointId: try row.uuid("endpoint_id"), eventType: try Self.eventType(row), data: try Self.json(row, "data"),
                status: try Self.known(try row.string("status"), in: "webhook_deliveries.status"), nextAttemptAt: row.optionalDate("next_attempt_at"), createdAt: try row.date("created_at"),
                finishedAt: row.optionalDate("finished_at"),
                attempts: try (attempts[id] ?? []).map { a in
                    WebhookAttemptRecord(attempt: try a.int("attempt"), statusCode: a.optionalInt("status_code"),
                                         latencyMs: try a.int("latency_ms"), error: a["error"], attemptedAt: try a.date("attempted_at"))
                })
        }
    }

    static func endpoint(_ row: PGRow) throws -> WebhookEndpointRecord {
        let events: [WebhookEventType] = try parseTextArray(try row.string("events")).map { try known($0, in: "webhook_endpoints.events") }
        return WebhookEndpointRecord(id: try row.uuid("id"), club: try row.string("club"), url: try row.string("url"), events: events,
                                     createdAt: try row.date("created_at"),
                                     previousSecretExpiresAt: row.optionalDate("previous_secret_expires_at"),
                                     disabledAt: row.optionalDate("disabled_at"), disabledReason: row["disabled_reason"])
    }

    private static func eventType(_ row: PGRow) throws -> WebhookEventType {
        try known(try row.string("event_type"), in: "webhook_deliveries.event_type")
    }

    /// The value `text` names, or an error saying the column holds one this version does not know.
    private static func known<Value: RawRepresentable<String>>(_ text: String, in column: String) throws -> Value {
        guard let value = Value(rawValue: text) else {
            throw PostgresError(message: "\(column) holds '\(text)', which this version does not know")
        }
        return value
    }

    private static func json(_ row: PGRow, _ column: String) throws -> JSONValue {
        try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string(column).utf8))
    }

    private static func noEndpoint(_ id: UUID) -> ReelworkError {
        .notFound("no webhook endpoint has id \(id.uuidString.lowercased())")
    }

    /// A PostgreSQL array literal of texts that need no quoting (event names, delivery ids).
    static func textArray(_ items: [String]) -> String {
        "{" + items.map { "\"\($0)\"" }.joined(separator: ",") + "}"
    }

    /// The items of an array PostgreSQL printed, for texts that need no quoting.
    static func parseTextArray(_ text: String) throws -> [String] {
        guard text.hasPrefix("{"), text.hasSuffix("}") else { throw PostgresError(message: "not an array: \(text)") }
        let inner = text.dropFirst().dropLast()
        return inner.isEmpty ? [] : inner.split(separator: ",").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }
}
