import Foundation
import ReelworkCore

/// Filters for listing jobs; nil means any.
public struct JobFilter: Sendable {
    /// Any of these statuses.
    public var status: [JobStatus]?
    public var sport: Sport?
    public var club: String?
    public var batchId: UUID?
    /// Only jobs whose id starts so (the CLI's short ids).
    public var idPrefix: IDPrefix?

    public init(status: [JobStatus]? = nil, sport: Sport? = nil, club: String? = nil, batchId: UUID? = nil, idPrefix: IDPrefix? = nil) {
        self.status = status
        self.sport = sport
        self.club = club
        self.batchId = batchId
        self.idPrefix = idPrefix
    }
}

/// A new job, as the coordinator records it.
public struct NewJob: Sendable {
    public var videoId: UUID
    public var club: String
    public var sport: Sport
    public var options: JSONValue
    public var maxAttempts: Int
    public var priority: String
    /// Same key in the same club → the same job (Idempotency-Key, or a hash of what the job computes).
    public var dedupeKey: String
    public var batchId: UUID?
    /// The client's name for the clip (a copy of the same bytes under another name keeps its own).
    public var fileName: String?
    public var label: String?

    public init(videoId: UUID, club: String, sport: Sport, options: JSONValue, maxAttempts: Int, priority: String, dedupeKey: String,
                batchId: UUID? = nil, fileName: String? = nil, label: String? = nil) {
        self.batchId = batchId
        self.fileName = fileName
        self.label = label
        self.videoId = videoId
        self.club = club
        self.sport = sport
        self.options = options
        self.maxAttempts = maxAttempts
        self.priority = priority
        self.dedupeKey = dedupeKey
    }
}

/// What a job needs to be put (back) in Redis.
public struct QueueEntry: Sendable, Equatable {
    public var jobId: UUID
    public var club: String
    public var priority: String
    public var attempt: Int
    /// Seconds until a scheduled retry is due, by PostgreSQL's clock (`dueInColumn`; zero or less:
    /// overdue); nil when the job is not waiting for a retry. A duration, not a time, so Redis
    /// (which has its own clock) schedules it from its own now.
    public var dueIn: TimeInterval?
    /// The job's batch, where the query that made the entry read it (live events carry it).
    public var batchId: UUID? = nil
}

