import Foundation
import Logging
import Queue
import ReelworkCore
import Store
import Tennis
import TestSupport
import XCTest

@testable import Coordinator

/// The coordinator's maintenance rounds in process, on a prepared Redis and PostgreSQL: an expired
/// lease becomes a stall in both stores, even when PostgreSQL fails between the two; and only one
/// coordinator at a time holds the maintenance lock, another taking it over once the holder stops
/// renewing it.
final class MaintenanceLoopTests: BackgroundWorkTestCase {
    private let logger = Logger(label: "test.maintenance")

    func testAnExpiredLeaseIsCountedAsAStallInBothStores() throws {
        let (claim, _) = try expiredJob()

        let round = MaintenanceWork(config: config, logger: logger).round()
        XCTAssertNil(round.error)
        XCTAssertTrue(round.holdsLock)
        XCTAssertEqual(round.requeued, 1)

        XCTAssertEqual(try redisStalls(claim.jobId), 1)
        XCTAssertNil(try leaseDeadline(claim.jobId), "no longer running in Redis")
        XCTAssertTrue(try queue.holds(claim.jobId, on: redis), "back in line")
        let job = try jobRow(claim.jobId)
        XCTAssertEqual([job.status, "\(job.stalls)"], ["queued", "1"])
        XCTAssertEqual(try attemptOutcomes(claim.jobId), ["stalled"])
        XCTAssertEqual(try queue.stallReports(on: redis), [], "PostgreSQL has it: Redis forgets the report")
    }

    /// The reaper goes by Redis's clock alone: a lease with time left is not reaped, however long
    /// its worker has been quiet by anyone else's clock, and an expired one is.
    func testOnlyLeasesRedisClockHasPassedAreReaped() throws {
        let (live, _) = try runningJob(owner: "w/1", lease: 30)
        let (expired, _) = try expiredJob()
        let round = MaintenanceWork(config: config, logger: logger).round()
        XCTAssertNil(round.error)
        XCTAssertEqual(round.requeued, 1)
        XCTAssertEqual(try redisStalls(expired.jobId), 1)
        XCTAssertNotNil(try leaseDeadline(live.jobId), "still running in Redis")
        XCTAssertEqual(try jobRow(live.jobId).status, "running")
        XCTAssertNil(try redisStalls(live.jobId))
    }

    /// A retry PostgreSQL scheduled, restored into a Redis that lost it: it waits what is left of its
    /// delay by PostgreSQL's clock, counted from Redis's now (no host's time crosses over); one
    /// already due is ready at once.
    func testTheReconcilerRestoresARetryWithTheDelayLeftByPostgresClock() throws {
        let waiting = try db.startedRun(sport: .tennis), overdue = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try RunRepository(db).fail(waiting, message: "blip", kind: .transient, retryIn: 60))
        XCTAssertTrue(try RunRepository(db).fail(overdue, message: "blip", kind: .transient, retryIn: 60))
        try db.query("UPDATE jobs SET next_attempt_at = now() - interval '1 minute' WHERE id = $1", [overdue.jobId])
        // Older than the reconciler's settling time, so it treats them as lost by Redis.
        try db.query("UPDATE jobs SET updated_at = now() - interval '1 hour' WHERE id = ANY($1::uuid[])",
                     ["{\(waiting.jobId.uuidString.lowercased()),\(overdue.jobId.uuidString.lowercased())}"])

