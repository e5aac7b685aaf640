import Foundation

/// Waits for a condition that another process or thread makes true (a row, a file), checking it
/// every `interval` until it holds or `timeout` passes. For conditions nothing signals; where a
/// loop reports its rounds, wait on those instead.
public enum Eventually {
    /// The first non-nil value `probe` returns.
    /// - Throws: `TestSetupError` naming `what` when the time runs out; whatever `probe` throws.
    public static func value<T>(timeout: TimeInterval = 10, interval: TimeInterval = 0.02, _ what: String,
                                _ probe: () throws -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = try probe() { return value }
            guard Date() < deadline else { throw TestSetupError(description: "not \(what) within \(timeout) s") }
            Thread.sleep(forTimeInterval: interval)
        }
    }
}
