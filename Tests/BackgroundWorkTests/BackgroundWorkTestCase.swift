import Foundation
import Queue
import ReelworkCore
import Store
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

    /// A job running in both stores, as a worker's claim leaves it: leased in Redis until
    /// `leaseEnds` (in the past: already expired), its attempt started in PostgreSQL.
    func runningJob(owner: String = "w/0", leaseEnds: Date) throws -> (claim: Claim, run: ClaimedRun) {
        let started = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try queue.enqueue(started.jobId, club: "c", on: redis))
        let lease = 30.0
        let claim = try XCTUnwrap(try queue.claim(owner: owner, lease: lease, now: leaseEnds.addingTimeInterval(-lease), on: redis))
        XCTAssertEqual(claim.jobId, started.jobId)
        XCTAssertEqual(claim.attempt, started.attempt)
        return (claim, started)
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
