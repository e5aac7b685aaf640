import Foundation
import ReelworkCore

/// `batch.completed`: recorded once each time a batch's last open job ends, in the transaction
/// that ends it (the outbox, as for the job events).
///
/// Why a lock: two jobs of one batch ending at the same moment in two transactions would each see
/// the other still open (neither has committed) and neither would announce the batch. So a write
/// that may end a batch's last open job takes the batch row's lock (`lock`) before it changes the
/// job, and looks for open jobs (`recordIfComplete`) in a later statement, whose snapshot is taken
/// after it holds the lock: of two such writes, the later waits for the earlier to commit and then
/// sees its job ended. `completed_at IS NULL` in the marking UPDATE lets only one look announce
/// each completion (a later look that ended nothing new, such as the removal of a job cancelled
/// before it ran, finds the batch announced).
///
/// A run's end, the queue's hot path, skips the lock when it can prove it is not the last: in its
/// one statement it share-locks another open job of the batch that nothing is writing
/// (`siblingCTE`, `FOR SHARE SKIP LOCKED`). That job cannot end before this statement commits,
/// and whoever ends it later sees this one ended, so this end needs to announce nothing. When
/// there is no such job (this was the last, or the others are being written right now) the
/// statement raises `maybeCompleteState` and is undone, and the run's end is made again the slow
/// way, under the lock (RunRepository.finish). So the jobs of a big batch end without queueing on
/// one row; only the last few take the lock. (Measured once, debug build: 600 run ends of one
/// batch over 8 connections to a PostgreSQL with fsync on took 0.7–0.8 s this way, as many as
/// without a batch, and 3–3.8 s when every end took the lock.)
///
/// Reopening: a write that makes a job of a batch open again (a retry, more jobs) clears
/// `completed_at` (`reopen`), so the batch is announced again when it completes again, with
/// `completion` counting up. That UPDATE names the row without a condition on `completed_at`, so
/// it waits for a completion being recorded at that moment instead of reading past it.
enum BatchCompletion {
    /// The SQLSTATE `reelwork_batch_may_be_complete()` raises (migration 0008).
    static let maybeCompleteState = "RWB01"

    /// Job statuses that are not terminal: the jobs a batch waits for.
    static let openStatuses = "('queued', 'running', 'retry_scheduled')"

    /// Locks the batch of job `jobId` until the transaction ends and returns its id; nil when the
    /// job is in no batch (or does not exist).
    @discardableResult
    static func lock(batchOfJob jobId: UUID, on db: PGConnection) throws -> UUID? {
        try db.query("SELECT b.id FROM jobs j JOIN batches b ON b.id = j.batch_id WHERE j.id = $1 FOR UPDATE OF b", [jobId])
            .rows.first.map { try $0.uuid("id") }
    }

    /// Locks the batch until the transaction ends.
    static func lock(batch: UUID, on db: PGConnection) throws {
        try db.query("SELECT id FROM batches WHERE id = $1 FOR UPDATE", [batch])
    }

    /// In a transaction that holds the batch's lock (`lock`) and has ended some of its jobs: if
    /// none is open any more and this completion is not announced yet, marks the batch completed
    /// and records `batch.completed` for the club's subscribed endpoints. Returns whether it did.
    @discardableResult
    static func recordIfComplete(_ batch: UUID, on db: PGConnection) throws -> Bool {
        guard let marked = try db.query("""
            UPDATE batches b SET completed_at = now(), completions = completions + 1
            WHERE b.id = $1 AND b.completed_at IS NULL
              AND EXISTS (SELECT 1 FROM jobs WHERE batch_id = b.id)
              AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = b.id AND status IN \(openStatuses))
            RETURNING b.completions
            """, [batch]).rows.first else { return false }
        guard let view = try BatchRepository(db).find(id: batch, club: nil) else { return false }
        let id = view.id.pgText
        let data = JSONValue.object([
            "batch": try JSONValue.from(view),
            "completion": .number(Double(try marked.int("completions"))),
            "links": .object(["batch": .string("/v1/batches/\(id)"), "jobs": .string("/v1/batches/\(id)/jobs")]),
        ])
        try WebhookRepository.enqueueEvent(type: .batchCompleted, club: view.club, data: data, on: db)
        return true
    }

    /// Marks `batches` open again (a job of theirs became open): each is announced again when it
    /// completes again. Call it in the transaction that opened the jobs.
    static func reopen(_ batches: Set<UUID>, on db: PGConnection) throws {
        guard !batches.isEmpty else { return }
        try db.query("""
            UPDATE batches SET completed_at = NULL WHERE id = ANY(string_to_array($1, ',')::uuid[])
            """, [batches.map(\.pgText).joined(separator: ",")])
    }

    /// For a run's end (one statement, whose `owned` CTE returns the ended job's row): a CTE
    /// `, sibling AS (…)` that share-locks one other open job of its batch that nothing is writing,
    /// and the select-list item that raises `maybeCompleteState` when the job is in a batch and
    /// there is no such sibling.
    static let siblingCTE = """
        , sibling AS (
            SELECT s.id FROM owned o JOIN jobs s ON s.batch_id = o.batch_id AND s.id <> o.id
            WHERE s.status IN \(openStatuses)
            LIMIT 1 FOR SHARE OF s SKIP LOCKED
        )
        """
    static let siblingCheck = """
        (SELECT reelwork_batch_may_be_complete(o.batch_id) FROM owned o
         WHERE o.batch_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sibling)) AS batch_check
        """
}
