import Foundation
import ReelworkCore

/// One change to a stage row: it started (`status` running) or it finished (succeeded, failed, skipped).
public struct StageEvent: Sendable, Equatable, Encodable {
    public var name: StageName
    public var status: StageStatus
    public var framesPlanned: Int?
    public var framesDone: Int?
    /// The failure, or why the stage was skipped.
    public var error: String?
    public var errorKind: ErrorKind?

    public static func started(_ stage: StageName, framesPlanned: Int?) -> StageEvent {
        StageEvent(name: stage, status: .running, framesPlanned: framesPlanned)
    }

    public static func finished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: String? = nil,
                                errorKind: ErrorKind? = nil) -> StageEvent {
        StageEvent(name: stage, status: status, framesDone: framesDone, error: error, errorKind: errorKind)
    }

    enum CodingKeys: String, CodingKey {
        case name, status, error
        case framesPlanned = "frames_planned", framesDone = "frames_done", errorKind = "error_kind"
    }
}

/// Writes `job_stages` rows for one run. Every write is fenced: it changes nothing unless the job is
/// still `running` at `attempt`, so a run that lost its job cannot overwrite the new owner's stages.
///
/// Writes come in as few statements as the run allows (each is a round trip and a commit, most of
/// a short job's cost): the plan goes in with its first stage already running, a list of events is
/// one statement, and `applyEvents` lets the run's last statement carry its last stage's outcome.
public struct StageRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    /// The fixed statements, named; each is fenced on run ($1 job id, $2 attempt).
    enum SQL {
        /// True while job $1 is running at attempt $2.
        static let fence = "EXISTS (SELECT 1 FROM jobs WHERE id = $1 AND attempt = $2 AND status = \(JobStatus.running.sql))"
        /// One row per stage of the JSON array of names $3, stage $4 running with $5 frames planned.
        static let plan = """
            INSERT INTO job_stages (job_id, attempt, name, position, status, started_at, frames_planned, progress)
            SELECT $1::uuid, $2::int, p.name, p.position::int - 1,
                   CASE WHEN p.name = $4 THEN \(StageStatus.running.sql) ELSE \(StageStatus.pending.sql) END,
                   CASE WHEN p.name = $4 THEN now() END,
                   CASE WHEN p.name = $4 THEN $5::int END, 0
            FROM jsonb_array_elements_text($3::jsonb) WITH ORDINALITY AS p(name, position)
            WHERE \(fence)
            ON CONFLICT (job_id, attempt, name) DO NOTHING
            """
        /// Applies the JSON array of `StageEvent`s $3.
        static let record = "UPDATE job_stages s SET \(StageRepository.applyEvents("$3")) AND \(fence)"
        /// Stage $3's progress: $4 frames done of $5 (NULL: as planned), fraction $6.
        static let progress = """
            UPDATE job_stages SET frames_done = $4, frames_planned = COALESCE($5, frames_planned), progress = $6
            WHERE job_id = $1 AND attempt = $2 AND name = $3 AND \(fence)
            """
        /// The stages not finished, skipped with reason $3.
        static let skipRemaining = """
            UPDATE job_stages SET status = \(StageStatus.skipped.sql), error = $3
            WHERE job_id = $1 AND attempt = $2 AND status IN \(StageStatus.unfinished.sql) AND \(fence)
            RETURNING name, position
            """
    }

    /// Creates one row per planned stage, so watchers see the whole plan from the start: `pending`,
    /// except `running`, which has started already.
    public func plan(jobId: UUID, attempt: Int, stages: [StageName], running: StageEvent? = nil) throws {
        try db.query(SQL.plan, [jobId, attempt, try Self.json(stages.map(\.rawValue)), running?.name.rawValue, running?.framesPlanned])
    }

    /// Applies `events` (each to a different stage) in one statement.
    public func record(jobId: UUID, attempt: Int, _ events: [StageEvent]) throws {
        guard !events.isEmpty else { return }
        try db.query(SQL.record, [jobId, attempt, try Self.json(events)])
    }

    /// The body of an UPDATE of `job_stages s` that applies the JSON array of `StageEvent`s in
    /// parameter `eventsParam` to run ($1 job id, $2 attempt); the caller appends its fence.
    /// A start resets the row (progress 0, frames planned); a finish keeps what the run reported.
    static func applyEvents(_ eventsParam: String) -> String {
        """
        status = e.status,
            started_at = CASE WHEN e.status = \(StageStatus.running.sql) THEN now() ELSE COALESCE(s.started_at, now()) END,
            finished_at = CASE WHEN e.status = \(StageStatus.running.sql) THEN NULL ELSE now() END,
            frames_planned = CASE WHEN e.status = \(StageStatus.running.sql) THEN e.frames_planned ELSE s.frames_planned END,
            progress = CASE e.status WHEN \(StageStatus.running.sql) THEN 0 WHEN \(StageStatus.succeeded.sql) THEN 1 ELSE s.progress END,
            frames_done = COALESCE(e.frames_done, s.frames_done), error = e.error, error_kind = e.error_kind
        FROM jsonb_to_recordset(\(eventsParam)::jsonb)
             AS e(name text, status text, frames_planned int, frames_done int, error text, error_kind text)
        WHERE s.job_id = $1 AND s.attempt = $2 AND s.name = e.name
        """
    }

    public func progress(jobId: UUID, attempt: Int, stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        let fraction = framesPlanned.map { $0 > 0 ? min(1, Double(framesDone) / Double($0)) : 0 } ?? 0
        try db.query(SQL.progress, [jobId, attempt, stage.rawValue, framesDone, framesPlanned, fraction])
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try ReelworkJSON.encoder.encode(value), as: UTF8.self)
    }

    /// Marks the stages this run never reached as skipped, with the reason.
    /// Returns the stages it marked, in plan order (for their live events).
    @discardableResult
    public func skipRemaining(jobId: UUID, attempt: Int, reason: String) throws -> [String] {
        try db.query(SQL.skipRemaining, [jobId, attempt, reason]).rows
            .sorted { ($0.optionalInt("position") ?? 0) < ($1.optionalInt("position") ?? 0) }
            .map { try $0.string("name") }
    }

    static func view(_ row: PGRow) throws -> StageView {
        StageView(name: try row.string("name"), attempt: try row.int("attempt"),
                  status: StageStatus(rawValue: try row.string("status")) ?? .pending,
                  progress: try row.double("progress"), framesDone: row.optionalInt("frames_done"),
                  framesPlanned: row.optionalInt("frames_planned"), startedAt: row.optionalDate("started_at"),
                  finishedAt: row.optionalDate("finished_at"), error: row["error"], errorKind: row["error_kind"])
    }
}

extension StageView {
    /// The stage as the analysis document shows it.
    public var documentStage: AnalysisDocument.Stage {
        AnalysisDocument.Stage(name: name, status: status, durationSeconds: durationSeconds, framesDone: framesDone,
                               framesPlanned: framesPlanned, reason: error)
    }
}
