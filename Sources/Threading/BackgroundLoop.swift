import Foundation

/// The one shape of long-lived work in Reelwork: a thread of its own that runs `round` again and
/// again until stopped. Every background loop uses it (the coordinator's maintenance, the worker's
/// slots, lease keeper and stage watchdog, the load driver's sampler), so stopping is written once:
///
/// - `requestStop()` ends the loop after the round in progress; a wait between rounds is cut short
///   at once (never a whole interval's sleep). `stop()` also waits for the thread to leave, and
///   `stopped()` waits without blocking a task;
/// - `wake()` starts the next round now;
/// - each round returns a value counting what it did; `onRound` (set before `start`) sees it, which
///   is how tests wait for a round instead of sleeping, and `pace` decides from it how long to wait
///   before the next round, or that the loop is finished;
/// - `onExit` runs on the thread as it leaves, whatever made it leave.
///
/// Rounds may block (hiredis, libpq, a stage); that is why this is a thread and not a task.
public final class BackgroundLoop<Round: Sendable>: @unchecked Sendable {
    // Safe: `started`, `stopRequested`, `woken`, `exited` and `exitWaiters` are read and written only
    // with `condition` locked; `round`, `pace`, `onRound` and `onExit` are set before the thread
    // starts and only the thread calls them.

    /// What to do after a round.
    public enum Pace: Equatable, Sendable {
        /// Run the next round after this many seconds (0: at once), unless woken or stopped first.
        case after(TimeInterval)
        /// The loop's work is over: the thread leaves.
        case finish
    }

    private let name: String
    private let stackSize: Int?
    private let round: () -> Round
    private let pace: (Round) -> Pace
    private let condition = NSCondition()
    private var started = false
    private var stopRequested = false
    private var woken = false
    private var exited = false
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []
    /// Called on the thread after every round, with what it did.
    public var onRound: ((Round) -> Void)?
    /// Called on the thread when it leaves the loop.
    public var onExit: (() -> Void)?

    /// A loop that runs `round` every `interval` seconds.
    public convenience init(name: String, interval: TimeInterval, stackSize: Int? = nil, round: @escaping () -> Round) {
        self.init(name: name, stackSize: stackSize, round: round, pace: { _ in .after(interval) })
    }

    /// A loop whose rounds choose the wait before the next one (a backoff after a failure, none
    /// after work done), or end it.
    public init(name: String, stackSize: Int? = nil, round: @escaping () -> Round, pace: @escaping (Round) -> Pace) {
        self.name = name
        self.stackSize = stackSize
        self.round = round
        self.pace = pace
    }

    public func start() {
        condition.withLock { started = true }
        let thread = Thread { [self] in
            while true {
                let result = round()
                onRound?(result)
                let next = pace(result)
                let leave: Bool = condition.withLock {
                    guard case .after(let seconds) = next else { return true }
                    let deadline = Date().addingTimeInterval(seconds)
                    while !stopRequested && !woken && Date() < deadline { _ = condition.wait(until: deadline) }
                    woken = false
                    return stopRequested
                }
                if leave { break }
            }
            onExit?()
            let waiters: [CheckedContinuation<Void, Never>] = condition.withLock {
                exited = true
                condition.broadcast()
                defer { exitWaiters = [] }
                return exitWaiters
            }
            waiters.forEach { $0.resume() }
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Runs the next round without waiting for the interval to pass.
    public func wake() {
        condition.withLock {
            woken = true
            condition.broadcast()
        }
    }

    /// Whether `requestStop` or `stop` was called.
    public var isStopRequested: Bool { condition.withLock { stopRequested } }

    /// Asks the loop to leave after the round in progress, and returns at once.
    public func requestStop() {
        condition.withLock {
            stopRequested = true
            condition.broadcast()
        }
    }

    /// Asks the loop to stop and waits until its thread has left (at once without `start`). Not
    /// for the loop's own thread.
    public func stop() {
        condition.withLock {
            stopRequested = true
            condition.broadcast()
            while started && !exited { condition.wait() }
        }
    }

    /// `stop()` for async callers: the task is suspended, no thread is blocked.
    public func stopped() async {
        requestStop()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow: Bool = condition.withLock {
                guard started && !exited else { return true }
                exitWaiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
