import Foundation
import Queue
import ReelworkCore
import TestSupport
import XCTest

/// The Redis client and queue against a real Redis (scripts/test.sh starts one).
final class JobQueueTests: XCTestCase {
    var redis: RedisConnection!
    var queue: JobQueue!

    override func setUpWithError() throws {
        guard let url = ProcessInfo.processInfo.environment["REELWORK_TEST_REDIS_URL"] else {
            XCTFail("set REELWORK_TEST_REDIS_URL (scripts/test.sh does)")
            throw ReelworkError.configuration("no test Redis")
        }
        redis = try RedisConnection(RedisURL(parsing: url))
        queue = JobQueue(prefix: "qtest:\(UUID().uuidString.lowercased())")
    }

    override func tearDownWithError() throws {
        if case .array(let keys) = try redis.command("KEYS", "\(queue.prefix):*"), !keys.isEmpty {
            try redis.command(["DEL"] + keys.compactMap(\.string))
        }
    }

    let lease: TimeInterval = 30

    func claim(_ owner: String = "w") throws -> Claim? {
        try queue.claim(owner: owner, lease: lease, on: redis)
    }

    /// Redis's clock in milliseconds: the one every lease and due time is measured by.
    func redisNow() throws -> Double {
        let parts = try XCTUnwrap(try redis.command("TIME").array?.compactMap(\.string).compactMap(Double.init))
        return parts[0] * 1000 + (parts[1] / 1000).rounded(.down)
    }

    /// Milliseconds from Redis's now until the score `id` has in `set` (`running`: the lease's
    /// deadline; `delayed`: the retry's due time).
    func millisLeft(_ id: UUID, in set: String) throws -> Double {
        let score = try XCTUnwrap(try redis.command("ZSCORE", "\(queue.prefix):\(set)", id.uuidString.lowercased()).string.flatMap(Double.init))
        return score - (try redisNow())
    }

    /// Runs reaper passes until one does something (a lease expired, a retry came due) by Redis's
    /// clock; the leases and delays these tests use are fractions of a second.
    func reapUntilSomethingHappens(maxStalls: Int = 3) throws -> JobQueue.ReapResult {
        try Eventually.value(timeout: 10, interval: 0.01, "a reaper pass that expired a lease or promoted a retry") {
            let result = try queue.reap(maxStalls: maxStalls, on: redis)
            return result.expired.isEmpty && result.promoted.isEmpty ? nil : result
        }
    }

    func testClaimsInOrderWithinAClubAndRecordsTheLeaseAtomically() throws {
        let ids = (0..<3).map { _ in UUID() }
        for id in ids { XCTAssertTrue(try queue.enqueue(id, club: "a", on: redis)) }
        let first = try XCTUnwrap(try claim("w1"))
        XCTAssertEqual(first, Claim(jobId: ids[0], attempt: 1, club: "a"))
        XCTAssertEqual(try redis.command("HGET", "\(queue.prefix):lease:\(ids[0].uuidString.lowercased())", "owner").string, "w1")
        XCTAssertEqual(try claim("w2")?.jobId, ids[1])
        let stats = try queue.stats(on: redis)
        XCTAssertEqual([stats.ready, stats.running], [1, 2])
        XCTAssertEqual(stats.runningByClub, ["a": 2])
        XCTAssertEqual(stats.readyByClub, ["a": 1], "what the metrics' waiting gauge shows")
    }

    func testEnqueueIsIdempotentWhileRedisHoldsTheJob() throws {
        let id = UUID()
        XCTAssertTrue(try queue.enqueue(id, club: "a", on: redis))
        XCTAssertFalse(try queue.enqueue(id, club: "a", on: redis), "already waiting")
        _ = try claim()
        XCTAssertFalse(try queue.enqueue(id, club: "a", on: redis), "already running")
        XCTAssertEqual(try queue.stats(on: redis).ready, 0)
    }

    func testManyJobsAreEnqueuedInSlicesAndOnesRedisHoldsAreLeftAlone() throws {
        let held = UUID()
        XCTAssertTrue(try queue.enqueue(held, club: "a", on: redis))
        let entries = [JobQueue.Entry(id: held, club: "a")]
            + (1..<2_500).map { JobQueue.Entry(id: UUID(), club: $0 % 2 == 0 ? "a" : "b", priority: .low) }
        XCTAssertEqual(try queue.enqueue(entries, on: redis), 2_499, "three slices, the held job not added twice")
        XCTAssertEqual(try queue.stats(on: redis).ready, 2_500)
        let first = try XCTUnwrap(try queue.claim(owner: "w", lease: 30, on: redis))
        XCTAssertEqual(first.jobId, held, "the job held before keeps its place")
    }

