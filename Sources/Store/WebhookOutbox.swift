import ReelworkCore

/// The SQL that records deliveries: the outbox half of guarantee 9. It runs inside the statement
/// or transaction that writes the event's own change, so a delivery exists exactly when that change
/// committed: a rolled-back or fenced write records none, a crash after the commit loses none.
///
/// One INSERT…SELECT makes a delivery for every enabled endpoint of the club subscribed to the
/// event; a club without endpoints costs one index probe.
enum WebhookOutbox {
    /// A new `webhook-id`: `msg_` and 32 hex digits of a random UUID (122 random bits).
    static let newDeliveryId = "'msg_' || replace(gen_random_uuid()::text, '-', '')"

    /// The INSERT…SELECT. `event`, `club` and `data` are SQL expressions over `source` (a FROM item,
    /// or nothing); `condition` (after AND) narrows it.
    static func insert(event: String, club: String, data: String, source: String?, condition: String = "true") -> String {
        """
        INSERT INTO webhook_deliveries (id, endpoint_id, event_type, data)
        SELECT \(newDeliveryId), e.id, \(event), \(data)
        FROM \(source.map { "\($0), " } ?? "")webhook_endpoints e
        WHERE e.club = \(club) AND e.disabled_at IS NULL AND \(event) = ANY(e.events) AND \(condition)
        """
    }

    /// A CTE (`, notified AS (…)`, to append after others) that records a `job.<status>` delivery
    /// for every row of `changed` (a CTE of `jobs` rows, `RETURNING *`) whose status is terminal.
    /// Writers put their UPDATE in `changed` with the condition that makes it a transition, so a
    /// write that changed nothing (fenced, or already terminal) notifies nobody.
    static func jobEvents(from changed: String) -> String {
        ", notified AS (" + insert(event: "'job.' || j.status", club: "j.club", data: jobData, source: "\(changed) j",
                                   condition: "j.status IN \(JobStatus.terminal.sql)") + ")"
    }

    /// Longest error text a payload carries (the job's own record has all of it).
    static let maxErrorLength = 2_000

    /// The job's summary and links, from the row `j`: the fields of the API's job view that say how
    /// it ended, ids written as the API writes them (lower case, PostgreSQL's own form). Links are paths; the dispatcher
    /// puts the public URL in front.
    static let jobData = """
        jsonb_build_object(
            'job', jsonb_build_object(
                'id', j.id::text, 'club', j.club, 'sport', j.sport, 'status', j.status,
                'videoId', j.video_id::text, 'batchId', j.batch_id::text, 'fileName', j.file_name, 'label', j.label,
                'priority', j.priority, 'attempt', j.attempt, 'maxAttempts', j.max_attempts,
                'createdAt', \(utc("j.created_at")), 'startedAt', \(utc("j.started_at")), 'finishedAt', \(utc("j.finished_at")),
                'lastError', left(j.last_error, \(maxErrorLength)), 'lastErrorKind', j.last_error_kind),
            'links', jsonb_build_object('job', '/v1/jobs/' || j.id, 'video', '/v1/videos/' || j.video_id)
                || CASE WHEN j.status = \(JobStatus.succeeded.sql) THEN jsonb_build_object('results', '/v1/jobs/' || j.id || '/results')
                        ELSE '{}'::jsonb END
                || CASE WHEN j.batch_id IS NOT NULL THEN jsonb_build_object('batch', '/v1/batches/' || j.batch_id)
                        ELSE '{}'::jsonb END)
        """

    /// RFC 3339 in UTC with milliseconds, whatever the session's time zone (NULL stays NULL).
    private static func utc(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
    }
}
