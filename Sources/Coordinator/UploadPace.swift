import Foundation
import Hummingbird
import ReelworkCore
import Threading

/// How fast an upload must arrive: after a grace period, at least `minBytesPerSecond` on average,
/// and all of it within `deadlineSeconds`. The idle timeout already cuts a client that sends
/// nothing; this cuts one that sends a byte now and then to hold an upload slot for ever.
struct UploadPace: Sendable {
    var minBytesPerSecond: Int
    var graceSeconds: Double
    var deadlineSeconds: Double

    init(limits: InputLimits) {
        minBytesPerSecond = limits.minUploadBytesPerSecond
        graceSeconds = limits.uploadRateGraceSeconds
        deadlineSeconds = limits.maxUploadSeconds
    }

    /// How often `watch` looks at the bytes received.
    static let checkInterval: Duration = .milliseconds(250)

    /// The error for an upload that has received `bytes` after `elapsed` seconds, or nil while it keeps pace.
    func verdict(bytes: Int64, elapsed: Double) -> APIError? {
        if elapsed > deadlineSeconds {
            return APIError(.requestTimeout, "upload_timeout",
                            "the upload did not finish within \(Self.format(deadlineSeconds)) s (\(InputLimits.Env.maxUploadSeconds)); "
                                + "\(bytes) bytes had arrived")
        }
        if elapsed > graceSeconds, Double(bytes) < Double(minBytesPerSecond) * elapsed {
            return APIError(.requestTimeout, "upload_too_slow",
                            "the upload arrived at \(Int(Double(bytes) / elapsed)) bytes a second on average; at least \(minBytesPerSecond) "
                                + "are needed (\(InputLimits.Env.minUploadBytesPerSecond))")
        }
        return nil
    }

    /// Returns never: throws the verdict once the upload falls behind (or `CancellationError` when
    /// the upload ended first and this watch is cancelled).
    func watch(_ received: LockedValue<Int64>) async throws {
        let started = ContinuousClock.now
        while true {
            try await Task.sleep(for: Self.checkInterval)
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if let error = verdict(bytes: received.withLock { $0 }, elapsed: seconds) { throw error }
        }
    }

    private static func format(_ n: Double) -> String { Int(exactly: n).map(String.init) ?? String(n) }
}
