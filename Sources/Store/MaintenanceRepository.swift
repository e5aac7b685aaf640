import Foundation
import ReelworkCore

/// The reaper's and reconciler's writes.
public struct MaintenanceRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    /// Records an expired lease at `attempt`: back to `queued` (a stall), `failed` after too many
    /// stalls, or `cancelled`. Returns false if the job had moved on (a new attempt started, or it
    /// finished): then only the count is kept, `stalls` being Redis's own, and an attempt the next
    /// run closed as lost is marked stalled. Recording the same stall twice changes nothing more.
    @discardableResult
    public func recordStall(jobId: UUID, attempt: Int, stalls: Int, verdict: StallVerdict) throws -> Bool {
        let moved = try db.transaction { tx -> (status: JobStatus, kind: String?, sport: String)? in
            let status = verdict.jobStatus
            let (error, kind): (String?, String?) = verdict == .failed
                ? ("stalled \(stalls) times: the worker running it stopped renewing its lease (killed, hung or cut off)", "stalled")
                : (nil, nil)
            let updated = try tx.query(SQL.recordStall, [jobId, attempt, status.rawValue, stalls, error, kind])
            guard let sport = try updated.rows.first?.string("sport") else {
                // A late report (PostgreSQL was away when the reaper decided): the next attempt started meanwhile.
                try tx.query(SQL.keepLateStallCount, [jobId, attempt, stalls])
                try tx.query(SQL.markLostAttemptStalled, [jobId, attempt])
                return nil
            }
            try tx.query(SQL.closeStalledAttempt, [jobId, attempt])
            try tx.query(SQL.failUnfinishedStages, [jobId, attempt])
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
        try db.query(SQL.promoteDueRetries, ["{" + ids.map { $0.uuidString.lowercased() }.joined(separator: ",") + "}"])
    }

    /// Jobs PostgreSQL says should be in Redis: waiting ones not touched for `settle` seconds (so a
    /// job being created right now is left to its creator), and running ones whose heartbeat is older
    /// than `staleRun` seconds.
    public func reconcileCandidates(settle: Double, staleRun: Double, limit: Int) throws -> [(entry: QueueEntry, status: JobStatus)] {
        try db.query(SQL.reconcileCandidates, [settle, staleRun, limit]).rows.map { row in
            (try JobRepository.entry(row), JobStatus(rawValue: try row.string("status")) ?? .queued)
        }
    }

    /// A running job that nothing holds any more (its worker died while Redis lost its lease): count
    /// a stall and make it waiting again, or fail it past `maxStalls`. Returns the verdict recorded,
    /// with the entry to enqueue when it is waiting again; nil if the job had moved on.
    public func requeueAbandoned(jobId: UUID, attempt: Int, maxStalls: Int) throws -> (verdict: StallVerdict, entry: QueueEntry?)? {
        guard let row = try db.query(SQL.runningStalls, [jobId, attempt]).rows.first else { return nil }
        let stalls = try row.int("stalls") + 1
        let verdict: StallVerdict = stalls > maxStalls ? .failed : .requeued
        guard try recordStall(jobId: jobId, attempt: attempt, stalls: stalls, verdict: verdict) else { return nil }
        guard verdict == .requeued else { return (verdict, nil) }
        return (verdict, try db.query(SQL.entry, [jobId]).rows.first.map(JobRepository.entry))
    }
}
