import Foundation

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
public final class PGPool: @unchecked Sendable {
    private let queue = PGPoolQueue()

    /// Starts `size` threads; no connection is opened until work arrives.
    public init(conninfo: String, size: Int = 4) {
        precondition(size >= 1, "a PGPool needs at least one connection")
        for number in 1...size {
            let queue = self.queue
            // The threads hold the queue, not the pool, so dropping the pool closes it.
            let name = "reelwork-pg-\(number)"
            let thread = Thread {
                PGPool.nameCurrentThread(name)
                PGPool.serve(queue, conninfo: conninfo)
            }
            thread.start()
        }
    }

    deinit {
        close()
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
    public func withConnection<T>(_ body: @escaping (PGConnection) throws -> T) async throws -> T {
        let queue = self.queue
        let id = queue.makeID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                let job = PGPoolJob(id: id, run: { connection in
                    do {
                        continuation.resume(returning: try body(connection))
                        return nil
                    } catch {
                        continuation.resume(throwing: error)
                        return error
                    }
                }, fail: { error in
                    continuation.resume(throwing: error)
                })
                if Task.isCancelled {
                    job.fail(CancellationError())
                } else if !queue.enqueue(job) {
                    job.fail(PGPool.closedError)
                }
            }
        } onCancel: {
            queue.remove(id: id)?.fail(CancellationError())
        }
    }

    /// Refuses new work and fails queued work with an error. Bodies already running finish;
    /// each thread then closes its connection and exits. Safe to call more than once.
    public func close() {
        for job in queue.close() {
            job.fail(PGPool.closedError)
        }
    }

    private static let closedError = PostgresError(message: "the PostgreSQL connection pool is closed")

    /// Names the OS thread, so `top -H`, debuggers and crash reports show which threads are
    /// the pool's. On Linux, Foundation's `Thread.name` setter does not reach the OS thread,
    /// so the name is written where the kernel keeps it.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
        try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #else
        Thread.current.name = name
        #endif
    }

    /// A pool thread's loop: take a job, make sure the connection is usable, run the job,
    /// then judge whether the connection can serve the next one.
    private static func serve(_ queue: PGPoolQueue, conninfo: String) {
        var connection: PGConnection?
        while let job = queue.take() {
            if let current = connection, !current.checkAlive() {
                connection = nil
            }
            if connection == nil {
                do {
                    connection = try PGConnection(conninfo)
                } catch {
                    // PGConnection.init only throws connection failures, which are transient.
                    job.fail(error)
                    continue
                }
            }
            guard let current = connection else { continue }
            let error = job.run(current)
            if !reusable(current, after: error) {
                connection = nil
            }
        }
    }

    /// Whether a connection can be handed to the next job.
    private static func reusable(_ connection: PGConnection, after error: Error?) -> Bool {
        if let error = error as? PostgresError, error.meansConnectionLost { return false }
        guard connection.isHealthy else { return false }
        if !connection.isIdle {
            // A body that left a transaction open must not leak it into the next caller's work.
            try? connection.execute("ROLLBACK")
        }
        return connection.isHealthy && connection.isIdle
    }
}
