import Foundation

/// A thread of its own that runs `round` every `interval` until stopped, for long-lived work that
/// makes blocking calls (hiredis, libpq): lease renewal, the stage watchdog.
///
/// - `stop()` wakes the wait between rounds at once and returns after the current round ends
///   (never a whole interval's sleep);
/// - `wake()` starts the next round now;
/// - each round returns a value saying what it did; `onRound` (set before `start`) sees it, which
///   is how tests wait for a round instead of sleeping.
public final class PeriodicThread<Round>: @unchecked Sendable {
    // Safe: `stopped` and `woken` are read and written only with `condition` locked; `round` and
    // `onRound` are set before the thread starts and only the thread calls them.
    private let name: String
    private let interval: TimeInterval
    private let round: () -> Round
    private let condition = NSCondition()
    private var stopped = false
    private var woken = false
    private var started = false
    private let finished = DispatchSemaphore(value: 0)
    /// Called on the thread after every round, with what it did.
    public var onRound: ((Round) -> Void)?

    public init(name: String, interval: TimeInterval, round: @escaping () -> Round) {
        self.name = name
        self.interval = interval
        self.round = round
    }

    public func start() {
        condition.withLock { started = true }
        let thread = Thread { [self] in
            while true {
                let result = round()
                onRound?(result)
                let stop: Bool = condition.withLock {
                    if !stopped && !woken { _ = condition.wait(until: Date().addingTimeInterval(interval)) }
                    woken = false
                    return stopped
                }
                if stop { break }
            }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Runs the next round without waiting for the interval to pass.
    public func wake() {
        condition.withLock {
            woken = true
            condition.signal()
        }
    }

    /// Asks the thread to stop and waits until its current round has ended. Without `start`, or
    /// when called a second time, it returns at once.
    public func stop() {
        let wasRunning: Bool = condition.withLock {
            let running = started && !stopped
            stopped = true
            condition.signal()
            return running
        }
        if wasRunning { finished.wait() }
    }
}
