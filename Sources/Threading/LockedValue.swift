import Foundation

/// A value behind a lock, for state that threads (not tasks) share.
public final class LockedValue<Value>: @unchecked Sendable {
    // Safe: every access to `value` goes through `withLock`, with `lock` held.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
