import Foundation

/// A unit of work waiting for a pool thread. Exactly one of `run` or `fail` is called, by
/// whoever removes the job from the queue (a pool thread, a cancellation or `close`).
final class PGPoolJob {
    let id: UInt64
    /// Runs the caller's body on the connection, resumes the caller, and hands back the
    /// error the body threw (nil on success) so the thread can judge the connection.
    let run: (PGConnection) -> Error?
    /// Resumes the caller with an error without running the body.
    let fail: (Error) -> Void

    init(id: UInt64, run: @escaping (PGConnection) -> Error?, fail: @escaping (Error) -> Void) {
        self.id = id
        self.run = run
        self.fail = fail
    }
}

/// The FIFO of jobs shared by a pool's threads, guarded by one condition variable.
final class PGPoolQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [PGPoolJob] = []
    private var closed = false
    private var lastID: UInt64 = 0

    func makeID() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        lastID += 1
        return lastID
    }

    /// Adds a job for the next free thread. Returns false (and keeps nothing) once closed.
    func enqueue(_ job: PGPoolJob) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Blocks until a job is available; nil once the queue is closed.
    func take() -> PGPoolJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        guard !closed else { return nil }
        return jobs.removeFirst()
    }

    /// Removes a job that no thread has started yet; nil if it already started (or finished).
    func remove(id: UInt64) -> PGPoolJob? {
        condition.lock()
        defer { condition.unlock() }
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
        return jobs.remove(at: index)
    }

    /// Refuses new jobs, wakes every thread so it can exit, and returns the jobs never started.
    func close() -> [PGPoolJob] {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        let abandoned = jobs
        jobs = []
        condition.broadcast()
        return abandoned
    }
}
