import Foundation
import ReelworkCore

/// Filters for listing jobs; nil means any.
public struct JobFilter: Sendable {
    public var status: JobStatus?
    public var sport: Sport?
    public var club: String?

    public init(status: JobStatus? = nil, sport: Sport? = nil, club: String? = nil) {
        self.status = status
        self.sport = sport
        self.club = club
    }
}

/// What a worker needs to run one attempt of a job.
public struct ClaimedRun: Sendable, Equatable {
    public var jobId: UUID
    public var attempt: Int
    public var maxAttempts: Int
    public var sport: Sport
    public var options: JSONValue
    public var videoId: UUID
    public var storageKey: String
}

/// Reads and writes `jobs` and `results`. Every write a worker makes during a run is conditional on
/// the job still being `running` at that attempt, so a run that lost its job cannot change it.
public struct JobRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    // MARK: coordinator side

    public func create(videoId: UUID, club: String, sport: Sport, options: JSONValue, maxAttempts: Int) throws -> JobView {
        let row = try db.query("""
            INSERT INTO jobs (id, video_id, club, sport, options, status, max_attempts)
            VALUES ($1, $2, $3, $4, $5::jsonb, 'queued', $6) RETURNING *
            """, [UUID(), videoId, club, sport.rawValue, options.jsonString(), maxAttempts]).rows[0]
        return try Self.view(row, stages: [])
    }

    /// Removes a job that never reached the queue (its enqueue failed), so no half-created job remains.
    public func deleteUnstarted(id: UUID) throws {
        try db.query("DELETE FROM jobs WHERE id = $1 AND attempt = 0", [id])
    }

    /// The job with every attempt's stages, or nil.
    public func find(id: UUID) throws -> JobView? {
        guard let row = try db.query("SELECT * FROM jobs WHERE id = $1", [id]).rows.first else { return nil }
        let stages = try db.query("SELECT * FROM job_stages WHERE job_id = $1 ORDER BY attempt, position", [id]).rows
            .map(StageRepository.view)
        return try Self.view(row, stages: stages)
    }

    /// A page of jobs, newest first. `cursor` is the id of the last job of the previous page.
    public func list(_ filter: JobFilter, limit: Int, cursor: UUID?) throws -> JobPage {
        var conditions: [String] = []
        var params: [(any PGParam)?] = []
        func add(_ sql: String, _ value: any PGParam) {
            params.append(value)
            conditions.append(sql.replacingOccurrences(of: "?", with: "$\(params.count)"))
        }
        if let s = filter.status { add("status = ?", s.rawValue) }
        if let s = filter.sport { add("sport = ?", s.rawValue) }
        if let c = filter.club { add("club = ?", c) }
        if let cursor { add("(created_at, id) < (SELECT created_at, id FROM jobs WHERE id = ?)", cursor) }
        params.append(limit + 1)
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try db.query("SELECT * FROM jobs \(whereClause) ORDER BY created_at DESC, id DESC LIMIT $\(params.count)",
                                params).rows
        let jobs = try rows.prefix(limit).map { try Self.view($0, stages: []) }
        return JobPage(jobs: jobs, nextCursor: rows.count > limit ? jobs.last?.id.uuidString.lowercased() : nil)
    }

    /// Puts a failed or cancelled job back in the queue with a fresh budget of `attempts` more runs.
    /// Returns nil if the job does not exist; throws `.conflict` if it is not failed or cancelled.
    public func requeueForRetry(id: UUID, attempts: Int) throws -> JobView? {
        let updated = try db.query("""
            UPDATE jobs SET status = 'queued', max_attempts = attempt + $2, updated_at = now(), finished_at = NULL
            WHERE id = $1 AND status IN ('failed', 'cancelled') RETURNING id
            """, [id, attempts])
        if updated.rows.isEmpty {
            guard let job = try find(id: id) else { return nil }
            throw ReelworkError.conflict("job \(id.uuidString.lowercased()) is \(job.status.rawValue); only failed or cancelled jobs can be retried")
        }
        return try find(id: id)
    }

    /// The stored analysis of a succeeded job.
    public func result(jobId: UUID) throws -> AnalysisDocument? {
        guard let row = try db.query("SELECT * FROM results WHERE job_id = $1", [jobId]).rows.first else { return nil }
        let video = try ReelworkJSON.decoder.decode(VideoFacts.self, from: Data(try row.string("video").utf8))
        let warnings = try ReelworkJSON.decoder.decode([Warning].self, from: Data(try row.string("warnings").utf8))
        let result = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("result").utf8))
        let stages = try db.query("""
            SELECT * FROM job_stages WHERE job_id = $1 AND attempt = $2 ORDER BY position
            """, [jobId, try row.int("attempt")]).rows.map(StageRepository.view)
        return AnalysisDocument(video: .init(video), stages: stages.map(\.documentStage), warnings: warnings, result: result)
    }

    // MARK: worker side

    /// Starts the next attempt of a queued job: bumps `attempt` (the run's fencing token) and marks it
    /// running. A job still `running` under this same worker slot is a run the slot lost track of
    /// (its connection failed mid-run) and is started again too. Returns nil otherwise (cancelled,
    /// already done, or claimed twice).
    public func startAttempt(id: UUID, worker: String) throws -> ClaimedRun? {
        try db.transaction { tx in try startAttempt(id: id, worker: worker, in: tx) }
    }

    private func startAttempt(id: UUID, worker: String, in tx: PGConnection) throws -> ClaimedRun? {
        guard let row = try tx.query("""
            UPDATE jobs j SET status = 'running', attempt = attempt + 1, worker_id = $2, started_at = now(),
                              updated_at = now(), finished_at = NULL
            FROM videos v
            WHERE j.id = $1 AND v.id = j.video_id
              AND (j.status = 'queued' OR (j.status = 'running' AND j.worker_id = $2))
            RETURNING j.attempt, j.max_attempts, j.sport, j.options, j.video_id, v.storage_key
            """, [id, worker]).rows.first else { return nil }
        // Earlier attempts' unfinished stages will never finish: say so in the history.
        try tx.query("""
            UPDATE job_stages SET status = 'failed', error = 'run interrupted', error_kind = 'transient',
                   finished_at = COALESCE(finished_at, now())
            WHERE job_id = $1 AND attempt < $2 AND status IN ('pending', 'running')
            """, [id, try row.int("attempt")])
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("options").utf8))
        return ClaimedRun(jobId: id, attempt: try row.int("attempt"), maxAttempts: try row.int("max_attempts"),
                          sport: try Sport.parse(try row.string("sport")), options: options,
                          videoId: try row.uuid("video_id"), storageKey: try row.string("storage_key"))
    }

    /// Writes the result and marks the job succeeded in one transaction, only if this run still owns
    /// the job. Returns false (writing nothing) if it does not.
    @discardableResult
    public func complete(_ run: ClaimedRun, document: AnalysisDocument, facts: VideoFacts) throws -> Bool {
        try db.transaction { tx in
            let owned = try tx.query("""
                UPDATE jobs SET status = 'succeeded', finished_at = now(), updated_at = now(),
                                last_error = NULL, last_error_kind = NULL
                WHERE id = $1 AND attempt = $2 AND status = 'running'
                """, [run.jobId, run.attempt])
            guard owned.affectedRows == 1 else { return false }
            try tx.query("""
                INSERT INTO results (job_id, attempt, sport, video, warnings, result)
                VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb)
                ON CONFLICT (job_id) DO UPDATE SET attempt = EXCLUDED.attempt, video = EXCLUDED.video,
                    warnings = EXCLUDED.warnings, result = EXCLUDED.result, created_at = now()
                """, [run.jobId, run.attempt, run.sport.rawValue, try JSONValue.from(facts).jsonString(),
                      try JSONValue.from(document.warnings).jsonString(), document.result.jsonString()])
            return true
        }
    }

    /// Records a failed run. With `retry` the job goes back to `queued` for another attempt (the caller
    /// re-enqueues it); otherwise it ends `failed`. Returns false if this run no longer owns the job.
    @discardableResult
    public func fail(_ run: ClaimedRun, message: String, kind: ErrorKind, retry: Bool) throws -> Bool {
        try db.query("""
            UPDATE jobs SET status = $3, last_error = $4, last_error_kind = $5, updated_at = now(),
                            finished_at = CASE WHEN $3 = 'failed' THEN now() END
            WHERE id = $1 AND attempt = $2 AND status = 'running'
            """, [run.jobId, run.attempt, retry ? JobStatus.queued.rawValue : JobStatus.failed.rawValue,
                  message, kind.rawValue]).affectedRows == 1
    }

    /// Gives a job back to the queue without spending an attempt's error budget (worker shutting down).
    @discardableResult
    public func handBack(_ run: ClaimedRun) throws -> Bool {
        try db.query("""
            UPDATE jobs SET status = 'queued', updated_at = now()
            WHERE id = $1 AND attempt = $2 AND status = 'running'
            """, [run.jobId, run.attempt]).affectedRows == 1
    }

    static func view(_ row: PGRow, stages: [StageView]) throws -> JobView {
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("options").utf8))
        guard let status = JobStatus(rawValue: try row.string("status")) else {
            throw ReelworkError.invalidInput("unknown job status \(row["status"] ?? "NULL")")
        }
        return JobView(id: try row.uuid("id"), videoId: try row.uuid("video_id"), club: try row.string("club"),
                       sport: try row.string("sport"), options: options, status: status, attempt: try row.int("attempt"),
                       maxAttempts: try row.int("max_attempts"), workerId: row["worker_id"],
                       createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
                       startedAt: row.optionalDate("started_at"), finishedAt: row.optionalDate("finished_at"),
                       lastError: row["last_error"], lastErrorKind: row["last_error_kind"], stages: stages)
    }
}