/// Reads and writes `jobs`, `job_attempts` and `results`: the coordinator's and operators' side.
/// The worker's writes are in `RunRepository`, the maintenance services' in `MaintenanceRepository`.
public struct JobRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    /// Records a job, or returns the existing one with the same club and dedupe key (`created` false).
    /// With `maxWaiting`, a new job that would leave the club more than that many waiting jobs is
    /// not created (`ClubQuotaExceeded`); a repeat of an existing job is still answered.
    /// A new job in a completed batch opens it again (`BatchCompletion.reopen`).
    public func create(_ job: NewJob, maxWaiting: Int? = nil) throws -> (job: JobView, created: Bool) {
        guard maxWaiting != nil || job.batchId != nil else { return try insert(job) }
        return try db.transaction { db in
            let repository = JobRepository(db)
            if maxWaiting != nil { try repository.lockQuota(club: job.club) }
            let outcome = try repository.insert(job)
            if outcome.created, let maxWaiting { try repository.checkQuota(club: job.club, maxWaiting: maxWaiting, adding: 1) }
            if outcome.created, let batch = job.batchId { try BatchCompletion.reopen([batch], on: db) }
            return outcome
        }
    }

    /// Serialises quota checks of one club until the transaction ends, so two requests cannot both
    /// take the last place.
    func lockQuota(club: String) throws {
        try db.query(SQL.lockQuota, [club])
    }

    /// Throws `ClubQuotaExceeded` when the club now has more than `maxWaiting` waiting jobs
    /// (counting the `adding` just inserted, which the caller's rollback removes again).
    func checkQuota(club: String, maxWaiting: Int, adding: Int) throws {
        let waiting = try db.query(SQL.countWaiting, [club]).rows[0].int("n")
        if waiting > maxWaiting {
            throw ClubQuotaExceeded(club: club, waiting: waiting - adding, adding: adding, limit: maxWaiting)
        }
    }

    private func insert(_ job: NewJob) throws -> (job: JobView, created: Bool) {
        let inserted = try db.query(SQL.insert, [UUID(), job.videoId, job.club, job.sport.rawValue, job.options.jsonString(), job.maxAttempts,
                                                 job.priority, job.dedupeKey, job.batchId, job.fileName, job.label])
        if let row = inserted.rows.first { return (try Self.view(row), true) }
        guard let id = try db.query(SQL.findByDedupeKey, [job.club, job.dedupeKey]).rows.first,
              let existing = try find(id: try id.uuid("id")) else {
            throw ReelworkError.conflict("a job with the same key was removed while this one was created; submit again")
        }
        return (existing, false)
    }

    /// Removes a job that never reached the queue (its enqueue failed), so no half-created job
    /// remains. (Its batch, open again because of it, is announced again if every other job had
    /// ended: `BatchCompletion`.)
    public func deleteUnstarted(id: UUID) throws {
        try db.query(SQL.deleteUnstarted, [id])
    }

    /// The job with every attempt and every attempt's stages, or nil. With `club`, another club's
    /// job is nil, exactly like one that does not exist.
    ///
    /// The three reads share one snapshot, so a job that just finished is never shown with its
    /// stages or attempts from before.
    public func find(id: UUID, club: String? = nil) throws -> JobView? {
        try db.snapshot { tx in
            guard let row = try tx.query(SQL.find, [id, club]).rows.first else { return nil }
            let stages = try tx.query(SQL.stages, [id]).rows.map(StageRepository.view)
            let attempts = try tx.query(SQL.attempts, [id]).rows.map { r in
                AttemptView(attempt: try r.int("attempt"), workerId: try r.string("worker_id"), startedAt: try r.date("started_at"),
                            finishedAt: r.optionalDate("finished_at"), outcome: r["outcome"], error: r["error"], errorKind: r["error_kind"])
            }
            return try Self.view(row, attempts: attempts, stages: stages)
        }
    }

    /// A page of jobs, newest first. `cursor` is the id of the last job of the previous page.
    public func list(_ filter: JobFilter, limit: Int, cursor: UUID?) throws -> JobPage {
        var conditions: [String] = []
        var params: [(any PGParam)?] = []
        func add(_ sql: String, _ value: any PGParam) {
            params.append(value)
            conditions.append(sql.replacingOccurrences(of: "?", with: "$\(params.count)"))
        }
        if let s = filter.status { add("status = ANY(string_to_array(?, ','))", s.map(\.rawValue).joined(separator: ",")) }
        if let s = filter.sport { add("sport = ?", s.rawValue) }
        if let c = filter.club { add("club = ?", c) }
        if let b = filter.batchId { add("batch_id = ?", b) }
        if let p = filter.idPrefix {
            add("id >= ?", p.lowest)
            add("id <= ?", p.highest)
        }
        Self.addCursor(cursor, club: filter.club, alias: "", to: &conditions, &params)
        params.append(limit + 1)
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try db.query("SELECT * FROM jobs \(whereClause) ORDER BY created_at DESC, id DESC LIMIT $\(params.count)",
                                params).rows
        let jobs = try rows.prefix(limit).map { try Self.view($0) }
        return JobPage(jobs: jobs, nextCursor: rows.count > limit ? jobs.last?.id.uuidString.lowercased() : nil)
    }

    /// Continues after the job `cursor`, looked up among `club`'s jobs only (nil: every club's):
    /// another club's job is an unknown cursor, an empty page, never a way to learn where it lies in
    /// time. `alias` prefixes the listed table's columns (`j.`).
    static func addCursor(_ cursor: UUID?, club: String?, alias: String, to conditions: inout [String], _ params: inout [(any PGParam)?]) {
        guard let cursor else { return }
        params.append(cursor)
        var lookup = "SELECT created_at, id FROM jobs WHERE id = $\(params.count)"
        if let club {
            params.append(club)
            lookup += " AND club = $\(params.count)"
        }
        conditions.append("(\(alias)created_at, \(alias)id) < (\(lookup))")
    }

    /// Puts a failed or cancelled job back in the queue with a fresh error and stall budget; its
    /// batch, if it was complete, is open again (`BatchCompletion.reopen`).
    /// Returns the entry to enqueue; nil if the job does not exist (or is not `club`'s); throws
    /// `.conflict` otherwise.
    public func requeueForRetry(id: UUID, club: String? = nil, options: JSONValue? = nil) throws -> QueueEntry? {
        let updated = try db.transaction { db in
            let rows = try db.query(SQL.requeueForRetry, [id, club, options?.jsonString()]).rows
            try BatchCompletion.reopen(Set(rows.compactMap { $0.optionalUUID("batch_id") }), on: db)
            return rows
        }
        if let row = updated.first { return try Self.entry(row) }
        guard let job = try find(id: id, club: club) else { return nil }
        throw ReelworkError.conflict("job \(id.uuidString.lowercased()) is \(job.status.rawValue); only failed or cancelled jobs can be retried")
    }

    /// How many failed jobs `requeueFailed` with the same filter would queue again now (a dry run's count).
    public func countFailed(club: String?, sport: Sport?, errorKind: String?, since: Date?, until: Date?,
                            batchId: UUID? = nil) throws -> Int {
        try db.query(SQL.countFailed, [club, sport?.rawValue, errorKind, since, until, batchId]).rows[0].int("n")
    }

    /// Requeues every failed job matching the filter (fresh budgets) and opens their completed
    /// batches again; returns what to enqueue.
    public func requeueFailed(club: String?, sport: Sport?, errorKind: String?, since: Date?, until: Date?,
                              batchId: UUID? = nil) throws -> [QueueEntry] {
        try db.transaction { db in
            let rows = try db.query(SQL.requeueFailed, [club, sport?.rawValue, errorKind, since, until, batchId]).rows
            try BatchCompletion.reopen(Set(rows.compactMap { $0.optionalUUID("batch_id") }), on: db)
            return try rows.map(Self.entry)
        }
    }

    public enum CancelResult: Equatable, Sendable {
        /// It was waiting: now `cancelled`; Redis must forget it.
        case cancelled
        /// It is running: its worker stops at the next heartbeat and records `cancelled`.
        case requested
    }

    /// Cancels a job. Throws `.conflict` for a finished job; nil if there is no such job (or it
    /// is not `club`'s). A waiting job ends here, with its webhooks.
    /// `by`: who asked ("an operator", "club north"), recorded with the cancel (`Cancel`).
    public func cancel(id: UUID, club: String? = nil, by: String = Cancel.byOperator) throws -> CancelResult? {
        let ended = try db.query(SQL.cancelWaiting, [id, club, by]).rows
        if let row = ended.first {
            FinishedJobs.count(sport: try row.string("sport"), status: .cancelled, errorKind: nil)
            return .cancelled
        }
        let running = try db.query(SQL.requestCancel, [id, club, by])
        if running.affectedRows == 1 { return .requested }
        guard let job = try find(id: id, club: club) else { return nil }
        throw ReelworkError.conflict("job \(id.uuidString.lowercased()) is already \(job.status.rawValue)")
    }

    /// The stored analysis of a succeeded job.
    public func result(jobId: UUID) throws -> AnalysisDocument? {
        guard let row = try db.query(SQL.result, [jobId]).rows.first else { return nil }
        // A run without facts (the diagnostic pipeline probes nothing) stores `{}` (RunRepository.complete).
        let videoText = try row.string("video")
        let video = videoText == "{}" ? nil : try ReelworkJSON.decoder.decode(VideoFacts.self, from: Data(videoText.utf8))
        let warnings = try ReelworkJSON.decoder.decode([Warning].self, from: Data(try row.string("warnings").utf8))
        let result = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("result").utf8))
        let stages = try db.query(SQL.resultStages, [jobId, try row.int("attempt")]).rows.map(StageRepository.view)
        return AnalysisDocument(video: video.map(AnalysisDocument.Video.init), stages: stages.map(\.documentStage), warnings: warnings,
                                result: result)
    }

    /// The column `entry` reads a retry's due time from: seconds from PostgreSQL's `now()`.
    static let dueInColumn = "EXTRACT(EPOCH FROM next_attempt_at - now())::float8 AS due_in"

    static func entry(_ row: PGRow) throws -> QueueEntry {
        QueueEntry(jobId: try row.uuid("id"), club: try row.string("club"), priority: try row.string("priority"),
                   attempt: try row.int("attempt"), dueIn: row.optionalDouble("due_in"), batchId: row.optionalUUID("batch_id"))
    }

    static func view(_ row: PGRow, attempts: [AttemptView] = [], stages: [StageView] = []) throws -> JobView {
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("options").utf8))
        guard let status = JobStatus(rawValue: try row.string("status")) else {
            throw ReelworkError.invalidInput("unknown job status \(row["status"] ?? "NULL")")
        }
        return JobView(id: try row.uuid("id"), videoId: try row.uuid("video_id"), club: try row.string("club"),
                       sport: try row.string("sport"), options: options, status: status, attempt: try row.int("attempt"),
                       maxAttempts: try row.int("max_attempts"), workerId: row["worker_id"],
                       createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"),
                       startedAt: row.optionalDate("started_at"), finishedAt: row.optionalDate("finished_at"),
                       lastError: row["last_error"], lastErrorKind: row["last_error_kind"], priority: try row.string("priority"),
                       failures: try row.int("failures"), stalls: try row.int("stalls"),
                       nextAttemptAt: row.optionalDate("next_attempt_at"), cancelRequested: try row.bool("cancel_requested"),
                       batchId: row.optionalUUID("batch_id"), fileName: row["file_name"], label: row["label"], attempts: attempts, stages: stages)
    }
}
