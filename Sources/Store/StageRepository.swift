import Foundation
import ReelworkCore

/// Writes `job_stages` rows for one run. Every write is fenced: it changes nothing unless the job is
/// still `running` at `attempt`, so a run that lost its job cannot overwrite the new owner's stages.
public struct StageRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    private static let fence = "EXISTS (SELECT 1 FROM jobs WHERE id = $1 AND attempt = $2 AND status = 'running')"

    /// Creates one `pending` row per planned stage, so watchers see the whole plan from the start.
    public func plan(jobId: UUID, attempt: Int, stages: [StageName]) throws {
        for (position, stage) in stages.enumerated() {
            try db.query("""
                INSERT INTO job_stages (job_id, attempt, name, position, status)
                SELECT $1::uuid, $2::int, $3, $4::int, 'pending' WHERE \(Self.fence)
                ON CONFLICT (job_id, attempt, name) DO NOTHING
                """, [jobId, attempt, stage.rawValue, position])
        }
    }

    public func started(jobId: UUID, attempt: Int, stage: StageName, framesPlanned: Int?) throws {
        try db.query("""
            UPDATE job_stages SET status = 'running', started_at = now(), frames_planned = $4, progress = 0
            WHERE job_id = $1 AND attempt = $2 AND name = $3 AND \(Self.fence)
            """, [jobId, attempt, stage.rawValue, framesPlanned])
    }

    public func progress(jobId: UUID, attempt: Int, stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        let fraction = framesPlanned.map { $0 > 0 ? min(1, Double(framesDone) / Double($0)) : 0 } ?? 0
        try db.query("""
            UPDATE job_stages SET frames_done = $4, frames_planned = COALESCE($5, frames_planned), progress = $6
            WHERE job_id = $1 AND attempt = $2 AND name = $3 AND \(Self.fence)
            """, [jobId, attempt, stage.rawValue, framesDone, framesPlanned, fraction])
    }

    /// Marks a stage finished; `error` is the failure or skip reason.
    public func finished(jobId: UUID, attempt: Int, stage: StageName, status: StageStatus,
                         framesDone: Int?, error: String?, errorKind: ErrorKind?) throws {
        try db.query("""
            UPDATE job_stages SET status = $4, finished_at = now(), started_at = COALESCE(started_at, now()),
                   progress = CASE WHEN $4 = 'succeeded' THEN 1 ELSE progress END,
                   frames_done = COALESCE($5, frames_done), error = $6, error_kind = $7
            WHERE job_id = $1 AND attempt = $2 AND name = $3 AND \(Self.fence)
            """, [jobId, attempt, stage.rawValue, status.rawValue, framesDone, error, errorKind?.rawValue])
    }

    /// Marks the stages this run never reached as skipped, with the reason.
    public func skipRemaining(jobId: UUID, attempt: Int, reason: String) throws {
        try db.query("""
            UPDATE job_stages SET status = 'skipped', error = $3
            WHERE job_id = $1 AND attempt = $2 AND status IN ('pending', 'running') AND \(Self.fence)
            """, [jobId, attempt, reason])
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
