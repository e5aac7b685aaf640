import Foundation
import Logging
import Queue
import ReelworkCore
import Store
import Telemetry
import Threading

/// Makes sure no run holds a slot forever, on its own thread and connections:
/// - a run whose stage has reported nothing (no frame, no stage start or end) for
///   `stageTimeoutSeconds` is stopped: it fails `internal` with a reason naming the stage;
/// - a run told to stop (cancelled, lease lost, shutdown after the grace period) that has not
///   answered within `acknowledgeSeconds` is ended on its behalf with the outcome it would have
///   written itself.
/// Either way its thread may be blocked inside a C call (a read that never returns, a model that
/// hangs): the watchdog writes the outcome with its own connections (fenced by the attempt, like
/// every write of a run), stops renewing the lease, and gives the slot a fresh thread
/// (`onTakeover`). The stuck thread, if it ever returns, finds it was taken over and writes nothing.
final class StageWatchdog: Sendable {
    /// What one round did (for logs and tests).
    struct Round: Equatable, Sendable {
        var stalled = 0, cancelled = 0, handedBack = 0, lost = 0, failedToEnd = 0
        var isEmpty: Bool { self == Round() }
    }

    /// A run that does not answer a stop request within this long is presumed stuck. A live run
    /// reads its stop reason at every progress report, several times a second.
    static let acknowledgeSeconds = 2.0

    private let thread: BackgroundLoop<Round>

    /// - Parameters:
    ///   - runs: the runs in progress now.
    ///   - shutdownDue: whether the worker's shutdown grace period is over.
    ///   - onTakeover: called after a run was ended on its behalf (the slot needs a new thread).
    init(config: ReelworkConfig, logger: Logger, runs: @escaping @Sendable () -> [RunControl],
         shutdownDue: @escaping @Sendable () -> Bool, onTakeover: @escaping @Sendable (RunControl) -> Void) {
        let connections = Connections(config: config)
        let queue = JobQueue(config: config)
        let interval = max(0.05, min(1.0, config.queue.stageTimeoutSeconds / 4, Self.acknowledgeSeconds / 4))
        thread = BackgroundLoop(name: "reelwork-watchdog", interval: interval) {
            var round = Round()
            let due = shutdownDue()
            for run in runs() where !run.isEnding {
                if due { run.requestStop(.shutdown) }
                guard let reason = Self.verdict(run, timeout: config.queue.stageTimeoutSeconds) else { continue }
                var log = logger
                log[metadataKey: "job"] = "\(run.jobId.uuidString.lowercased())"
                log[metadataKey: "attempt"] = "\(run.claim.attempt)"
                guard run.claimEnding(.takeover) else { continue }
                do {
                    let ending = RunEnding(config: config, db: try connections.postgres(), redis: try connections.redis(),
                                           queue: queue, logger: log)
                    try Self.end(run, reason, ending, &round)
                    log.warning("ended on its thread's behalf (\(reason.explanation)); the slot gets a new thread")
                } catch {
                    // Nothing more to do now: the lease is no longer renewed, so it expires and the
                    // reaper requeues the job as a stall.
                    round.failedToEnd += 1
                    connections.dropRedis()
                    connections.dropPostgres()
                    log.error("could not record the end of a stuck run (\(reason.explanation)): \(error); its lease will expire")
                }
                onTakeover(run)
            }
            return round
        }
    }

    func start() { thread.start() }

    func stop() { thread.stop() }

    func stopped() async { await thread.stopped() }

    /// Why `run` must be ended now on its behalf, if it must.
    static func verdict(_ run: RunControl, timeout: TimeInterval) -> StopReason? {
        if let requested = run.stopRequested {
            return (ContinuousClock.now - requested.at).inSeconds >= acknowledgeSeconds ? requested.reason : nil
        }
        let silent = run.silence.seconds
        guard silent >= timeout else { return nil }
        let setting = Int(exactly: timeout).map(String.init) ?? String(timeout)
        let reason = StopReason.stalled(
            "no progress for \(Int(clampedRounding: silent)) s: stopped by the stage watchdog (\(QueueSettings.Env.stageTimeoutSeconds)=\(setting))")
        run.requestStop(reason)
        return reason
    }

    private static func end(_ run: RunControl, _ reason: StopReason, _ ending: RunEnding, _ round: inout Round) throws {
        let claim = run.claim, owner = run.owner
        guard let started = run.run else {
            // Stuck before its attempt started in PostgreSQL: nothing to record there.
            _ = try ending.queue.finish(claim, owner: owner, outcome: .handBack, on: ending.redis)
            round.handedBack += 1
            return
        }
        switch reason {
        case .leaseLost:
            _ = try ending.lost(started)
            round.lost += 1
        case .cancelled:
            _ = try ending.cancel(started, claim, owner: owner)
            round.cancelled += 1
        case .shutdown:
            _ = try ending.handBack(started, claim, owner: owner)
            round.handedBack += 1
        case .stalled(let message):
            _ = try ending.fail(started, claim, owner: owner, stage: run.silence.stage, markStageFailed: true,
                                message: message, kind: .internal)
            round.stalled += 1
        }
    }
}
