import Foundation
import ReelworkCore

/// A batch about to be recorded.
public struct NewBatch: Sendable {
    public var club: String
    public var sport: Sport
    public var options: JSONValue
    public var label: String?
    /// The client's Idempotency-Key: the same key in the same club gives the same batch.
    public var dedupeKey: String?

    public init(club: String, sport: Sport, options: JSONValue, label: String?, dedupeKey: String?) {
        self.club = club
        self.sport = sport
        self.options = options
        self.label = label
        self.dedupeKey = dedupeKey
    }
}

/// One job a batch should hold: the video and the key that makes a repeat find the same job.
public struct BatchJobSpec: Sendable, Encodable {
    public var videoId: UUID
    public var dedupeKey: String
    /// The client's name for the clip; nil: the name its video was first uploaded under.
    public var fileName: String?

    public init(videoId: UUID, dedupeKey: String, fileName: String? = nil) {
        self.videoId = videoId
        self.dedupeKey = dedupeKey
        self.fileName = fileName
    }
}

/// Reads and writes `batches` and the jobs in them. Adding many jobs is one INSERT, whatever
/// their number.
public struct BatchRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    /// The fixed statements, named, each with its parameters. (A batch's summary is built around
    /// its source, in `summary(of:frames:)`.)
    enum SQL {
        /// A new batch of club $2 unless it has one with dedupe key $6: $1 id, $3 sport, $4 options, $5 label.
        static let insert = """
            INSERT INTO batches (id, club, sport, options, label, dedupe_key) VALUES ($1, $2, $3, $4::jsonb, $5, $6)
            ON CONFLICT (club, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
            RETURNING id
            """
        /// Club $1's batch with dedupe key $2.
        static let findByDedupeKey = "SELECT id FROM batches WHERE club = $1 AND dedupe_key = $2"
        /// Batch $1 (the summary's source `b`), if it is club $2's (NULL: any club's).
        static let whereFound = " WHERE b.id = $1 AND ($2::text IS NULL OR b.club = $2)"
        /// A page of club $1's batches (NULL: every club's), newest first, after batch $2, $3 rows,
        /// ids between $4 and $5: the summary's source.
        static let page = """
            (SELECT * FROM batches
             WHERE ($1::text IS NULL OR club = $1)
               AND ($2::uuid IS NULL OR (created_at, id) < (SELECT created_at, id FROM batches WHERE id = $2 AND ($1::text IS NULL OR club = $1)))
               AND ($4::uuid IS NULL OR id BETWEEN $4 AND $5)
             ORDER BY created_at DESC, id DESC LIMIT $3) b
            """
        static let pageOrder = " ORDER BY b.created_at DESC, b.id DESC"
        /// Club $1's videos among the comma-separated ids $2.
        static let videoHashes = "SELECT id, content_hash FROM videos WHERE club = $1 AND id = ANY(string_to_array($2, ',')::uuid[])"
        /// The jobs of batch $6 (club $1, sport $2, options $3, attempts $4, priority $5, label $8) for
        /// the specs $7 (a JSON array of `BatchJobSpec`) that have none yet.
        static let insertJobs = """
            INSERT INTO jobs (id, video_id, club, sport, options, status, max_attempts, priority, dedupe_key, batch_id, file_name, label)
            SELECT gen_random_uuid(), t."videoId", $1, $2, $3::jsonb, \(JobStatus.queued.sql), $4, $5, t."dedupeKey", $6,
                   coalesce(t."fileName", (SELECT original_name FROM videos WHERE id = t."videoId")), $8
            FROM jsonb_to_recordset($7::jsonb) AS t("videoId" uuid, "dedupeKey" text, "fileName" text)
            ON CONFLICT (club, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
            RETURNING id, club, priority, attempt, batch_id
            """
        /// Club $1's jobs with the comma-separated dedupe keys $2.
        static let jobsByDedupeKey = "SELECT id, dedupe_key FROM jobs WHERE club = $1 AND dedupe_key = ANY(string_to_array($2, ','))"
        /// Cancels batch $1's waiting jobs, cancelled by $2, with their webhook events.
        static let cancelWaiting = """
            WITH changed AS (
                UPDATE jobs SET status = \(JobStatus.cancelled.sql), finished_at = now(), updated_at = now(), next_attempt_at = NULL, \(Cancel.waitingSet("$2"))
                WHERE batch_id = $1 AND status IN \(JobStatus.waiting.sql) RETURNING *
            )\(WebhookOutbox.jobEvents(from: "changed"))
            SELECT id, sport FROM changed
            """
        /// Asks batch $1's running jobs to stop, by $2.
        static let requestCancelRunning = """
            UPDATE jobs SET cancel_requested = true, updated_at = now(), cancelled_by = $2
            WHERE batch_id = $1 AND status = \(JobStatus.running.sql) RETURNING id
            """
    }

    /// Records a batch, or returns the club's batch with the same dedupe key (`created` false).
    public func create(_ batch: NewBatch) throws -> (batch: BatchView, created: Bool) {
        let inserted = try db.query(SQL.insert, [UUID(), batch.club, batch.sport.rawValue, batch.options.jsonString(), batch.label, batch.dedupeKey]).rows
        let id: UUID
        if let row = inserted.first {
            id = try row.uuid("id")
        } else {
            guard let row = try db.query(SQL.findByDedupeKey, [batch.club, batch.dedupeKey]).rows.first else {
                throw ReelworkError.conflict("a batch with the same key vanished while this one was created; try again")
            }
            id = try row.uuid("id")
        }
        guard let view = try find(id: id, club: batch.club) else {
            throw ReelworkError.conflict("batch \(id.uuidString.lowercased()) vanished while it was created; try again")
        }
        return (view, !inserted.isEmpty)
    }

    /// The batch with its counts, if `club` may see it (nil: any club's).
    public func find(id: UUID, club: String?) throws -> BatchView? {
        try db.query(Self.summary(of: "batches b") + SQL.whereFound, [id, club]).rows.first.map(Self.view)
    }

    /// A page of batches, newest first; `cursor` is the last batch of the previous page. Without
    /// `frames` (for a page that does not show them), `framesDone` and `framesPlanned` are 0, not
    /// read: summing a batch's stages reads every stage of every one of its jobs.
    /// `idPrefix`: only batches whose id starts so (the CLI's short ids).
    public func list(club: String?, limit: Int, cursor: UUID?, idPrefix: IDPrefix? = nil, frames: Bool = true) throws -> BatchPage {
        // The page's batches are chosen first, so only they are summed.
        let rows = try db.query(Self.summary(of: SQL.page, frames: frames) + SQL.pageOrder, [club, cursor, limit + 1, idPrefix?.lowest, idPrefix?.highest]).rows
        let batches = try rows.prefix(limit).map(Self.view)
        return BatchPage(batches: batches, nextCursor: rows.count > limit ? batches.last?.id.uuidString.lowercased() : nil)
    }

    /// The club's own videos among `ids`, as id → content hash (one query).
    public func videoHashes(_ ids: [UUID], club: String) throws -> [UUID: String] {
        var found: [UUID: String] = [:]
        for row in try db.query(SQL.videoHashes, [club, ids.map(\.pgText).joined(separator: ",")]).rows {
            found[try row.uuid("id")] = try row.string("content_hash")
        }
        return found
    }

    /// Creates the batch's missing jobs in one statement, under the club's waiting-jobs quota
    /// (`ClubQuotaExceeded`, nothing created), and returns every spec's job id in order plus the
    /// queue entries of the jobs this call created. Dedupe keys must not contain commas.
    public func addJobs(to batch: BatchView, _ specs: [BatchJobSpec], maxAttempts: Int, priority: String,
                        maxWaiting: Int) throws -> (jobIds: [UUID], created: [QueueEntry]) {
        try db.transaction { db in
            let jobs = JobRepository(db)
            try jobs.lockQuota(club: batch.club)
            let keys = specs.map(\.dedupeKey).joined(separator: ",")
            // The specs travel as one JSON array: a file name may hold any character but a control one.
            let rows = String(decoding: try JSONEncoder().encode(specs), as: UTF8.self)
            let created = try db.query(SQL.insertJobs, [batch.club, batch.sport, batch.options.jsonString(), maxAttempts, priority, batch.id, rows, batch.label])
                .rows.map(JobRepository.entry)
            if !created.isEmpty {
                try jobs.checkQuota(club: batch.club, maxWaiting: maxWaiting, adding: created.count)
                // New jobs in a completed batch: it completes, and is announced, again.
                try BatchCompletion.reopen([batch.id], on: db)
            }
            var idByKey: [String: UUID] = [:]
            for row in try db.query(SQL.jobsByDedupeKey, [batch.club, keys]).rows {
                idByKey[try row.string("dedupe_key")] = try row.uuid("id")
            }
            let ids = try specs.map { spec in
                guard let id = idByKey[spec.dedupeKey] else {
                    throw ReelworkError.conflict("the job for video \(spec.videoId.uuidString.lowercased()) vanished while it was created; try again")
                }
                return id
            }
            return (ids, created)
        }
    }

    /// Cancels the batch's waiting jobs at once (with their webhooks) and asks its running ones to
    /// stop. Returns the ids of the waiting ones (Redis must forget them) and of the running ones.
    public func cancel(batchId: UUID, by: String = Cancel.byOperator) throws -> (cancelled: [UUID], requested: [UUID]) {
        let (cancelled, sports, requested) = try db.transaction { db in
            let rows = try db.query(SQL.cancelWaiting, [batchId, by]).rows
            let requested = try db.query(SQL.requestCancelRunning, [batchId, by]).rows.map { try $0.uuid("id") }
            return (try rows.map { try $0.uuid("id") }, try rows.map { try $0.string("sport") }, requested)
        }
        // Counted once the transaction has committed.
        for (sport, jobs) in Dictionary(grouping: sports, by: { $0 }) {
            FinishedJobs.count(sport: sport, status: .cancelled, errorKind: nil, jobs: jobs.count)
        }
        return (cancelled, requested)
    }

    /// Each batch row of `source` (aliased `b`) with its jobs counted by status (one pass over its
    /// jobs) and, with `frames`, its videos' frames over the current attempts (one pass over their
    /// stages). Each streamed stage of a run counts the same decoded frames (a sampled one fewer),
    /// so a job's frames are its stages' most, not their sum.
    static func summary(of source: String, frames: Bool = true) -> String {
        """
        SELECT b.*, s.counts, s.started_at, s.finished_at, f.frames_done, f.frames_planned
        FROM \(source)
        CROSS JOIN LATERAL (
            SELECT coalesce(jsonb_object_agg(st.status, st.n) FILTER (WHERE st.status IS NOT NULL), '{}'::jsonb)::text AS counts,
                   min(st.started_at) AS started_at,
                   CASE WHEN bool_and(st.status IN \(JobStatus.terminal.sql)) THEN max(st.finished_at) END AS finished_at
            FROM (SELECT status, count(*) AS n, min(started_at) AS started_at, max(finished_at) AS finished_at
                  FROM jobs WHERE batch_id = b.id GROUP BY status) st
        ) s
        CROSS JOIN LATERAL (
        """ + (frames ? """
            SELECT coalesce(sum(m.done), 0) AS frames_done, coalesce(sum(m.planned), 0) AS frames_planned
            FROM (
                -- A finished stage's last progress write may be throttled away: it did all it planned.
                SELECT max(CASE WHEN g.status = \(StageStatus.succeeded.sql) THEN coalesce(g.frames_planned, g.frames_done) ELSE g.frames_done END) AS done,
                       max(g.frames_planned) AS planned
                FROM jobs j JOIN job_stages g ON g.job_id = j.id AND g.attempt = j.attempt WHERE j.batch_id = b.id
                GROUP BY j.id
            ) m
        """ : """
            SELECT 0 AS frames_done, 0 AS frames_planned
        """) + """
        ) f
        """
    }

    static func view(_ row: PGRow) throws -> BatchView {
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("options").utf8))
        let counts = try ReelworkJSON.decoder.decode([String: Int].self, from: Data(try row.string("counts").utf8))
        return BatchView(id: try row.uuid("id"), club: try row.string("club"), sport: try row.string("sport"), options: options,
                         label: row["label"], createdAt: try row.date("created_at"), total: counts.values.reduce(0, +),
                         counts: counts, framesDone: try row.int("frames_done"), framesPlanned: try row.int("frames_planned"),
                         startedAt: row.optionalDate("started_at"), finishedAt: row.optionalDate("finished_at"))
    }
}
