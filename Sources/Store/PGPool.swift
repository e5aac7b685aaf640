import Foundation
import ReelworkCore
import Threading

/// A fixed-size pool of PostgreSQL connections, each owned by a dedicated thread.
///
/// libpq calls block, so they never run on Swift's cooperative threads: `withConnection`
/// queues its body and suspends; one of the pool's `size` threads runs it on that thread's
/// connection and resumes the caller. At most `size` bodies run at once; other callers wait,
/// in order, without occupying a thread.
///
/// Connections open lazily, on a thread's first job. A connection the server closed, or one
/// a body's call found broken, is dropped and a fresh one is opened for the next job; the
/// job that hit the failure gets the error (kind `.transient`), so retrying it succeeds once
/// the server is back.
public final class PGPool: Sendable {
    private let pool: BlockingPool<PGConnection>

    /// Starts `size` threads; no connection is opened until work arrives.
    public init(conninfo: String, size: Int = 4) {
        precondition(size >= 1, "a PGPool needs at least one connection")
        pool = BlockingPool(label: "reelwork-pg", size: size, open: { try PGConnection(conninfo) },
                            isUsable: { $0.checkAlive() }, keep: PGPool.reusable,
                            closedError: PostgresError(message: "the PostgreSQL connection pool is closed"))
    }

    /// Runs `body` with a connection on one of the pool's threads and returns its result.
    ///
    /// The connection is the caller's alone for the duration of `body`; do not keep it beyond.
    /// Session settings a body changes (SET ...) stay with the connection for later callers.
    /// A transaction left open by `body` is rolled back before the connection is reused.
    /// Cancelling the task removes the work if it has not started; a started body runs to
    /// completion.
    /// - Throws: whatever `body` throws; `PostgresError` (kind `.transient`) if no connection
    ///   could be opened; `CancellationError` if cancelled before starting; a `PostgresError`
    ///   if the pool is closed.
    public func withConnection<T: Sendable>(_ body: @escaping (PGConnection) throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    /// Bodies waiting for a free connection (queued, not started).
    public var waitingCount: Int { pool.waitingCount }

    /// Refuses new work and fails queued work with an error. Bodies already running finish;
    /// each thread then closes its connection and exits. Safe to call more than once.
    public func close() {
        pool.close()
    }

    /// Whether a connection can be handed to the next job.
    private static func reusable(_ connection: PGConnection, after error: (any Error)?) -> Bool {
        if let error = error as? PostgresError, error.meansConnectionLost { return false }
        guard connection.isHealthy else { return false }
        if !connection.isIdle {
            // A body that left a transaction open must not leak it into the next caller's work.
            try? connection.execute("ROLLBACK")
        }
        return connection.isHealthy && connection.isIdle
    }
}
