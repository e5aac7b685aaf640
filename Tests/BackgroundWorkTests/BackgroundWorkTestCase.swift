import Foundation
import Queue
import ReelworkCore
import Store
import Tennis
import TestSupport
import XCTest

/// A fresh migrated database, a queue prefix of its own on the test Redis, and the configuration
/// that points a coordinator's or a worker's background loops at both.
class BackgroundWorkTestCase: MigratedDatabaseTestCase {
    var redis: RedisConnection!
    var queue: JobQueue!
    var config: ReelworkConfig!

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard let url = ProcessInfo.processInfo.environment["REELWORK_TEST_REDIS_URL"] else {
            throw TestSetupError(description: "set REELWORK_TEST_REDIS_URL (scripts/test.sh does)")
        }
        config = try ReelworkConfig.fromEnvironment([:])
        config.databaseURL = database.url
        config.redisURL = url
        config.queuePrefix = "bgtest:\(UUID().uuidString.lowercased())"
        redis = try RedisConnection(RedisURL(parsing: url))
        queue = JobQueue(config: config)
    }

    override func tearDown() {
        if let redis, let queue, case .array(let keys)? = try? redis.command("KEYS", "\(queue.prefix):*"), !keys.isEmpty {
            _ = try? redis.command(["DEL"] + keys.compactMap(\.string))
        }
        super.tearDown()
    }

    /// A job running in both stores, as a worker's claim leaves it: leased in Redis for `lease`
    /// seconds of Redis's clock, its attempt started in PostgreSQL.
    func runningJob(owner: String = "w/0", lease: TimeInterval) throws -> (claim: Claim, run: ClaimedRun) {
        let started = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try queue.enqueue(started.jobId, club: "c", on: redis))
        let claim = try XCTUnwrap(try queue.claim(owner: owner, lease: lease, on: redis))
        XCTAssertEqual(claim.jobId, started.jobId)
        XCTAssertEqual(claim.attempt, started.attempt)
        return (claim, started)
    }

    /// A running job whose lease has expired: leased briefly, then waited out until Redis's clock
    /// (the only one leases are measured by) has passed its deadline. Not yet reaped.
    func expiredJob(owner: String = "w/0") throws -> (claim: Claim, run: ClaimedRun) {
        let job = try runningJob(owner: owner, lease: 0.05)
        let deadline = try XCTUnwrap(try leaseDeadline(job.claim.jobId))
        _ = try Eventually.value(timeout: 10, interval: 0.01, "Redis's clock past the lease's deadline") {
            try redisNow() > deadline ? true : nil
        }
        return job
    }

    /// Redis's clock in milliseconds.
    func redisNow() throws -> Double {
        let parts = try XCTUnwrap(try redis.command("TIME").array?.compactMap(\.string).compactMap(Double.init))
        return parts[0] * 1000 + (parts[1] / 1000).rounded(.down)
    }

    /// The job's row, as the reaper and the reconciler leave it.
    func jobRow(_ id: UUID) throws -> (status: String, stalls: Int, attempt: Int) {
        let row = try XCTUnwrap(try db.query("SELECT status, stalls, attempt FROM jobs WHERE id = $1", [id]).rows.first)
        return (try row.string("status"), try row.int("stalls"), try row.int("attempt"))
    }

    /// How each attempt of the job ended (nil: still open).
    func attemptOutcomes(_ id: UUID) throws -> [String?] {
        try db.query("SELECT outcome FROM job_attempts WHERE job_id = $1 ORDER BY attempt", [id]).rows.map { $0["outcome"] }
    }

    /// Redis's own stall count for the job.
    func redisStalls(_ id: UUID) throws -> Int? {
        try redis.command("HGET", "\(queue.prefix):job:\(id.uuidString.lowercased())", "stalls").string.flatMap { Int($0) }
    }

    /// The lease deadline Redis holds for the job, in milliseconds.
    func leaseDeadline(_ id: UUID) throws -> Double? {
        try redis.command("ZSCORE", "\(queue.prefix):running", id.uuidString.lowercased()).string.flatMap { Double($0) }
    }
}
