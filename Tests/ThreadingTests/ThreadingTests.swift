import Foundation
import ReelworkCore
import Threading
import XCTest

final class BlockingPoolTests: XCTestCase {
    func testNeverRunsMoreThanItsSizeAtOnceAndReusesConnections() async throws {
        struct Counts { var opened = 0, running = 0, peak = 0 }
        let counter = LockedValue(Counts())
        let pool = BlockingPool<Int>(label: "test", size: 3, open: {
            counter.withLock { $0.opened += 1; return $0.opened }
        }, keep: { _, _ in true }, closedError: ReelworkError.unavailable("closed"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await pool.withConnection { _ in
                        counter.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
                        Thread.sleep(forTimeInterval: 0.01)
                        counter.withLock { $0.running -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        XCTAssertEqual(counter.withLock { $0.peak }, 3)
        XCTAssertEqual(counter.withLock { $0.opened }, 3, "connections are reused")
    }

    func testUnhealthyConnectionsAreReplaced() async throws {
        let opened = LockedValue(0)
        let pool = BlockingPool<Int>(label: "test", size: 1, open: { opened.withLock { $0 += 1; return $0 } },
                                     keep: { connection, _ in connection != 1 }, closedError: ReelworkError.unavailable("closed"))
        let first = try await pool.withConnection { $0 }
        let second = try await pool.withConnection { $0 }
        let third = try await pool.withConnection { $0 }
        XCTAssertEqual([first, second, third], [1, 2, 2])
    }
}

/// The loop under every long-lived piece of work (maintenance, slots, lease keeper, watchdog): rounds report what they did, `wake`
/// starts the next round now, and `stop` never waits out an interval. The intervals here are an
/// hour, so a wait that is not cut short shows as an expectation that times out.
final class BackgroundLoopTests: XCTestCase {
    private func startCounting(interval: TimeInterval = 3600) -> (BackgroundLoop<Int>, LockedValue<[Int]>, DispatchSemaphore) {
        let count = LockedValue(0), seen = LockedValue<[Int]>([]), rounds = DispatchSemaphore(value: 0)
        let thread = BackgroundLoop(name: "test-loop", interval: interval) { count.withLock { $0 += 1; return $0 } }
        thread.onRound = { result in
            seen.withLock { $0.append(result) }
            rounds.signal()
        }
        thread.start()
        return (thread, seen, rounds)
    }

    /// Stops `thread` from another thread, so a stop that hangs fails the test instead of hanging it;
    /// `afterwards` runs on that thread once `stop` has returned.
    private func stop<Round>(_ thread: BackgroundLoop<Round>, afterwards: @escaping @Sendable () -> Void = {}) {
        let stopped = expectation(description: "stop returned")
        Thread.detachNewThread {
            thread.stop()
            afterwards()
            stopped.fulfill()
        }
        wait(for: [stopped], timeout: 10)
    }

    func testRoundsReportWhatTheyDidAndWakeStartsTheNextOneNow() {
        let (thread, seen, rounds) = startCounting()
        defer { stop(thread) }
        XCTAssertEqual(rounds.wait(timeout: .now() + 10), .success, "the first round runs at start")
        for _ in 0..<3 {
            thread.wake()
            XCTAssertEqual(rounds.wait(timeout: .now() + 10), .success, "a woken loop does not wait out its hour")
        }
        XCTAssertEqual(seen.withLock { $0 }, [1, 2, 3, 4])
    }

    func testStopEndsTheWaitBetweenRoundsAndNoRoundFollows() {
        let (thread, seen, rounds) = startCounting()
        XCTAssertEqual(rounds.wait(timeout: .now() + 10), .success)
        stop(thread)
        thread.wake()
        XCTAssertEqual(rounds.wait(timeout: .now() + 0.2), .timedOut, "no round after stop")
        XCTAssertEqual(seen.withLock { $0 }, [1])
    }

    func testStopWaitsForTheRoundInProgress() {
        let entered = DispatchSemaphore(value: 0), neverSignalled = DispatchSemaphore(value: 0)
        let ended = LockedValue(false)
        let thread = BackgroundLoop(name: "test-loop", interval: 3600) { () -> Bool in
            entered.signal()
            _ = neverSignalled.wait(timeout: .now() + 0.3)   // a round still busy when stop is called
            ended.withLock { $0 = true }
            return true
        }
        thread.start()
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        stop(thread) { XCTAssertTrue(ended.withLock { $0 }, "stop returned while a round was still running") }
    }

    func testStopWithoutStartOrTwiceReturnsAtOnce() {
        let idle = BackgroundLoop(name: "test-loop", interval: 3600) { 0 }
        idle.stop()
        let (thread, _, rounds) = startCounting()
        XCTAssertEqual(rounds.wait(timeout: .now() + 10), .success)
        stop(thread)
        stop(thread)
    }

    func testStopAfterRequestStopStillWaitsForTheRoundInProgress() {
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let ended = LockedValue(false)
        let thread = BackgroundLoop(name: "test-loop", interval: 3600) { () -> Bool in
            entered.signal()
            _ = release.wait(timeout: .now() + 10)
            ended.withLock { $0 = true }
            return true
        }
        thread.start()
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        thread.requestStop()
        XCTAssertTrue(thread.isStopRequested)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
        stop(thread) { XCTAssertTrue(ended.withLock { $0 }, "stop returned while a round was still running") }
    }

    func testPaceChoosesTheWaitAndFinishEndsTheLoop() {
        let count = LockedValue(0), exited = expectation(description: "onExit ran")
        let thread = BackgroundLoop(name: "test-loop", round: { count.withLock { $0 += 1; return $0 } },
                                    pace: { $0 < 5 ? .after(0) : .finish })
        thread.onExit = { exited.fulfill() }
        thread.start()
        wait(for: [exited], timeout: 10)
        XCTAssertEqual(count.withLock { $0 }, 5, "rounds ran back to back until the pace said finish, then none")
        stop(thread)
    }

    func testStoppedSuspendsUntilTheThreadHasLeft() async {
        let entered = DispatchSemaphore(value: 0)
        let ended = LockedValue(false)
        let thread = BackgroundLoop(name: "test-loop", interval: 3600) { () -> Bool in
            entered.signal()
            Thread.sleep(forTimeInterval: 0.2)
            ended.withLock { $0 = true }
            return true
        }
        thread.start()
        XCTAssertEqual(entered.wait(timeout: .now() + 10), .success)
        await thread.stopped()
        XCTAssertTrue(ended.withLock { $0 }, "stopped() returned while a round was still running")
        await thread.stopped()
        await BackgroundLoop(name: "test-loop", interval: 3600) { 0 }.stopped()
    }
}
