import Foundation

/// Async work from a thread of its own: a `BackgroundLoop` round that blocks on libpq and hiredis
/// and must also await an async client (AsyncHTTPClient). The calling thread waits; the work runs
/// on Swift's concurrency pool.
public enum AsyncBridge {
    /// Runs `body` as a task and blocks the calling thread until it returns. Never call it from a
    /// task or an event loop: only from threads Reelwork owns (a `BackgroundLoop`'s), whose blocking
    /// takes nothing from the pool the task runs on.
    public static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = LockedValue<T?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            finished.signal()
        }
        finished.wait()
        return result.withLock { $0! }
    }
}
