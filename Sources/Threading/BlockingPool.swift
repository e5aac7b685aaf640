import Foundation

/// A fixed-size pool of blocking connections (libpq, hiredis), each owned by a dedicated thread.
///
/// Blocking C calls must never run on Swift's cooperative threads (two cores here: one stuck call
/// would stall half the server), and dispatch queues cap their threads at the core count, so the pool
/// has `size` threads of its own. `withConnection` queues its body and suspends; a free thread runs
/// it on that thread's connection and resumes the caller. At most `size` bodies run at once; other
/// callers wait in order without occupying a thread.
///
/// Connections open lazily, on a thread's first job. Before each job `isUsable` may reject a
/// connection (the server closed it meanwhile), and after each job `keep` decides whether it serves
/// the next one; a rejected connection is dropped and a fresh one opened, so a restarted server costs
/// the callers that hit the failure an error, and nothing more.
public final class BlockingPool<Connection>: @unchecked Sendable {
    // Safe: holds only immutable references; each connection is confined to its pool thread.
    public typealias Open = @Sendable () throws -> Connection
    private let queue = WorkQueue<Connection>()
    private let closedError: any Error

    /// - Parameters:
    ///   - label: names the threads (`label-1` …) and the pool in errors.
    ///   - isUsable: checked before a job runs on an existing connection.
    ///   - keep: after a job, whether the connection (and the job's error, if any) allow reuse.
    public init(label: String, size: Int, open: @escaping Open, isUsable: @escaping @Sendable (Connection) -> Bool = { _ in true },
                keep: @escaping @Sendable (Connection, (any Error)?) -> Bool, closedError: any Error) {
        precondition(size >= 1, "a pool needs at least one connection")
        self.closedError = closedError
        for number in 1...size {
            let queue = self.queue
            // The threads hold the queue, not the pool, so dropping the pool closes it.
            let name = "\(label)-\(number)"
            let thread = Thread {
                Self.nameCurrentThread(name)
                Self.serve(queue, open: open, isUsable: isUsable, keep: keep)
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
    /// Cancelling the task removes the work if it has not started; a started body runs to completion.
    /// - Throws: whatever `body` or opening a connection throws; `CancellationError` if cancelled
    ///   before starting; the pool's closed error once it is closed.
    public func withConnection<T: Sendable>(_ body: @escaping (Connection) throws -> T) async throws -> T {
        let queue = self.queue
        let id = queue.makeID()
        let closedError = self.closedError
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let job = PoolJob<Connection>(id: id, run: { connection in
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
                    job.fail(closedError)
                }
            }
        } onCancel: {
            queue.remove(id: id)?.fail(CancellationError())
        }
    }

    /// Refuses new work and fails queued work. Bodies already running finish; each thread then
    /// drops its connection and exits. Safe to call more than once.
    public func close() {
        for job in queue.close() { job.fail(closedError) }
    }

    /// Bodies waiting for a free thread (queued, not started).
    public var waitingCount: Int { queue.count }

    /// A pool thread's loop: take a job, make sure the connection is usable, run the job, then
    /// judge whether the connection can serve the next one.
    private static func serve(_ queue: WorkQueue<Connection>, open: Open, isUsable: (Connection) -> Bool,
                              keep: (Connection, (any Error)?) -> Bool) {
        var connection: Connection?
        while let job = queue.take() {
            if let current = connection, !isUsable(current) { connection = nil }
            if connection == nil {
                do {
                    connection = try open()
                } catch {
                    job.fail(error)
                    continue
                }
            }
            guard let current = connection else { continue }
            let error = job.run(current)
            if !keep(current, error) { connection = nil }
        }
    }

    /// Names the OS thread, so `top -H`, debuggers and crash reports show which threads are the
    /// pool's. On Linux, Foundation's `Thread.name` setter does not reach the OS thread.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
        try? String(name.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #else
        Thread.current.name = name
        #endif
    }
}

/// A unit of work waiting for a pool thread. Exactly one of `run` or `fail` is called, by whoever
/// removes the job from the queue (a pool thread, a cancellation or `close`).
final class PoolJob<Connection> {
    let id: UInt64
    /// Runs the caller's body, resumes the caller, and hands back the body's error (nil on success).
    let run: (Connection) -> (any Error)?
    /// Resumes the caller with an error without running the body.
    let fail: (any Error) -> Void

    init(id: UInt64, run: @escaping (Connection) -> (any Error)?, fail: @escaping (any Error) -> Void) {
        self.id = id
        self.run = run
        self.fail = fail
    }
}

/// The FIFO of jobs shared by a pool's threads, guarded by one condition variable.
final class WorkQueue<Connection>: @unchecked Sendable {
    // Safe: every mutable field is read and written with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [PoolJob<Connection>] = []
    private var closed = false
    private var lastID: UInt64 = 0

    func makeID() -> UInt64 {
        condition.withLock {
            lastID += 1
            return lastID
        }
    }

    /// Adds a job for the next free thread. Returns false (and keeps nothing) once closed.
    func enqueue(_ job: PoolJob<Connection>) -> Bool {
        condition.withLock {
            guard !closed else { return false }
            jobs.append(job)
            condition.signal()
            return true
        }
    }

    /// Blocks until a job is available; nil once the queue is closed.
    func take() -> PoolJob<Connection>? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        guard !closed else { return nil }
        return jobs.removeFirst()
    }

    var count: Int { condition.withLock { jobs.count } }

    /// Removes a job that no thread has started yet; nil if it already started (or finished).
    func remove(id: UInt64) -> PoolJob<Connection>? {
        condition.withLock {
            guard let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
            return jobs.remove(at: index)
        }
    }

    /// Refuses new jobs, wakes every thread so it can exit, and returns the jobs never started.
    func close() -> [PoolJob<Connection>] {
        condition.withLock {
            closed = true
            let abandoned = jobs
            jobs = []
            condition.broadcast()
            return abandoned
        }
    }
}
