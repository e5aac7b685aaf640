import Foundation
import ReelworkCore

/// What a worker needs to run one attempt of a job.
public struct ClaimedRun: Sendable, Equatable {
    public var jobId: UUID
    /// The fencing token: every write of this run is conditional on the job still being at it.
    public var attempt: Int
    public var maxAttempts: Int
    /// Attempts of this job that already ended in an error.
    public var failures: Int
    public var club: String
    public var sport: Sport
    public var options: JSONValue
    public var videoId: UUID
    public var storageKey: String
}

/// A worker's writes for one run. Each is fenced: it changes nothing unless the job is still
/// `running` at this run's attempt, so a run that lost its lease cannot overwrite the new owner's work.
///
/// Durability: a worker's connection commits asynchronously (`useAsynchronousCommits`), so status
/// and progress writes do not each wait for a WAL flush; the writes that end a run (result, failure,
/// hand-back, cancel) commit synchronously, before Redis is told. A crash can lose only the last few
/// hundred milliseconds of status, which the next attempt or the reconciler rewrites.
public struct RunRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    /// Makes this session's commits asynchronous; outcome transactions opt back into synchronous ones.
    public static func useAsynchronousCommits(on db: PGConnection) throws {
        try db.execute("SET synchronous_commit TO off")
    }

    public enum StartResult: Equatable {
        case started(ClaimedRun)
        /// The job is finished (or cancelled) already: drop the claim.
        case finished(JobStatus)
        /// PostgreSQL is already at the claim's attempt or later (Redis lost its counter): re-enqueue `entry`.
        case behind(QueueEntry)
        /// No such job.
        case gone
    }

    /// Starts attempt `attempt` (from the claim) of a waiting job, or of a running one whose earlier
    /// run was lost; the earlier run's open attempt and stages are closed as lost.
    public func start(jobId: UUID, attempt: Int, worker: String) throws -> StartResult {
        try db.transaction { tx in
            let started = try tx.query("""
                UPDATE jobs j SET status = 'running', attempt = $2, worker_id = $3, started_at = now(), heartbeat_at = now(),
                                  updated_at = now(), finished_at = NULL, next_attempt_at = NULL
                FROM videos v
                WHERE j.id = $1 AND v.id = j.video_id AND j.attempt < $2 AND NOT j.cancel_requested
                  AND j.status IN ('queued', 'running', 'retry_scheduled')
                RETURNING j.max_attempts, j.failures, j.club, j.sport, j.options, j.video_id, v.storage_key
                """, [jobId, attempt, worker])
            guard let row = started.rows.first else { return try whyNotStarted(jobId: jobId, in: tx) }
            if attempt > 1 { try closeEarlierAttempts(jobId: jobId, before: attempt, in: tx) }
            try tx.query("INSERT INTO job_attempts (job_id, attempt, worker_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                         [jobId, attempt, worker])
            let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("options").utf8))
            return .started(ClaimedRun(jobId: jobId, attempt: attempt, maxAttempts: try row.int("max_attempts"),
                                       failures: try row.int("failures"), club: try row.string("club"),
                                       sport: try Sport.parse(try row.string("sport")), options: options,
                                       videoId: try row.uuid("video_id"), storageKey: try row.string("storage_key")))
        }
    }

    /// An earlier run that never recorded its end (lost with its worker) is closed as lost.
    private func closeEarlierAttempts(jobId: UUID, before attempt: Int, in tx: PGConnection) throws {
        try tx.query("""
            UPDATE job_attempts SET outcome = 'lost', finished_at = now(), error = 'the run stopped reporting'
            WHERE job_id = $1 AND attempt < $2 AND outcome IS NULL
            """, [jobId, attempt])
        try tx.query("""
            UPDATE job_stages SET status = 'failed', error = 'run interrupted', error_kind = 'stalled',
                   finished_at = COALESCE(finished_at, now())
            WHERE job_id = $1 AND attempt < $2 AND status IN ('pending', 'running')
            """, [jobId, attempt])
    }

    private func whyNotStarted(jobId: UUID, in tx: PGConnection) throws -> StartResult {
        guard let row = try tx.query("SELECT id, club, priority, attempt, next_attempt_at, status, cancel_requested FROM jobs WHERE id = $1",
                                     [jobId]).rows.first else {
            return .gone
        }
        let status = JobStatus(rawValue: try row.string("status")) ?? .failed
        if status.isTerminal { return .finished(status) }
        if try row.bool("cancel_requested") {
            // Cancelled while its last run was lost: nobody else will record it.
            try tx.query("UPDATE jobs SET status = 'cancelled', finished_at = now(), updated_at = now() WHERE id = $1", [jobId])
            return .finished(.cancelled)
        }
        return .behind(try JobRepository.entry(row))
    }

    /// Records that the run is alive (the reconciler trusts this when Redis has lost the lease).
    public func heartbeat(_ run: ClaimedRun) throws {
        try db.query("UPDATE jobs SET heartbeat_at = now() WHERE id = $1 AND attempt = $2 AND status = 'running'",
                     [run.jobId, run.attempt])
    }

    /// Writes the result and marks the job succeeded in one transaction. False (nothing written) if
    /// this run no longer owns the job.
    @discardableResult
    public func complete(_ run: ClaimedRun, document: AnalysisDocument, facts: VideoFacts?) throws -> Bool {
        try db.transaction { tx in
            guard try finish(run, status: .succeeded, outcome: "succeeded", error: nil, kind: nil, in: tx) else { return false }
            try tx.query("""
                INSERT INTO results (job_id, attempt, sport, video, warnings, result)
                VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb)
                ON CONFLICT (job_id) DO UPDATE SET attempt = EXCLUDED.attempt, video = EXCLUDED.video,
                    warnings = EXCLUDED.warnings, result = EXCLUDED.result, created_at = now()
                """, [run.jobId, run.attempt, run.sport.rawValue, try facts.map { try JSONValue.from($0) }.map { $0.jsonString() } ?? "{}",
                      try JSONValue.from(document.warnings).jsonString(), document.result.jsonString()])
            return true
        }
    }

    /// Records a failed run: scheduled for `retryAt`, or failed for good when nil.
    @discardableResult
    public func fail(_ run: ClaimedRun, message: String, kind: ErrorKind, retryAt: Date?) throws -> Bool {
        try db.transaction { tx in
            guard try finish(run, status: retryAt == nil ? .failed : .retryScheduled, outcome: retryAt == nil ? "failed" : "retry",
                             error: message, kind: kind.rawValue, in: tx) else { return false }
            try tx.query("UPDATE jobs SET failures = failures + 1, next_attempt_at = $2 WHERE id = $1", [run.jobId, retryAt])
            return true
        }
    }

    /// Gives the job back without spending its error budget (the worker is shutting down).
    @discardableResult
    public func handBack(_ run: ClaimedRun) throws -> Bool {
        try db.transaction { tx in
            try finish(run, status: .queued, outcome: "handed_back", error: "worker shut down", kind: nil, in: tx)
        }
    }

    /// Records an operator's cancel, seen by the running worker.
    @discardableResult
    public func cancelled(_ run: ClaimedRun) throws -> Bool {
        try db.transaction { tx in
            try finish(run, status: .cancelled, outcome: "cancelled", error: "cancelled by an operator", kind: nil, in: tx)
        }
    }

    /// Notes in the history that this run lost its lease (its result, if any, is not written).
    public func lost(_ run: ClaimedRun) throws {
        try db.query("""
            UPDATE job_attempts SET outcome = 'lost', finished_at = now(), error = 'lease lost; another run took over'
            WHERE job_id = $1 AND attempt = $2 AND outcome IS NULL
            """, [run.jobId, run.attempt])
    }

    /// Moves the job out of `running` at this attempt and closes the attempt's history row.
    private func finish(_ run: ClaimedRun, status: JobStatus, outcome: String, error: String?, kind: String?,
                        in tx: PGConnection) throws -> Bool {
        // An outcome is durable before the caller tells Redis to forget the run.
        try tx.execute("SET LOCAL synchronous_commit TO on")
        let terminal = status.isTerminal
        let owned = try tx.query("""
            UPDATE jobs SET status = $3, updated_at = now(), finished_at = CASE WHEN $4 THEN now() END,
                            last_error = COALESCE($5, CASE WHEN $3 = 'succeeded' THEN NULL ELSE last_error END),
                            last_error_kind = COALESCE($6, CASE WHEN $3 = 'succeeded' THEN NULL ELSE last_error_kind END)
            WHERE id = $1 AND attempt = $2 AND status = 'running'
            """, [run.jobId, run.attempt, status.rawValue, terminal, kind == nil ? nil : error, kind])
        guard owned.affectedRows == 1 else { return false }
        try tx.query("""
            UPDATE job_attempts SET outcome = $3, finished_at = now(), error = $4, error_kind = $5
            WHERE job_id = $1 AND attempt = $2
            """, [run.jobId, run.attempt, outcome, error, kind])
        return true
    }
}