    func testClubsAreServedRoundRobinAndPriorityOrdersAClubsOwnJobs() throws {
        let a = (0..<5).map { _ in UUID() }
        for id in a { try queue.enqueue(id, club: "A", on: redis) }
        let b = UUID(), urgent = UUID()
        try queue.enqueue(b, club: "B", on: redis)
        try queue.enqueue(urgent, club: "A", priority: .high, on: redis)
        let order = try (0..<4).map { _ in try XCTUnwrap(try claim()).jobId }
        XCTAssertEqual(order, [urgent, b, a[0], a[1]], "A's high-priority job first, then B's single job, then A in order")
    }

    func testGlobalAndClubCapsHold() throws {
        try queue.configure(globalCap: 3, clubCap: 2, on: redis)
        for _ in 0..<4 { try queue.enqueue(UUID(), club: "A", on: redis) }
        for _ in 0..<4 { try queue.enqueue(UUID(), club: "B", on: redis) }
        var claims: [Claim] = []
        while let c = try claim() { claims.append(c) }
        XCTAssertEqual(claims.count, 3, "global cap")
        XCTAssertLessThanOrEqual(Dictionary(grouping: claims, by: \.club).mapValues(\.count).values.max() ?? 0, 2)
        try queue.finish(claims[0], owner: "w", outcome: .done, on: redis)
        XCTAssertNotNil(try claim(), "a finished job frees its slot")
        try queue.configure(globalCap: 0, clubCap: 2, on: redis)
        var more: [Claim] = []
        while let c = try claim() { more.append(c) }
        let running = try queue.stats(on: redis).runningByClub
        XCTAssertEqual(running, ["A": 2, "B": 2], "per-club cap alone")
    }

    func testHeartbeatsKeepTheLeaseAndALostRunCanChangeNothing() throws {
        let id = UUID(), unrenewed = UUID()
        try queue.enqueue(id, club: "a", on: redis)
        try queue.enqueue(unrenewed, club: "b", on: redis)
        let mine = try XCTUnwrap(try queue.claim(owner: "w1", lease: 0.3, on: redis))
        XCTAssertEqual(mine.jobId, id)
        // Claimed after mine with the same lease, never renewed: once it expires, mine would have too.
        XCTAssertEqual(try queue.claim(owner: "w0", lease: 0.3, on: redis)?.jobId, unrenewed)
        XCTAssertEqual(try queue.heartbeat(mine, owner: "w1", lease: 30, on: redis), .ok)
        XCTAssertEqual(try millisLeft(id, in: "running"), 30_000, accuracy: 1_000, "renewed to Redis's now + the lease")
        let first = try reapUntilSomethingHappens()
        XCTAssertEqual(first.expired.map(\.jobId), [unrenewed], "the renewed lease outlives its first deadline")
        XCTAssertEqual(try queue.cancel(unrenewed, on: redis), .removed)   // out of the way of the claims below

        XCTAssertEqual(try queue.heartbeat(mine, owner: "w1", lease: 0.2, on: redis), .ok)   // its last beat
        let reaped = try reapUntilSomethingHappens()
        XCTAssertEqual(reaped.expired, [.init(jobId: id, attempt: 1, verdict: .requeued, stalls: 1)])
        let theirs = try XCTUnwrap(try queue.claim(owner: "w2", lease: 5, on: redis))
        XCTAssertEqual(theirs.attempt, 2, "the attempt is the fencing token")
        XCTAssertEqual(try queue.heartbeat(mine, owner: "w1", lease: 5, on: redis), .lost)
        XCTAssertFalse(try queue.finish(mine, owner: "w1", outcome: .done, on: redis), "the lost run cannot finish it")
        XCTAssertEqual(try queue.stats(on: redis).running, 1, "theirs")
        XCTAssertTrue(try queue.finish(theirs, owner: "w2", outcome: .done, on: redis))
        XCTAssertFalse(try queue.holds(id, on: redis))
    }

