import ReelworkCore

/// `WebhookRepository`'s statements, named, each with its parameters. (An event's deliveries are
/// inserted by `WebhookOutbox`'s statement, shared with the job writers.)
extension WebhookRepository {
    enum SQL {
        /// Serialises endpoint creation for club $1 until the transaction ends.
        static let lockEndpoints = "SELECT pg_advisory_xact_lock(hashtext('reelwork.webhook_endpoints'), hashtext($1))"
        /// Club $1's endpoints.
        static let countEndpoints = "SELECT count(*) AS n FROM webhook_endpoints WHERE club = $1"
        /// An endpoint: $1 id, $2 club, $3 URL, $4 events (a text array), $5 secret.
        static let insertEndpoint = """
            INSERT INTO webhook_endpoints (id, club, url, events, secret) VALUES ($1, $2, $3, $4::text[], $5) RETURNING *
            """
        /// A page of club $1's endpoints (NULL: every club's), newest first, after endpoint $2, $3 rows.
        static let page = """
            SELECT * FROM webhook_endpoints
            WHERE ($1::text IS NULL OR club = $1)
              AND ($2::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM webhook_endpoints WHERE id = $2 AND ($1::text IS NULL OR club = $1)))
            ORDER BY created_at DESC, id DESC LIMIT $3
            """
        /// Endpoint $1, if it is club $2's (NULL: any club's).
        static let find = "SELECT * FROM webhook_endpoints WHERE id = $1 AND ($2::text IS NULL OR club = $2)"
        /// Deletes endpoint $1 of club $2 (NULL: any club's), with its deliveries.
        static let delete = "DELETE FROM webhook_endpoints WHERE id = $1 AND ($2::text IS NULL OR club = $2)"
        /// Endpoint $1 (of club $2) signs with secret $4; the old one keeps signing for $3 seconds.
        static let rotate = """
            UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $3),
                                         secret = $4
            WHERE id = $1 AND ($2::text IS NULL OR club = $2)
            RETURNING *
            """
        /// Disables endpoint $1 (of club $2) for reason $3, keeping a first time and reason.
        static let disable = """
            UPDATE webhook_endpoints SET disabled_at = COALESCE(disabled_at, now()), disabled_reason = COALESCE(disabled_reason, $3)
            WHERE id = $1 AND ($2::text IS NULL OR club = $2)
            RETURNING *
            """
        /// Ends endpoint $1's pending deliveries that no send holds now as failed.
        static let failPending = """
            UPDATE webhook_deliveries SET status = \(WebhookDeliveryStatus.failed.sql), next_attempt_at = NULL, lease_token = NULL, finished_at = now()
            WHERE endpoint_id = $1 AND status = \(WebhookDeliveryStatus.pending.sql) AND (lease_token IS NULL OR next_attempt_at <= now())
            """
        /// Closes the due deliveries of disabled endpoints, and leases up to $1 due ones for $2 seconds.
        static let claimDue = """
            WITH stopped AS (
                SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
                WHERE d.status = \(WebhookDeliveryStatus.pending.sql) AND d.next_attempt_at <= now() AND e.disabled_at IS NOT NULL
                FOR UPDATE OF d SKIP LOCKED
            ), closed AS (
                UPDATE webhook_deliveries d SET status = \(WebhookDeliveryStatus.failed.sql), next_attempt_at = NULL, lease_token = NULL, finished_at = now()
                FROM stopped WHERE d.id = stopped.id
            ), due AS (
                SELECT d.id, e.url, e.secret,
                       CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret
                FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
                WHERE d.status = \(WebhookDeliveryStatus.pending.sql) AND d.next_attempt_at <= now() AND e.disabled_at IS NULL
                ORDER BY d.next_attempt_at LIMIT $1
                FOR UPDATE OF d SKIP LOCKED
            )
            UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => $2), lease_token = gen_random_uuid()
            FROM due WHERE d.id = due.id
            RETURNING d.*, due.url, due.secret, due.previous_secret
            """
        /// The attempt of delivery $1 under lease $2, and its next state $3 (due again in $4 seconds): $5 status code, $6 latency, $7 error, $8 time sent.
        static let record = """
            WITH leased AS (
                UPDATE webhook_deliveries SET status = $3, attempts = attempts + 1, schedule_position = schedule_position + 1,
                       next_attempt_at = CASE WHEN $3 = \(WebhookDeliveryStatus.pending.sql) THEN now() + make_interval(secs => $4) END,
                       finished_at = CASE WHEN $3 = \(WebhookDeliveryStatus.pending.sql) THEN NULL ELSE now() END, lease_token = NULL
                WHERE id = $1 AND lease_token = $2
                RETURNING id, attempts
            )
            INSERT INTO webhook_attempts (delivery_id, attempt, status_code, latency_ms, error, attempted_at)
            SELECT id, attempts, $5, $6, $7, $8 FROM leased
            """
        /// A page of endpoint $1's deliveries, newest first, after delivery $2, $3 rows.
        static let deliveries = """
            SELECT * FROM webhook_deliveries
            WHERE endpoint_id = $1
              AND ($2::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM webhook_deliveries WHERE id = $2 AND endpoint_id = $1))
            ORDER BY created_at DESC, id DESC LIMIT $3
            """
        /// Delivery $1 of endpoint $2 (of club $3) with its endpoint's state, locked.
        static let lockDelivery = """
            SELECT d.status, e.disabled_at, e.disabled_reason
            FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.id = $1 AND d.endpoint_id = $2 AND ($3::text IS NULL OR e.club = $3)
            FOR UPDATE OF d
            """
        /// Pending delivery $1 due now, unless a send holds it.
        static let sendNow = "UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1 AND lease_token IS NULL"
        /// Delivery $1.
        static let findDelivery = "SELECT * FROM webhook_deliveries WHERE id = $1"
        /// Finished delivery $1 due now, its retry schedule started afresh.
        static let resetDelivery = """
            UPDATE webhook_deliveries SET status = \(WebhookDeliveryStatus.pending.sql), next_attempt_at = now(), schedule_position = 0, finished_at = NULL,
                                          lease_token = NULL
            WHERE id = $1 RETURNING *
            """
        /// The attempts of the deliveries in the text array $1.
        static let attempts = """
            SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt
            """
    }
}
