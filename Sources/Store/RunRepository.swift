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
    /// The batch the job belongs to, if any (live events carry it).
    public var batchId: UUID? = nil
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
        // One statement (atomic on its own): start the attempt, record it, and close what an earlier
        // lost run left open. Fewer round trips per job is most of the queue's throughput. A first
        // attempt starts only from attempt 0, so no earlier run can have left anything open: it
        // skips that part, which is a third of the statement's cost.
        let closeEarlierRuns = attempt <= 1 ? "" : """
            , lost AS (
                UPDATE job_attempts SET outcome = 'lost', finished_at = now(), error = 'the run stopped reporting'
                WHERE job_id = $1 AND attempt < $2 AND outcome IS NULL AND EXISTS (SELECT 1 FROM started)
            ), interrupted AS (
                UPDATE job_stages SET status = 'failed', error = 'run interrupted', error_kind = 'stalled',
                       finished_at = COALESCE(finished_at, now())
                WHERE job_id = $1 AND attempt < $2 AND status IN ('pending', 'running') AND EXISTS (SELECT 1 FROM started)
            )
            """
        let started = try db.query("""
            WITH started AS (
                UPDATE jobs j SET status = 'running', attempt = $2, worker_id = $3, started_at = now(), heartbeat_at = now(),
                                  updated_at = now(), finished_at = NULL, next_attempt_at = NULL
                FROM videos v
                WHERE j.id = $1 AND v.id = j.video_id AND j.attempt < $2 AND NOT j.cancel_requested
                  AND j.status IN \(JobStatus.sqlList(JobStatus.open))
                RETURNING j.max_attempts, j.failures, j.club, j.sport, j.options, j.video_id, v.storage_key, j.batch_id
            ), recorded AS (
                INSERT INTO job_attempts (job_id, attempt, worker_id) SELECT $1, $2, $3 FROM started ON CONFLICT DO NOTHING
            )\(closeEarlierRuns)
            SELECT * FROM started
            """, [jobId, attempt, worker])
        guard let row = started.rows.first else { return try whyNotStarted(jobId: jobId) }
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("options").utf8))
        return .started(ClaimedRun(jobId: jobId, attempt: attempt, maxAttempts: try row.int("max_attempts"),
                                   failures: try row.int("failures"), club: try row.string("club"),
                                   sport: try Sport.parse(try row.string("sport")), options: options,
                                   videoId: try row.uuid("video_id"), storageKey: try row.string("storage_key"),
                                   batchId: row.optionalUUID("batch_id")))
    }

    private func whyNotStarted(jobId: UUID) throws -> StartResult {
        guard let row = try db.query("SELECT id, club, priority, attempt, \(JobRepository.dueInColumn), status, cancel_requested FROM jobs WHERE id = $1",
                                     [jobId]).rows.first else {
            return .gone
        }
        let status = JobStatus(rawValue: try row.string("status")) ?? .failed
        if status.isTerminal { return .finished(status) }
        if try row.bool("cancel_requested") {
            // Cancelled while its last run was lost: nobody else will record it (nor its webhooks).
            let cancelled = try db.query("""
                WITH changed AS (
                    UPDATE jobs SET status = 'cancelled', finished_at = now(), updated_at = now(),
                                    last_error = 'cancelled by ' || coalesce(cancelled_by, '\(Cancel.byOperator)'), last_error_kind = NULL
                    WHERE id = $1 AND cancel_requested AND status NOT IN \(JobStatus.sqlList(JobStatus.terminal)) RETURNING *
                )\(WebhookOutbox.jobEvents(from: "changed"))
                SELECT sport FROM changed
                """, [jobId]).rows
            for row in cancelled { FinishedJobs.count(sport: try row.string("sport"), status: .cancelled, errorKind: nil) }
            return .finished(.cancelled)
        }
        return .behind(try JobRepository.entry(row))
    }

    /// Records that the run is alive (the reconciler trusts this when Redis has lost the lease).
    public func heartbeat(_ run: ClaimedRun) throws {
        try db.query("UPDATE jobs SET heartbeat_at = now() WHERE id = $1 AND attempt = $2 AND status = 'running'",
                     [run.jobId, run.attempt])
    }

    /// Writes the result and marks the job succeeded in one statement, with `stages`, the stage
    /// events the run has not written yet (its last stage's success), and a frame count the decoder
    /// counted onto the video's record. False (nothing written) if this run no longer owns the job.
    ///
    /// Throws `.invalidInput` when the result document is larger than `maxResultBytes`, and the
    /// encoder's error for a value JSON cannot hold (a NaN): neither is stored as something else.
    @discardableResult
    public func complete(_ run: ClaimedRun, document: AnalysisDocument, facts: VideoFacts?, stages: [StageEvent] = [],
                         maxResultBytes: Int = InputLimits().maxResultBytes) throws -> Bool {
        let video = try facts.map { try JSONValue.from($0).encodedText() } ?? "{}"
        let resultText = try document.result.encodedText()
        if resultText.utf8.count > maxResultBytes {
            throw ReelworkError.invalidInput(
                "the result document is \(resultText.utf8.count) bytes, more than the limit of \(maxResultBytes) (\(InputLimits.Env.maxResultBytes)); analyse a shorter clip")
        }
        let result: [(any PGParam)?] = [run.sport.rawValue, video, try JSONValue.from(document.warnings).encodedText(), resultText]
        let hasRows = ResultTable.forSport(run.sport).map { !$0.rows(in: document.result).isEmpty } ?? false
        return try finish(run, status: .succeeded, outcome: "succeeded", error: nil, kind: nil, result: result,
                          resultHasRows: hasRows, stages: stages,
                          decodedFrames: facts?.frameCountSource == .decoded ? facts?.frameCount : nil)
    }

    /// Records a failed run: retried `retryIn` seconds from PostgreSQL's `now()` (the worker's clock
    /// stamps nothing another host compares), or failed for good when nil.
    @discardableResult
    public func fail(_ run: ClaimedRun, message: String, kind: ErrorKind, retryIn: TimeInterval?) throws -> Bool {
        try finish(run, status: retryIn == nil ? .failed : .retryScheduled, outcome: retryIn == nil ? "failed" : "retry",
                   error: message, kind: kind.rawValue, failed: true, retryIn: retryIn)
    }

    /// Gives the job back without spending its error budget (the worker is shutting down, or a
    /// service it needs is failing); `reason` goes into the attempt's history.
    @discardableResult
    public func handBack(_ run: ClaimedRun, reason: String = "worker shut down") throws -> Bool {
        try finish(run, status: .queued, outcome: "handed_back", error: reason, kind: nil)
    }

    /// Records a cancel seen by the running worker, saying who asked for it.
    @discardableResult
    public func cancelled(_ run: ClaimedRun) throws -> Bool {
        let by = try db.query("SELECT cancelled_by FROM jobs WHERE id = $1", [run.jobId]).rows.first?["cancelled_by"]
        return try finish(run, status: .cancelled, outcome: "cancelled", error: Cancel.message(by: by ?? Cancel.byOperator), kind: nil)
    }

    /// Notes in the history that this run lost its lease (its result, if any, is not written).
    public func lost(_ run: ClaimedRun) throws {
        try db.query("""
            UPDATE job_attempts SET outcome = 'lost', finished_at = now(), error = 'lease lost; another run took over'
            WHERE job_id = $1 AND attempt = $2 AND outcome IS NULL
            """, [run.jobId, run.attempt])
    }

    /// Ends the run: moves the job out of `running` at this attempt, closes the attempt's history row
    /// and, with `result` (sport, video, warnings, result), stores the result and replaces the
    /// sport's typed rows (`ResultRowsRepository`), applies `stages`, and, when the job ends,
    /// records its webhook deliveries (`WebhookOutbox`) — one statement, whose commit is durable
    /// before the caller tells Redis to forget the run. Returns false, writing nothing, if this run
    /// no longer owns the job. (Its batch's completion is announced later by a sweep, `BatchCompletion`.)
    private func finish(_ run: ClaimedRun, status: JobStatus, outcome: String, error: String?, kind: String?,
                        failed: Bool = false, retryIn: TimeInterval? = nil, result: [(any PGParam)?]? = nil,
                        resultHasRows: Bool = false, stages: [StageEvent] = [], decodedFrames: Int? = nil) throws -> Bool {
        var sql = """
            WITH owned AS (
                UPDATE jobs SET status = $3, updated_at = now(), finished_at = CASE WHEN $4 THEN now() END,
                                last_error = CASE WHEN $3 = 'succeeded' THEN NULL WHEN $6::text IS NULL AND $3 <> 'cancelled' THEN last_error ELSE $5 END,
                                last_error_kind = CASE WHEN $3 = 'succeeded' THEN NULL ELSE COALESCE($6, last_error_kind) END,
                                failures = failures + $8, next_attempt_at = now() + make_interval(secs => $9::float8)
                WHERE id = $1 AND attempt = $2 AND status = 'running'
                RETURNING \(status.isTerminal ? "*" : "id")
            ), closed AS (
                UPDATE job_attempts SET outcome = $7, finished_at = now(), error = $5, error_kind = $6,
                                        retry_at = now() + make_interval(secs => $9::float8)
                WHERE job_id = $1 AND attempt = $2 AND EXISTS (SELECT 1 FROM owned)
            )
            """
        var params: [(any PGParam)?] = [run.jobId, run.attempt, status.rawValue, status.isTerminal, error, kind, outcome,
                                        failed ? 1 : 0, retryIn]
        if let result {
            params += result
            sql += """
                , saved AS (
                    INSERT INTO results (job_id, attempt, sport, video, warnings, result)
                    SELECT $1, $2, $10, $11::jsonb, $12::jsonb, $13::jsonb FROM owned
                    ON CONFLICT (job_id) DO UPDATE SET attempt = EXCLUDED.attempt, video = EXCLUDED.video,
                        warnings = EXCLUDED.warnings, result = EXCLUDED.result, created_at = now()
                )
                """
            if let table = ResultTable.forSport(run.sport) {
                sql += ResultRowsRepository.writeCTEs(table, resultParam: "$13", ownedCTE: "owned", insert: resultHasRows)
            }
        }
        if !stages.isEmpty {
            params.append(try StageRepository.json(stages))
            sql += ", staged AS (UPDATE job_stages s SET \(StageRepository.applyEvents("$\(params.count)")) AND EXISTS (SELECT 1 FROM owned))"
        }
        if let decodedFrames {
            // The decoder's count replaces a container's estimate on the video's record, for every job of it.
            params += [decodedFrames, run.videoId]
            sql += """
                , counted AS (
                    UPDATE videos SET frame_count = $\(params.count - 1), frame_count_source = 'decoded'
                    WHERE id = $\(params.count) AND EXISTS (SELECT 1 FROM owned)
                      AND (frame_count <> $\(params.count - 1) OR frame_count_source <> 'decoded')
                )
                """
        }
        // The job's webhooks, in the same statement: recorded exactly when this write ends the job.
        if status.isTerminal { sql += WebhookOutbox.jobEvents(from: "owned") }
        // set_config(…, true) lasts until this statement's own transaction ends, and the commit
        // reads it: the one statement commits durably on a session that otherwise does not,
        // without the BEGIN / SET LOCAL / COMMIT round trips a transaction block would cost.
        sql += " SELECT (SELECT count(*) FROM owned) AS n, set_config('synchronous_commit', 'on', true) AS durable"
        let owned = try db.query(sql, params).rows[0].int("n") == 1
        if owned { FinishedJobs.count(sport: run.sport.rawValue, status: status, errorKind: kind) }
        return owned
    }
}
