import Metrics
import ReelworkCore

/// `reelwork_inference_duration_seconds{model}`: one model run, the preprocessing and decoding
/// around it excluded. Made once, on first use (after a worker has set its metrics backend;
/// `reelwork analyze` sets none, so there they cost nothing).
enum InferenceTimers {
    static let detector = Metrics.Timer(label: MetricName.inferenceDuration, dimensions: [("model", "detector")])
    static let pose = Metrics.Timer(label: MetricName.inferenceDuration, dimensions: [("model", "pose")])

    /// Runs `body`, timing it with `timer`.
    static func time<T>(_ timer: Metrics.Timer, _ body: () throws -> T) rethrows -> T {
        let started = ContinuousClock.now
        defer { timer.record(duration: ContinuousClock.now - started) }
        return try body()
    }
}
