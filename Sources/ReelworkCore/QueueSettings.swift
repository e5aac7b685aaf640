import Foundation

/// How the queue keeps its promises: leases, heartbeats, stalls, caps, retries, shutdown.
/// Defaults are named here; every one can be set by its environment variable (see docs/CONFIGURATION.md).
public struct QueueSettings: Sendable, Equatable {
    /// A running job's lease; a worker that misses heartbeats this long is presumed lost.
    public var leaseSeconds = 30.0
    /// How often a worker renews its leases (a third of the lease, so two can be missed).
    public var heartbeatSeconds = 10.0
    /// Lost leases a job survives before it fails with a reason that says so.
    public var maxStalls = 3
    /// Running jobs allowed at once across the pool; 0 = no cap.
    public var globalCap = 0
    /// Running jobs allowed at once per club; 0 = no cap.
    public var clubCap = 0
    /// Retry backoff: base × factor^(failures − 1), capped, with jitter.
    public var retryBaseSeconds = 2.0
    public var retryFactor = 2.0
    public var retryCapSeconds = 300.0
    /// After SIGTERM, how long running jobs may go on before they are handed back.
    public var shutdownGraceSeconds = 30.0
    /// How often the reaper expires leases and promotes due retries.
    public var reaperIntervalSeconds = 1.0
    /// How often the reconciler re-enqueues what PostgreSQL has and Redis lost.
    public var reconcileIntervalSeconds = 30.0
    /// A waiting job untouched this long and absent from Redis is re-enqueued.
    public var reconcileSettleSeconds = 5.0
    /// The stage watchdog: a run whose stage reports no progress (no frame, no stage start or end)
    /// for this long is stopped and failed as `internal`, so a hung decoder or model frees its slot.
    public var stageTimeoutSeconds = 120.0
    /// Stage threads a worker may abandon (stuck in C code, taken over by the watchdog) before it
    /// drains and exits non-zero: each one keeps its memory until the process ends, so past this
    /// many the worker asks its supervisor for a fresh process rather than leak on.
    public var maxAbandonedThreads = 2

    public init() {}

    public enum Env {
        public static let leaseSeconds = "REELWORK_LEASE_SECONDS"
        public static let heartbeatSeconds = "REELWORK_HEARTBEAT_SECONDS"
        public static let maxStalls = "REELWORK_MAX_STALLS"
        public static let globalCap = "REELWORK_GLOBAL_CAP"
        public static let clubCap = "REELWORK_CLUB_CAP"
        public static let retryBaseSeconds = "REELWORK_RETRY_BASE_SECONDS"
        public static let retryFactor = "REELWORK_RETRY_FACTOR"
        public static let retryCapSeconds = "REELWORK_RETRY_CAP_SECONDS"
        public static let shutdownGraceSeconds = "REELWORK_SHUTDOWN_GRACE_SECONDS"
        public static let reaperIntervalSeconds = "REELWORK_REAPER_INTERVAL_SECONDS"
        public static let reconcileIntervalSeconds = "REELWORK_RECONCILE_INTERVAL_SECONDS"
        public static let reconcileSettleSeconds = "REELWORK_RECONCILE_SETTLE_SECONDS"
        public static let stageTimeoutSeconds = "REELWORK_STAGE_TIMEOUT_SECONDS"
        public static let maxAbandonedThreads = "REELWORK_WORKER_MAX_ABANDONED_THREADS"
    }

    /// Reads the environment; a bad value is an error naming the variable. Checks the settings agree
    /// (a heartbeat must come well within a lease).
    public static func fromEnvironment(_ env: [String: String]) throws -> QueueSettings {
        var s = QueueSettings()
        func number(_ name: String, _ value: inout Double, min: Double) throws {
            guard let text = env[name], !text.isEmpty else { return }
            guard let v = Double(text), v >= min, v.isFinite else {
                throw ReelworkError.configuration("\(name)='\(text)' must be a number ≥ \(min)")
            }
            value = v
        }
        func whole(_ name: String, _ value: inout Int) throws {
            guard let text = env[name], !text.isEmpty else { return }
            guard let v = Int(text), v >= 0 else { throw ReelworkError.configuration("\(name)='\(text)' must be a whole number ≥ 0") }
            value = v
        }
        try number(Env.leaseSeconds, &s.leaseSeconds, min: 0.5)
        try number(Env.heartbeatSeconds, &s.heartbeatSeconds, min: 0.1)
        try whole(Env.maxStalls, &s.maxStalls)
        try whole(Env.globalCap, &s.globalCap)
        try whole(Env.clubCap, &s.clubCap)
        try number(Env.retryBaseSeconds, &s.retryBaseSeconds, min: 0)
        try number(Env.retryFactor, &s.retryFactor, min: 1)
        try number(Env.retryCapSeconds, &s.retryCapSeconds, min: 0)
        try number(Env.shutdownGraceSeconds, &s.shutdownGraceSeconds, min: 0)
        try number(Env.reaperIntervalSeconds, &s.reaperIntervalSeconds, min: 0.05)
        try number(Env.reconcileIntervalSeconds, &s.reconcileIntervalSeconds, min: 0.1)
        try number(Env.reconcileSettleSeconds, &s.reconcileSettleSeconds, min: 0)
        try number(Env.stageTimeoutSeconds, &s.stageTimeoutSeconds, min: 0.5)
        try whole(Env.maxAbandonedThreads, &s.maxAbandonedThreads)
        guard s.maxAbandonedThreads >= 1 else {
            throw ReelworkError.configuration("\(Env.maxAbandonedThreads)=0 must be at least 1: the first stuck thread's memory is already lost")
        }
        guard s.heartbeatSeconds * 2 <= s.leaseSeconds else {
            throw ReelworkError.configuration(
                "\(Env.heartbeatSeconds)=\(s.heartbeatSeconds) must be at most half of \(Env.leaseSeconds)=\(s.leaseSeconds), so one late heartbeat does not lose the lease")
        }
        return s
    }

    /// The wait before the retry that follows the `failures`-th error: exponential, capped, and with
    /// "equal jitter" (half fixed, half random) so a burst of failures does not retry in lockstep.
    /// `random` returns a value in 0..<1.
    public func retryDelay(afterFailures failures: Int, random: () -> Double = { Double.random(in: 0..<1) }) -> TimeInterval {
        let exponential = retryBaseSeconds * pow(retryFactor, Double(max(0, failures - 1)))
        let capped = min(retryCapSeconds, exponential)
        return capped / 2 + capped / 2 * random()
    }
}
