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
    /// The sport as the job's row names it: the store links no sport module, so the worker checks
    /// it against its registry (`JobRunner`) before running anything.
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
        // One statement (atomic on its own): fewer round trips per job is most of the queue's throughput.
        let started = try db.query(attempt <= 1 ? SQL.startFirstAttempt : SQL.startLaterAttempt, [jobId, attempt, worker])
        guard let row = started.rows.first else { return try whyNotStarted(jobId: jobId) }
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("options").utf8))
        return .started(ClaimedRun(jobId: jobId, attempt: attempt, maxAttempts: try row.int("max_attempts"),
                                   failures: try row.int("failures"), club: try row.string("club"),
                                   sport: Sport(rawValue: try row.string("sport")), options: options,
                                   videoId: try row.uuid("video_id"), storageKey: try row.string("storage_key"),
                                   batchId: row.optionalUUID("batch_id")))
    }

    private func whyNotStarted(jobId: UUID) throws -> StartResult {
        guard let row = try db.query(SQL.whyNotStarted, [jobId]).rows.first else { return .gone }
        let status = JobStatus(rawValue: try row.string("status")) ?? .failed
        if status.isTerminal { return .finished(status) }
        if try row.bool("cancel_requested") {
            // Cancelled while its last run was lost: nobody else will record it (nor its webhooks).
            let cancelled = try db.query(SQL.cancelLostRun, [jobId]).rows
            for row in cancelled { FinishedJobs.count(sport: try row.string("sport"), status: .cancelled, errorKind: nil) }
            return .finished(.cancelled)
        }
        return .behind(try JobRepository.entry(row))
    }

    /// Records that the run is alive (the reconciler trusts this when Redis has lost the lease).
    public func heartbeat(_ run: ClaimedRun) throws {
        try db.query(SQL.heartbeat, [run.jobId, run.attempt])
    }

    /// Writes the result and marks the job succeeded in one statement, with `stages`, the stage
    /// events the run has not written yet (its last stage's success), and a frame count the decoder
    /// counted onto the video's record. False (nothing written) if this run no longer owns the job.
    /// `table` is the run's sport's typed rows (`SportRegistry.table(for:)`; nil for a sport without
    /// any): its rows in the result replace older attempts' in the same statement. The store links
    /// no sport, so the caller names it; a wrong or missing one would lose the rows.
    ///
    /// Throws `.invalidInput` when the result document is larger than `maxResultBytes`, and the
    /// encoder's error for a value JSON cannot hold (a NaN): neither is stored as something else.
    @discardableResult
    public func complete(_ run: ClaimedRun, document: AnalysisDocument, table: ResultTable?, facts: VideoFacts?, stages: [StageEvent] = [],
                         maxResultBytes: Int = InputLimits().maxResultBytes) throws -> Bool {
        let video = try facts.map { try JSONValue.from($0).encodedText() } ?? "{}"
        let resultText = try document.result.encodedText()
        if resultText.utf8.count > maxResultBytes {
            throw ReelworkError.invalidInput(
                "the result document is \(resultText.utf8.count) bytes, more than the limit of \(maxResultBytes) (\(InputLimits.Env.maxResultBytes)); analyse a shorter clip")
        }
        let result: [(any PGParam)?] = [run.sport.rawValue, video, try JSONValue.from(document.warnings).encodedText(), resultText]
        let hasRows = table.map { !$0.rows(in: document.result).isEmpty } ?? false
        return try finish(run, status: .succeeded, outcome: .succeeded, error: nil, kind: nil, result: result,
                          table: table, resultHasRows: hasRows, stages: stages,
                          decodedFrames: facts?.frameCountSource == .decoded ? facts?.frameCount : nil)
    }

    /// Records a failed run: retried `retryIn` seconds from PostgreSQL's `now()` (the worker's clock
    /// stamps nothing another host compares), or failed for good when nil.
    @discardableResult
    public func fail(_ run: ClaimedRun, message: String, kind: ErrorKind, retryIn: TimeInterval?) throws -> Bool {
        try finish(run, status: retryIn == nil ? .failed : .retryScheduled, outcome: retryIn == nil ? .failed : .retry,
                   error: message, kind: kind.rawValue, failed: true, retryIn: retryIn)
    }

    /// Gives the job back without spending its error budget (the worker is shutting down, or a
    /// service it needs is failing); `reason` goes into the attempt's history.
    @discardableResult
    public func handBack(_ run: ClaimedRun, reason: String = "worker shut down") throws -> Bool {
        try finish(run, status: .queued, outcome: .handedBack, error: reason, kind: nil)
    }

    /// Records a cancel seen by the running worker, saying who asked for it.
    @discardableResult
    public func cancelled(_ run: ClaimedRun) throws -> Bool {
        let by = try db.query(SQL.cancelledBy, [run.jobId]).rows.first?["cancelled_by"]
        return try finish(run, status: .cancelled, outcome: .cancelled, error: Cancel.message(by: by ?? Cancel.byOperator), kind: nil)
    }

    /// Notes in the history that this run lost its lease (its result, if any, is not written).
    public func lost(_ run: ClaimedRun) throws {
        try db.query(SQL.markLost, [run.jobId, run.attempt])
    }

    /// Ends the run: moves the job out of `running` at this attempt, closes the attempt's history row
    /// and, with `result` (sport, video, warnings, result), stores the result and replaces the
    /// sport's typed rows in `table` (`ResultRowsRepository`), applies `stages`, and, when the job ends,
    /// records its webhook deliveries (`WebhookOutbox`) — one statement, whose commit is durable
    /// before the caller tells Redis to forget the run. Returns false, writing nothing, if this run
    /// no longer owns the job. (Its batch's completion is announced later by a sweep, `BatchCompletion`.)
    private func finish(_ run: ClaimedRun, status: JobStatus, outcome: AttemptOutcome, error: String?, kind: String?,
                        failed: Bool = false, retryIn: TimeInterval? = nil, result: [(any PGParam)?]? = nil,
                        table: ResultTable? = nil, resultHasRows: Bool = false, stages: [StageEvent] = [], decodedFrames: Int? = nil) throws -> Bool {
        var sql = SQL.finish(returningAll: status.isTerminal)
        var params: [(any PGParam)?] = [run.jobId, run.attempt, status.rawValue, status.isTerminal, error, kind, outcome.rawValue,
                                        failed ? 1 : 0, retryIn]
        if let result {
            params += result
            sql += SQL.saveResult
            if let table {
                sql += ResultRowsRepository.writeCTEs(table, resultParam: "$13", ownedCTE: "owned", insert: resultHasRows)
            }
        }
        if !stages.isEmpty {
            params.append(try StageRepository.json(stages))
            sql += ", staged AS (UPDATE job_stages s SET \(StageRepository.applyEvents("$\(params.count)")) AND EXISTS (SELECT 1 FROM owned))"
        }
        if let decodedFrames {
            params += [decodedFrames, run.videoId]
            sql += SQL.countDecodedFrames(frames: "$\(params.count - 1)", video: "$\(params.count)")
        }
        // The job's webhooks, in the same statement: recorded exactly when this write ends the job.
        if status.isTerminal { sql += WebhookOutbox.jobEvents(from: "owned") }
        sql += SQL.ownedDurably
        let owned = try db.query(sql, params).rows[0].int("n") == 1
        if owned { FinishedJobs.count(sport: run.sport.rawValue, status: status, errorKind: kind) }
        return owned
    }
}