        XCTAssertEqual(try MaintenanceWork(config: config, logger: logger).reconcile(redis: redis, db: db), 2)
        let due = try XCTUnwrap(try redis.command("ZSCORE", "\(queue.prefix):delayed", waiting.jobId.uuidString.lowercased())
            .string.flatMap(Double.init))
        XCTAssertEqual(due - (try redisNow()), 60_000, accuracy: 2_000)
        XCTAssertEqual(try queue.claim(owner: "w/0", lease: 30, on: redis)?.jobId, overdue.jobId)
        XCTAssertNil(try queue.claim(owner: "w/0", lease: 30, on: redis), "the other is not due for a minute")
    }

    func testAFailureBetweenTheStoresDelaysTheStallButDoesNotLoseIt() throws {
        let (claim, work) = try stallWithPostgresGoneBeforeItIsWritten()
        XCTAssertTrue(try queue.holds(claim.jobId, on: redis), "Redis requeued it")
        XCTAssertEqual(try jobRow(claim.jobId).status, "running", "PostgreSQL was not told")

        // The next round, with PostgreSQL back, records the stall Redis kept.
        let second = work.round()
        XCTAssertNil(second.error)
        XCTAssertEqual(second.requeued, 1)
        let job = try jobRow(claim.jobId)
        XCTAssertEqual([job.status, "\(job.stalls)"], ["queued", "1"])
        XCTAssertEqual(try attemptOutcomes(claim.jobId), ["stalled"])
        XCTAssertEqual(try queue.stallReports(on: redis), [])

        let third = work.round()
        XCTAssertEqual(third.requeued, 0, "a recorded stall is not recorded again")
        XCTAssertEqual(try jobRow(claim.jobId).stalls, 1)
    }

    func testALateStallReportStillCountsWhenTheNextAttemptAlreadyStarted() throws {
        let (claim, work) = try stallWithPostgresGoneBeforeItIsWritten()

        // PostgreSQL comes back and a worker starts attempt 2 before the maintenance round.
        let next = try XCTUnwrap(try queue.claim(owner: "w/1", lease: 30, on: redis))
        XCTAssertEqual(next.attempt, 2)
        guard case .started = try RunRepository(db).start(jobId: claim.jobId, attempt: 2, worker: "w/1") else {
            return XCTFail("attempt 2 did not start")
        }
        XCTAssertEqual(try attemptOutcomes(claim.jobId), ["lost", nil])

        XCTAssertNil(work.round().error)
        let job = try jobRow(claim.jobId)
        XCTAssertEqual([job.status, "\(job.stalls)", "\(job.attempt)"], ["running", "1", "2"], "attempt 2 keeps running; the stall counts")
        XCTAssertEqual(try attemptOutcomes(claim.jobId), ["stalled", nil])
        XCTAssertEqual(try queue.stallReports(on: redis), [])
    }

    func testAStallReportRedisCannotReadIsRemovedNotRetriedForever() throws {
        try redis.command("HSET", "\(queue.prefix):stall_reports", "not-a-job", "requeued:1")
        XCTAssertEqual(try queue.stallReports(on: redis), [])
        XCTAssertEqual(try redis.command("HLEN", "\(queue.prefix):stall_reports").integer, 0)
    }

    func testAnotherCoordinatorTakesTheLockOverWhenTheHolderStopsRenewingIt() throws {
        config.queue.reaperIntervalSeconds = 0.1
        let holder = RoundLog<MaintenanceLoop.Round>(), standby = RoundLog<MaintenanceLoop.Round>()
        let first = MaintenanceLoop(config: config, logger: logger, onRound: holder.record)
        first.start()
        defer { first.stop() }
        try holder.awaitRound { $0.holdsLock }

        let second = MaintenanceLoop(config: config, logger: logger, onRound: standby.record)
        second.start()
        defer { second.stop() }
        try standby.awaitRound { _ in true }
        XCTAssertFalse(standby.rounds.contains { $0.holdsLock }, "the lock has one holder while it is renewed")

        // The holder stops (as if killed: it does not release the lock); the standby takes over
        // once the lock's time to live has passed.
        first.stop()
        let stoppedAt = Date()
        try standby.awaitRound(timeout: 30) { $0.holdsLock }
        XCTAssertGreaterThan(Date().timeIntervalSince(stoppedAt), 1, "not before the holder's lock expired")
    }

    /// A job whose lease expired; a reaper pass in which Redis decides the stall, then finds the
    /// connection to PostgreSQL gone before it can write it.
    private func stallWithPostgresGoneBeforeItIsWritten() throws -> (Claim, MaintenanceWork) {
        let (claim, _) = try expiredJob()
        let work = MaintenanceWork(config: config, logger: logger)
        let doomed = try database.connect()
        try killSession(of: doomed)
        var round = MaintenanceLoop.Round()
        XCTAssertThrowsError(try work.reap(redis: redis, db: doomed, into: &round))
        return (claim, work)
    }

    private func killSession(of connection: PGConnection) throws {
        let pid = try XCTUnwrap(try connection.query("SELECT pg_backend_pid() AS pid").rows.first).int("pid")
        try database.connectToServer().query("SELECT pg_terminate_backend($1)", [pid])
    }
}
