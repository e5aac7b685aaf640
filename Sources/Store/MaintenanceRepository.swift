import Foundation
import ReelworkCore

/// The reaper's and reconciler's writes.
public struct MaintenanceRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    public enum StallVerdict: String, Sendable { case requeued, failed, cancelled }

    /// Records an expired lease at `attempt`: back to `queued` (a stall), `failed` after too many
    /// stalls, or `cancelled`. Returns false if the job had moved on (a new attempt started, or it
    /// finished): then only the count is kept, `stalls` being Redis's own, and an attempt the next
    /// run closed as lost is marked stalled. Recording the same stall twice changes nothing more.
    @discardableResult
    public func recordStall(jobId: UUID, attempt: Int, stalls: Int, verdict: StallVerdict) throws -> Bool {
        let moved = try db.transaction { tx -> (status: JobStatus, kind: String?, sport: String)? in
            let (status, error, kind): (JobStatus, String?, String?) = switch verdict {
            case .requeued: (.queued, nil, nil)
            case .cancelled: (.cancelled, nil, nil)
            case .failed: (.failed, "stalled \(stalls) times: the worker running it stopped renewing its lease (killed, hung or cut off)", "stalled")
            }
            // The job's webhooks are recorded in the same statement (only a terminal status has any).
            let updated = try tx.query("""
                WITH changed AS (
                    UPDATE jobs SET status = $3, stalls = GREATEST(stalls + 1, $4), updated_at = now(),
                                    finished_at = CASE WHEN $3 IN ('failed', 'cancelled') THEN now() END,
                                    last_error = COALESCE($5, last_error), last_error_kind = COALESCE($6, last_error_kind)
                    WHERE id = $1 AND attempt = $2 AND status = 'running' RETURNING *
                )\(WebhookOutbox.jobEvents(from: "changed"))
                SELECT sport FROM changed
                """, [jobId, attempt, status.rawValue, stalls, error, kind])
            guard let sport = try updated.rows.first?.string("sport") else {
                // A late report (PostgreSQL was away when the reaper decided): the next attempt started meanwhile.
                try tx.query("UPDATE jobs SET stalls = GREATEST(stalls, $3) WHERE id = $1 AND attempt > $2", [jobId, attempt, stalls])
                try tx.query("""
                    UPDATE job_attempts SET outcome = 'stalled', error = 'lease expired: the worker stopped heartbeating'
                    WHERE job_id = $1 AND attempt = $2 AND outcome = 'lost'
                    """, [jobId, attempt])
                return nil
            }
            try tx.query("""
                UPDATE job_attempts SET outcome = 'stalled', finished_at = now(), error = 'lease expired: the worker stopped heartbeating'
                WHERE job_id = $1 AND attempt = $2 AND outcome IS NULL
                """, [jobId, attempt])
            try tx.query("""
                UPDATE job_stages SET status = 'failed', error = 'worker lost', error_kind = 'stalled', finished_at = now()
                WHERE job_id = $1 AND attempt = $2 AND status IN ('pending', 'running')
                """, [jobId, attempt])
            return (status, kind, sport)
        }
        // Counted once the transaction has committed.
        guard let moved else { return false }
        FinishedJobs.count(sport: moved.sport, status: moved.status, errorKind: moved.kind)
        return true
    }

    /// Marks retries Redis moved to ready as `queued` again.
    public func promoted(_ ids: [UUID]) throws {
        guard !ids.isEmpty else { return }
        try db.query("""
            UPDATE jobs SET status = 'queued', next_attempt_at = NULL, updated_at = now()
            WHERE id = ANY($1::uuid[]) AND status = 'retry_scheduled'
            """, ["{" + ids.map { $0.uuidString.lowercased() }.joined(separator: ",") + "}"])
    }

    /// Jobs PostgreSQL says should be in Redis: waiting ones not touched for `settle` seconds (so a
    /// job being created right now is left to its creator), and running ones whose heartbeat is older
    /// than `staleRun` seconds.
    public func reconcileCandidates(settle: Double, staleRun: Double, limit: Int) throws -> [(entry: QueueEntry, status: JobStatus)] {
        try db.query("""
            SELECT id, club, priority, attempt, status, \(JobRepository.dueInColumn) FROM jobs
            WHERE (status IN \(JobStatus.sqlList(JobStatus.waiting)) AND updated_at < now() - make_interval(secs => $1))
               OR (status = 'running' AND COALESCE(heartbeat_at, started_at) < now() - make_interval(secs => $2))
            ORDER BY updated_at LIMIT $3
            """, [settle, staleRun, limit]).rows.map { row in
                (try JobRepository.entry(row), JobStatus(rawValue: try row.string("status")) ?? .queued)
            }
    }

    /// A running job that nothing holds any more (its worker died while Redis lost its lease): count
    /// a stall and make it waiting again, or fail it past `maxStalls`. Returns the verdict recorded,
    /// with the entry to enqueue when it is waiting again; nil if the job had moved on.
    public func requeueAbandoned(jobId: UUID, attempt: Int, maxStalls: Int) throws -> (verdict: StallVerdict, entry: QueueEntry?)? {
        guard let row = try db.query("SELECT stalls FROM jobs WHERE id = $1 AND attempt = $2 AND status = 'running'", [jobId, attempt]).rows.first
        else { return nil }
        let stalls = try row.int("stalls") + 1
        let verdict: StallVerdict = stalls > maxStalls ? .failed : .requeued
        guard try recordStall(jobId: jobId, attempt: attempt, stalls: stalls, verdict: verdict) else { return nil }
        guard verdict == .requeued else { return (verdict, nil) }
        return (verdict, try db.query("SELECT id, club, priority, attempt, \(JobRepository.dueInColumn) FROM jobs WHERE id = $1", [jobId]).rows.first
            .map(JobRepository.entry))
    }
}