    func testAStalledJobGoesFirstInLineAndFailsAfterMaxStalls() throws {
        let stalled = UUID(), other = UUID()
        try queue.enqueue(stalled, club: "a", on: redis)
        try queue.enqueue(other, club: "a", on: redis)
        for round in 1...3 {
            let c = try XCTUnwrap(try queue.claim(owner: "w", lease: 0.05, on: redis))
            XCTAssertEqual(c.jobId, stalled, "round \(round): the stalled job is next in line")
            let verdict = try reapUntilSomethingHappens(maxStalls: 2).expired.first
            XCTAssertEqual(verdict?.stalls, round)
            XCTAssertEqual(verdict?.verdict, round <= 2 ? .requeued : .failed)
        }
        XCTAssertFalse(try queue.holds(stalled, on: redis), "failed for good: Redis forgets it")
        XCTAssertEqual(try claim()?.jobId, other)
    }

    func testRetriesWaitInTheDelayedSetUntilDue() throws {
        let later = UUID(), soon = UUID()
        try queue.enqueue(later, club: "a", on: redis)
        try queue.enqueue(soon, club: "b", on: redis)
        let (first, second) = (try XCTUnwrap(try claim()), try XCTUnwrap(try claim()))
        XCTAssertEqual([first.jobId, second.jobId], [later, soon])
        XCTAssertTrue(try queue.finish(first, owner: "w", outcome: .retry(after: 60), on: redis))
        XCTAssertEqual(try millisLeft(later, in: "delayed"), 60_000, accuracy: 1_000, "due a delay after Redis's now")
        XCTAssertNil(try claim(), "not before it is due")
        XCTAssertEqual(try queue.reap(maxStalls: 3, on: redis).promoted, [])

        XCTAssertTrue(try queue.finish(second, owner: "w", outcome: .retry(after: 0.2), on: redis))
        XCTAssertEqual(try reapUntilSomethingHappens().promoted, [soon], "due, unlike the one a minute away")
        XCTAssertEqual(try claim(), Claim(jobId: soon, attempt: 2, club: "b"))
        XCTAssertNil(try claim())
    }

    /// A job put in Redis with a delay (a retry the reconciler restores from PostgreSQL) waits that
    /// long by Redis's clock.
    func testAnEnqueuedDelayCountsFromRedisClock() throws {
        let delayed = UUID(), overdue = UUID()
        XCTAssertTrue(try queue.enqueue(delayed, club: "a", delay: 45, on: redis))
        XCTAssertEqual(try millisLeft(delayed, in: "delayed"), 45_000, accuracy: 1_000)
        XCTAssertEqual(try queue.enqueue([JobQueue.Entry(id: overdue, club: "a", delay: -5)], on: redis), 1)
        XCTAssertEqual(try claim()?.jobId, overdue, "an overdue retry is ready at once")
        XCTAssertNil(try claim())
    }

    func testHandBackPutsTheJobFirstInLine() throws {
        let first = UUID(), second = UUID()
        try queue.enqueue(first, club: "a", on: redis)
        try queue.enqueue(second, club: "a", on: redis)
        let c = try XCTUnwrap(try claim())
        XCTAssertTrue(try queue.finish(c, owner: "w", outcome: .handBack, on: redis))
        XCTAssertEqual(try claim(), Claim(jobId: first, attempt: 2, club: "a"))
    }

    /// A claim whose attempt PostgreSQL never started (it refused the start) gives its number back.
    func testAnUnstartedHandBackGivesItsAttemptNumberBack() throws {
        let job = UUID()
        try queue.enqueue(job, club: "a", on: redis)
        for _ in 0..<3 {
            let c = try XCTUnwrap(try claim())
            XCTAssertEqual(c.attempt, 1)
            XCTAssertTrue(try queue.finish(c, owner: "w", outcome: .handBackUnstarted, on: redis))
        }
        XCTAssertEqual(try claim(), Claim(jobId: job, attempt: 1, club: "a"), "first in line, still at attempt 1")
    }

    func testCancelRemovesAWaitingJobAndSignalsARunningOne() throws {
        let waiting = UUID(), running = UUID()
        try queue.enqueue(running, club: "a", on: redis)
        try queue.enqueue(waiting, club: "a", on: redis)
        let c = try XCTUnwrap(try claim())
        XCTAssertEqual(try queue.cancel(waiting, on: redis), .removed)
        XCTAssertNil(try claim())
        XCTAssertEqual(try queue.cancel(running, on: redis), .signalled)
        XCTAssertEqual(try queue.heartbeat(c, owner: "w", lease: lease, on: redis), .cancel)
        XCTAssertEqual(try queue.cancel(UUID(), on: redis), .absent)
    }

