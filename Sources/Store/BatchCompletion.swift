import Foundation
import ReelworkCore

/// `batch.completed`: a sweep (`sweep`, run by every coordinator's webhook dispatcher before each
/// round) marks each batch whose jobs have all ended and records the announcement (the outbox, as
/// for the job events), in one transaction.
///
/// Why a sweep and not the write that ends the last job: two jobs of one batch ending at the same
/// moment in two transactions each see the other still open, so a write that wants to know whether
/// it was the last must first take a lock on the batch, and every job's end would queue on that
/// one row (or, to avoid it, search the batch for a sibling it could prove still open: work per end
/// that grows with the batch). The sweep costs the queue's hot path nothing; an announcement comes
/// up to one dispatcher interval after the last job's end, after that job's own events.
///
/// Exactly once per completion: the sweep locks each candidate row (`FOR UPDATE SKIP LOCKED`, so
/// sweepers in several coordinators never wait for each other or announce one batch twice), and
/// only then, in a later statement whose snapshot is taken under those locks, marks those that are
/// still unannounced with no open job. A write that opens one of a batch's jobs again (a retry,
/// more jobs) clears `completed_at` in its transaction (`reopen`), which needs the same row lock:
/// either it committed before the sweep's second statement (which then sees the open job), or it
/// waits for the sweep to commit and then clears the mark, and the batch is announced again when it
/// completes again, with `completions` one higher. (A single statement could not do this: its
/// snapshot is taken before it waits for a lock, so it could mark a batch whose job a retry had
/// just opened.)
public enum BatchCompletion {
    /// Job statuses that are not terminal: the jobs a batch waits for.
    static let openStatuses = JobStatus.open.sql

    /// Batches announced by one sweep at most; a sweep that reaches it is followed by another at once.
    public static let sweepLimit = 100

    /// Marks completed every batch (up to `limit`) that has jobs, none of them open, and is not
    /// announced yet, and records `batch.completed` for each club's subscribed endpoints. Returns
    /// how many it announced.
    @discardableResult
    public static func sweep(limit: Int = sweepLimit, on db: PGConnection) throws -> Int {
        try db.transaction { tx in
            let candidates = try tx.query("""
                SELECT b.id FROM batches b
                WHERE b.completed_at IS NULL
                  AND EXISTS (SELECT 1 FROM jobs WHERE batch_id = b.id)
                  AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = b.id AND status IN \(openStatuses))
                LIMIT $1 FOR UPDATE SKIP LOCKED
                """, [limit]).rows.map { try $0.uuid("id").pgText }
            guard !candidates.isEmpty else { return 0 }
            let marked = try tx.query("""
                UPDATE batches b SET completed_at = now(), completions = completions + 1
                WHERE b.id = ANY(string_to_array($1, ',')::uuid[]) AND b.completed_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM jobs WHERE batch_id = b.id AND status IN \(openStatuses))
                RETURNING b.id, b.completions
                """, [candidates.joined(separator: ",")]).rows
            let batches = BatchRepository(tx)
            for row in marked {
                guard let view = try batches.find(id: try row.uuid("id"), club: nil) else { continue }
                try announce(view, completion: try row.int("completions"), on: tx)
            }
            return marked.count
        }
    }

    private static func announce(_ batch: BatchView, completion: Int, on db: PGConnection) throws {
        let id = batch.id.pgText
        let data = JSONValue.object([
            "batch": try JSONValue.from(batch),
            "completion": .number(Double(completion)),
            "links": .object(["batch": .string("/v1/batches/\(id)"), "jobs": .string("/v1/batches/\(id)/jobs")]),
        ])
        try WebhookRepository.enqueueEvent(type: .batchCompleted, club: batch.club, data: data, on: db)
    }

    /// Marks `batches` open again (a job of theirs became open): each is announced again when it
    /// completes again. Call it in the transaction that opened the jobs. The UPDATE names the rows
    /// without a condition on `completed_at`, so it waits for a sweep holding them instead of
    /// reading past it.
    static func reopen(_ batches: Set<UUID>, on db: PGConnection) throws {
        guard !batches.isEmpty else { return }
        // In id order, so two writers reopening overlapping sets cannot deadlock.
        try db.query("""
            UPDATE batches SET completed_at = NULL
            WHERE id IN (SELECT id FROM batches WHERE id = ANY(string_to_array($1, ',')::uuid[]) ORDER BY id FOR UPDATE)
            """, [batches.map(\.pgText).joined(separator: ",")])
    }
}
