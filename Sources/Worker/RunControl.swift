import Foundation
import Threading
import Queue
import ReelworkCore
import Store
import Telemetry

/// Why a run must stop before it finishes.
enum StopReason: Equatable, Sendable {
    /// The lease went to another run (expired, reaped): write nothing more.
    case leaseLost
    /// An operator cancelled the job.
    case cancelled
    /// The worker is shutting down and the grace period is over: hand the job back.
    case shutdown
    /// The stage watchdog: the run reported no progress for too long (the message says where).
    case stalled(String)
}

/// One claimed job as every thread of the worker sees it. The slot thread running it reports
/// progress here and asks whether to stop; the lease keeper records what heartbeats learn; the
/// stage watchdog reads how long the run has been silent and, when its thread does not answer,
/// ends the run on its behalf (a takeover).
///
/// Exactly one party writes the run's outcome: the run itself or a takeover, whichever calls
/// `claimEnding` first; the other writes nothing more.
final class RunControl: @unchecked Sendable {
    // Safe: every mutable field is read and written with `lock` held.
    enum Ender: Sendable { case run, takeover }

    let claim: Claim
    let owner: String
    /// The slot thread running it (replaced if the run is taken over).
    let slot: SlotThread
    private let shutdownDue: @Sendable () -> Bool
    private let lock = NSLock()
    private var started: ClaimedRun?
    // Durations on this host alone, so the monotonic clock: a wall clock stepped by NTP (or set an
    // hour wrong) must neither stop a run early nor let a stuck one hold its slot.
    private var lastProgress = ContinuousClock.now
    private var stage: StageName?
    private var stop: (reason: StopReason, at: ContinuousClock.Instant)?
    private var ender: Ender?

    /// `shutdownDue` says whether the worker's shutdown grace period is over.
    init(claim: Claim, owner: String, slot: SlotThread, shutdownDue: @escaping @Sendable () -> Bool) {
        self.claim = claim
        self.owner = owner
        self.slot = slot
        self.shutdownDue = shutdownDue
    }

    var jobId: UUID { claim.jobId }

    /// The run started in PostgreSQL (its fencing token and job facts).
    func begin(_ run: ClaimedRun) {
        lock.withLock {
            started = run
            lastProgress = .now
        }
    }

    var run: ClaimedRun? { lock.withLock { started } }

    /// A stage started, advanced or ended: the watchdog's clock starts again.
    func progressed(_ stage: StageName) {
        lock.withLock {
            lastProgress = .now
            self.stage = stage
        }
    }

    /// The stage that reported last, and how long ago.
    var silence: (stage: StageName?, seconds: TimeInterval) {
        lock.withLock { (stage, (ContinuousClock.now - lastProgress).inSeconds) }
    }

    /// Tells the run to stop. The first reason stands, except that a lost lease overrides any
    /// other (once another run owns the job, this one must write nothing).
    func requestStop(_ reason: StopReason) {
        lock.withLock {
            if stop == nil || (reason == .leaseLost && stop?.reason != .leaseLost) { stop = (reason, .now) }
        }
    }

    /// Why the run must stop, if it must: asked at every progress report and by FFmpeg while it
    /// waits for input, so keep it cheap.
    var stopReason: StopReason? {
        if let requested = lock.withLock({ stop?.reason }) { return requested }
        return shutdownDue() ? .shutdown : nil
    }

    /// Since when a stop has been requested explicitly (by a heartbeat, the watchdog or shutdown).
    var stopRequested: (reason: StopReason, at: ContinuousClock.Instant)? { lock.withLock { stop } }

    /// Whether `who` may write the run's outcome: true for the first caller only.
    func claimEnding(_ who: Ender) -> Bool {
        lock.withLock {
            guard ender == nil else { return false }
            ender = who
            return true
        }
    }

    /// True once the run has been ended on its behalf: its thread must write nothing more.
    var isTakenOver: Bool { lock.withLock { ender == .takeover } }

    /// Whether the run's own thread already ended it (or is ending it now).
    var isEnding: Bool { lock.withLock { ender != nil } }
}

/// One slot's thread. When its run is taken over, the thread may still be blocked inside a C
/// call; the slot is then given a new thread, and this one is retired: when (if ever) it returns,
/// it claims nothing more.
final class SlotThread: Sendable {
    let slot: Int
    let generation: Int
    private let state = LockedValue((retired: false, departed: false))

    init(slot: Int, generation: Int) {
        self.slot = slot
        self.generation = generation
    }

    var isRetired: Bool { state.withLock { $0.retired } }

    func retire() { state.withLock { $0.retired = true } }

    /// True the first time only: the thread leaves the worker's count of running slots once,
    /// whether it ended by itself or was retired.
    func depart() -> Bool {
        state.withLock { state in
            defer { state.departed = true }
            return !state.departed
        }
    }
}