    /// Arguments reach Redis whole: many of them at once, empty ones, non-ASCII, and a U+0000 in
    /// the middle (the client passes lengths, so nothing is cut at a NUL).
    func testCommandArgumentsArriveByteForByte() throws {
        let key = "\(queue.prefix):bytes"
        let values = ["", "plain", "naïve ✓ 🎾", "before\u{0}after", String(repeating: "x", count: 100_000)]
        var fields: [String] = []
        for (index, value) in values.enumerated() { fields += ["f\(index)", value] }
        try redis.command(["HSET", key] + fields)
        let stored = try redis.command(["HMGET", key] + values.indices.map { "f\($0)" }).array?.map(\.string)
        XCTAssertEqual(stored, values)
        XCTAssertEqual(try redis.command("HSTRLEN", key, "f3").integer, 12)
    }

    func testAFlushedRedisLetsTheRunningOwnerAdoptItsJobAtItsPriority() throws {
        let id = UUID()
        let jobKey = "\(queue.prefix):job:\(id.uuidString.lowercased())"
        try queue.enqueue(id, club: "a", priority: .high, on: redis)
        let c = try XCTUnwrap(try claim())
        XCTAssertEqual(c.priority, .high)
        try redis.command(["DEL", "\(queue.prefix):lease:\(id.uuidString.lowercased())", jobKey,
                           "\(queue.prefix):running", "\(queue.prefix):club_running"])
        XCTAssertEqual(try queue.heartbeat(c, owner: "w", lease: lease, on: redis), .ok)
        XCTAssertTrue(try queue.holds(id, on: redis))
        XCTAssertEqual(try redis.command("HGET", jobKey, "priority").string, "high", "a retry of the adopted job keeps its place")
        XCTAssertTrue(try queue.finish(c, owner: "w", outcome: .done, on: redis))
    }

    /// The race a heartbeat thread runs: it took its list of runs, then one of them finished (its
    /// lease ended, Redis forgot the job), then the heartbeat went out for it. It must not bring
    /// the finished job back as a phantom running one (holding a cap slot until reaped as a stall).
    func testAHeartbeatForARunThatJustFinishedDoesNotReviveTheJob() throws {
        let id = UUID()
        try queue.enqueue(id, club: "a", on: redis)
        let c = try XCTUnwrap(try claim())
        let snapshot = [c]                                    // the heartbeat thread's list
        XCTAssertTrue(try queue.finish(c, owner: "w", outcome: .done, on: redis))   // the slot finishes meanwhile
        for run in snapshot {
            XCTAssertEqual(try queue.heartbeat(run, owner: "w", lease: lease, on: redis), .lost)
        }
        XCTAssertFalse(try queue.holds(id, on: redis), "no phantom running job")
        XCTAssertEqual(try queue.stats(on: redis).running, 0)
        XCTAssertEqual(try queue.stats(on: redis).runningByClub, [:])
        // The same for a job the reaper failed for good after its last stall.
        let doomed = UUID()
        try queue.enqueue(doomed, club: "a", on: redis)
        let last = try XCTUnwrap(try queue.claim(owner: "w", lease: 0.05, on: redis))
        XCTAssertEqual(try reapUntilSomethingHappens(maxStalls: 0).expired.first?.verdict, .failed)
        XCTAssertEqual(try queue.heartbeat(last, owner: "w", lease: lease, on: redis), .lost)
        XCTAssertFalse(try queue.holds(doomed, on: redis))
    }

    /// No trace of a job can also mean another run finished it after this run's lease expired: the
    /// old owner may take it back only while the caps have room.
    func testAnOwnerWhoseJobVanishedCannotAdoptItPastTheCaps() throws {
        try queue.configure(globalCap: 1, clubCap: 0, on: redis)
        let old = UUID(), other = UUID()
        try queue.enqueue(old, club: "a", on: redis)
        let stale = try XCTUnwrap(try claim())
        // Its lease expired and another run finished it; a new job now holds the only slot.
        try redis.command(["DEL", "\(queue.prefix):lease:\(old.uuidString.lowercased())", "\(queue.prefix):job:\(old.uuidString.lowercased())",
                           "\(queue.prefix):running", "\(queue.prefix):club_running"])
        try queue.enqueue(other, club: "b", on: redis)
        XCTAssertEqual(try claim()?.jobId, other)
        XCTAssertEqual(try queue.heartbeat(stale, owner: "w", lease: lease, on: redis), .lost, "the cap is full")
        XCTAssertFalse(try queue.holds(old, on: redis))
        XCTAssertEqual(try queue.stats(on: redis).running, 1)
    }

