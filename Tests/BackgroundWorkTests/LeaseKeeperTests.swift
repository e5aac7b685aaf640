import Foundation
import Logging
import Queue
import ReelworkCore
import Store
import TestSupport
import Threading
import XCTest

@testable import Worker

/// The worker's lease keeper in process: each round renews every run the slots track, in Redis
/// and in PostgreSQL; a run the slot forgot, or one the watchdog took over, is not renewed again;
/// and what a heartbeat learns (lease lost, cancelled) becomes the run's stop request.
final class LeaseKeeperTests: BackgroundWorkTestCase {
    private let tracked = LockedRuns()
    private let rounds = RoundLog<LeaseKeeper.Round>()
    private var keeper: LeaseKeeper!

    override func setUpWithError() throws {
        try super.setUpWithError()
        config.queue.heartbeatSeconds = 3600   // rounds run at start and when woken, nowhere else
        keeper = LeaseKeeper(config: config, logger: Logger(label: "test.keeper"), runs: { [tracked] in tracked.all },
                             onRound: rounds.record)
    }

    override func tearDown() {
        keeper?.stop()
        super.tearDown()
    }

    /// A running job and the run control its slot would track.
    private func trackedRun(lease: TimeInterval) throws -> RunControl {
        track(try runningJob(owner: "w/0", lease: lease))
    }

    private func track(_ job: (claim: Claim, run: ClaimedRun)) -> RunControl {
        let (claim, started) = job
        let control = RunControl(claim: claim, owner: "w/0", slot: SlotThread(slot: 0, generation: 0), shutdownDue: { false })
        control.begin(started)
        tracked.add(control)
        return control
    }

    private func heartbeatAge(_ id: UUID) throws -> Double {
        try XCTUnwrap(try db.query("SELECT EXTRACT(EPOCH FROM now() - heartbeat_at)::float8 AS age FROM jobs WHERE id = $1", [id])
            .rows.first).double("age")
    }

    /// Runs one round now and returns what it did.
    private func nextRound() throws -> LeaseKeeper.Round {
        let before = rounds.rounds.count
        keeper.wake()
        try rounds.awaitCount(before + 1)
        return rounds.rounds[before]
    }

    func testEachRoundRenewsEveryTrackedRunInBothStores() throws {
        let runs = try (0..<2).map { _ in try trackedRun(lease: 5) }
        for run in runs { try db.query("UPDATE jobs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1", [run.jobId]) }
        let deadlinesBefore = try runs.map { try XCTUnwrap(try leaseDeadline($0.jobId)) }

        keeper.start()
        try rounds.awaitCount(1)
        XCTAssertEqual(rounds.rounds.first, LeaseKeeper.Round(renewed: 2))
        for (run, before) in zip(runs, deadlinesBefore) {
            let after = try XCTUnwrap(try leaseDeadline(run.jobId))
            XCTAssertGreaterThan(after - before, 20_000, "renewed for a whole lease (30 s) from now, not the 5 s left")
            XCTAssertLessThan(try heartbeatAge(run.jobId), 60, "heartbeat_at stamped in PostgreSQL")
        }
    }

    func testARunTheSlotForgotOrTheWatchdogTookOverIsNoLongerRenewed() throws {
        let finished = try trackedRun(lease: 5)
        let stuck = try trackedRun(lease: 5)
        let kept = try trackedRun(lease: 5)
        keeper.start()
        try rounds.awaitCount(1)
        XCTAssertEqual(rounds.rounds.first?.renewed, 3)

        // The first run finished: Redis forgot it and its slot stopped tracking it.
        XCTAssertTrue(try queue.finish(finished.claim, owner: finished.owner, outcome: .done, on: redis))
        tracked.remove(finished)
        // The watchdog ended the second on its stuck thread's behalf.
        XCTAssertTrue(stuck.claimEnding(.takeover))
        let stuckDeadline = try leaseDeadline(stuck.jobId)

        XCTAssertEqual(try nextRound(), LeaseKeeper.Round(renewed: 1))
        XCTAssertFalse(try queue.holds(finished.jobId, on: redis), "a finished job is not revived by a heartbeat")
        XCTAssertEqual(try leaseDeadline(stuck.jobId), stuckDeadline, "the taken-over run's lease is left to expire")
        XCTAssertNotNil(try leaseDeadline(kept.jobId))
    }

    func testALostLeaseOrACancelBecomesTheRunsStopRequest() throws {
        let lost = track(try expiredJob())
        let cancelled = try trackedRun(lease: 30)
        // The first lease expired and another worker claimed the job; an operator cancelled the second.
        XCTAssertEqual(try queue.reap(maxStalls: 3, on: redis).expired.map(\.jobId), [lost.jobId])
        XCTAssertEqual(try queue.claim(owner: "w2/0", lease: 30, on: redis)?.jobId, lost.jobId)
        _ = try queue.cancel(cancelled.jobId, on: redis)

        keeper.start()
        try rounds.awaitCount(1)
        XCTAssertEqual(rounds.rounds.first, LeaseKeeper.Round(renewed: 0, lost: 1, cancelled: 1))
        XCTAssertEqual(lost.stopRequested?.reason, .leaseLost)
        XCTAssertEqual(cancelled.stopRequested?.reason, .cancelled)
        XCTAssertEqual(try queue.heartbeat(lost.claim, owner: "w2/0", lease: 30, on: redis), .lost,
                       "the old claim's attempt no longer owns the lease")
    }
}

/// The runs a worker's slots track, as the keeper's `runs` closure reads them.
final class LockedRuns: Sendable {
    private let runs = LockedValue<[RunControl]>([])

    var all: [RunControl] { runs.withLock { $0 } }

    func add(_ run: RunControl) { runs.withLock { $0.append(run) } }

    func remove(_ run: RunControl) { runs.withLock { $0.removeAll { $0 === run } } }
}
