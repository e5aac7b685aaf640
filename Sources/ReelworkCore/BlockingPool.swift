import Dispatch
import Foundation

/// A fixed-size pool of blocking connections (libpq, hiredis) for async callers.
///
/// Blocking C calls must not run on Swift's cooperative threads (two cores here: one stuck call
/// would stall half the server), so each `withConnection` body runs on a dispatch thread while the
/// caller awaits. At most `size` bodies run at once; the rest wait in FIFO order. A connection that
/// `isHealthy` rejects after use is dropped and replaced on the next use.
public final class BlockingPool<Connection>: @unchecked Sendable {
    private let size: Int
    private let open: () throws -> Connection
    private let isHealthy: (Connection) -> Bool
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var idle: [Connection] = []
    private var inUse = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(label: String, size: Int, open: @escaping () throws -> Connection, isHealthy: @escaping (Connection) -> Bool) {
        precondition(size > 0, "a pool needs at least one connection")
        self.size = size
        self.open = open
        self.isHealthy = isHealthy
        self.queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    /// Runs `body` with a connection on a dispatch thread. Opening a connection may throw.
    public func withConnection<T>(_ body: @escaping (Connection) throws -> T) async throws -> T {
        await acquire()
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                defer { self.release() }
                do {
                    let connection = try self.takeIdle() ?? self.open()
                    defer { self.giveBack(connection) }
                    continuation.resume(returning: try body(connection))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Drops every idle connection (they close when released).
    public func drain() {
        lock.withLock { idle.removeAll() }
    }

    private func acquire() async {
        let mustWait: Bool = lock.withLock {
            if inUse < size { inUse += 1; return false }
            return true
        }
        guard mustWait else { return }
        // `release` hands its slot straight to the first waiter, so `inUse` stays counted.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow: Bool = lock.withLock {
                if inUse < size { inUse += 1; return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            if waiters.isEmpty { inUse -= 1; return nil }
            return waiters.removeFirst()
        }
        next?.resume()
    }

    private func takeIdle() -> Connection? {
        lock.withLock { idle.popLast() }
    }

    private func giveBack(_ connection: Connection) {
        guard isHealthy(connection) else { return }
        lock.withLock { idle.append(connection) }
    }
}