    func testWaitForWorkBlocksUntilAJobIsEnqueued() throws {
        XCTAssertNil(try claim())
        let started = Date()
        try queue.waitForWork(timeout: 0.3, on: redis)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25, "a blocking wait, not an instant poll")
        let url = redis.url, queue = self.queue!, id = UUID()
        Thread.detachNewThread {
            // Enqueue once Redis counts a client blocked in BLPOP (this test's), so the wake-up is what ends the wait.
            guard let other = try? RedisConnection(url) else { return }
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, (try? other.command("INFO", "clients").string)?.contains("blocked_clients:0") != false {
                Thread.sleep(forTimeInterval: 0.005)
            }
            _ = try? queue.enqueue(id, club: "a", on: other)
        }
        let woke = Date()
        try queue.waitForWork(timeout: 5, on: redis)
        XCTAssertLessThan(Date().timeIntervalSince(woke), 2)
        XCTAssertEqual(try claim()?.jobId, id)
    }

    func testTheMaintenanceLockHasOneHolder() throws {
        XCTAssertTrue(try queue.acquireLock("m", owner: "c1", ttl: 5, on: redis))
        XCTAssertFalse(try queue.acquireLock("m", owner: "c2", ttl: 5, on: redis))
        XCTAssertTrue(try queue.acquireLock("m", owner: "c1", ttl: 5, on: redis), "the holder renews")
    }

    func testScriptsSurviveAFlushedScriptCache() throws {
        try queue.enqueue(UUID(), club: "a", on: redis)
        try redis.command("SCRIPT", "FLUSH")
        XCTAssertNotNil(try claim())
    }

    func testServerErrorsCarryRedisMessage() throws {
        XCTAssertThrowsError(try redis.command("NOSUCHCOMMAND")) { error in
            let redisError = error as? RedisError
            XCTAssertEqual(redisError?.source, .server)
            XCTAssertTrue(redisError?.message.lowercased().contains("unknown command") ?? false, "\(error)")
        }
        XCTAssertTrue(redis.isHealthy, "an error reply does not break the connection")
        XCTAssertEqual(try redis.command("PING"), .status("PONG"))
    }

    func testConnectionRefusedIsTransient() throws {
        XCTAssertThrowsError(try RedisConnection(RedisURL(host: "127.0.0.1", port: 1), timeout: 1)) { error in
            XCTAssertEqual((error as? RedisError)?.kind, .transient)
            XCTAssertTrue("\(error)".contains("127.0.0.1:1"), "\(error)")
        }
    }

    func testRepliesOfEveryShapeDecode() throws {
        let key = "\(queue.prefix):shape"
        XCTAssertEqual(try redis.command("SET", key, "héllo wörld"), .status("OK"))
        XCTAssertEqual(try redis.command("GET", key), .string("héllo wörld"))
        XCTAssertEqual(try redis.command("GET", "\(key):missing"), .null)
        XCTAssertEqual(try redis.command("RPUSH", "\(key):l", "a", "b"), .integer(2))
        XCTAssertEqual(try redis.command("LRANGE", "\(key):l", "0", "-1"), .array([.string("a"), .string("b")]))
        try redis.command("DEL", key, "\(key):l")
    }
}

final class RedisURLTests: XCTestCase {
    func testParsesEveryPart() throws {
        XCTAssertEqual(try RedisURL(parsing: "redis://10.0.0.5:6390/3"), RedisURL(host: "10.0.0.5", port: 6390, database: 3))
        XCTAssertEqual(try RedisURL(parsing: "redis://localhost"), RedisURL(host: "localhost", port: 6379, database: 0))
        XCTAssertEqual(try RedisURL(parsing: "redis://:secret@h:1/0").password, "secret")
    }

    func testRejectsWhatIsNotARedisURL() {
        for bad in ["http://h:1/0", "redis://h:99999/0", "redis://h:1/x", "redis://"] {
            XCTAssertThrowsError(try RedisURL(parsing: bad)) { error in
                XCTAssertTrue("\(error)".contains(bad), "the error quotes the value: \(error)")
            }
        }
    }
}
