import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import XCTest

/// The queue's guarantees under failure, with real worker processes killed and real servers restarted.
/// Each test is bounded in time (leases of 3 s, reaper every 0.2 s: see TestStack.fastQueue).
final class ChaosTests: QueueStackTestCase {
    func waitRunning(_ id: UUID, timeout: TimeInterval = 20) throws {
        XCTAssertTrue(try stack.waitUntil(timeout: timeout) { try stack.status(id) == "running" }, "job never started:\n\(stack.logTail())")
    }

    func attemptOutcomes(_ id: UUID) throws -> [String] {
        try stack.db().query("SELECT outcome FROM job_attempts WHERE job_id = $1 ORDER BY attempt", [id]).rows.map { $0["outcome"] ?? "open" }
    }

    func resultCount(_ id: UUID) throws -> Int {
        Int(try stack.db().query("SELECT count(*) AS n FROM results WHERE job_id = $1", [id]).rows[0]["n"] ?? "") ?? -1
    }

    func test_SIGKILLedWorkersJobCompletesOnAnotherWorkerWithOneResultAndTheStallRecorded() throws {
        let doomed = try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 4, tag: 1)
        try waitRunning(job.id)
        kill(doomed.processIdentifier, SIGKILL)
        doomed.waitUntilExit()
        try stack.startWorker()

        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .succeeded, stack.logTail())
        XCTAssertEqual(done.stalls, 1)
        XCTAssertEqual(done.failures, 0, "a lost worker is a stall, not an error")
        XCTAssertEqual(done.attempt, 2)
        XCTAssertEqual(try attemptOutcomes(job.id), ["stalled", "succeeded"])
        XCTAssertEqual(try resultCount(job.id), 1)
    }

    func test_SIGTERMedWorkerHandsItsJobBackAndAnotherCompletesIt() throws {
        let leaving = try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 6, tag: 2)
        try waitRunning(job.id)
        let signalled = Date()
        leaving.terminate()
        XCTAssertTrue(stack.waitUntil(timeout: 10) { !leaving.isRunning }, "the worker exits after its grace period")
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 6, "it did not wait for the 6 s job to finish")
        XCTAssertEqual(leaving.terminationStatus, 0)
        XCTAssertEqual(try stack.status(job.id), "queued", "handed back, never marked failed")
        try stack.startWorker()

        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .succeeded)
        XCTAssertEqual(done.failures, 0)
        XCTAssertEqual(try attemptOutcomes(job.id), ["handed_back", "succeeded"])
        XCTAssertEqual(try resultCount(job.id), 1)
    }

    /// Submits `count` jobs, runs `disturb` once some are running, and checks every job succeeds once.
    func runThrough(_ count: Int, seconds: Double, workers: Int, timeout: TimeInterval, disturb: () throws -> Void) throws {
        for _ in 0..<workers { try stack.startWorker(slots: 2) }
        let jobs = try (0..<count).map { try stack.submitNoop(video: video, seconds: seconds, tag: 100 + $0) }
        XCTAssertTrue(try stack.waitUntil(timeout: 20) {
            (try stack.db().query("SELECT count(*) AS n FROM jobs WHERE status = 'running'").rows[0]["n"] ?? "0") != "0"
        })
        try disturb()
        for job in jobs {
            let done = try stack.waitForTerminal(job.id, timeout: timeout)
            XCTAssertEqual(done.status, .succeeded, "\(job.id): \(done.lastError ?? "")\n\(stack.logTail())")
            XCTAssertEqual(try resultCount(job.id), 1)
        }
    }

    func test_RedisRestartedMidRunLosesNoJob() throws {
        try runThrough(12, seconds: 1, workers: 2, timeout: 60) { try stack.restartRedis() }
    }

    func test_RedisFlushedMidRunLosesNoJob() throws {
        try runThrough(12, seconds: 1, workers: 2, timeout: 60) {
            try stack.redis().command("FLUSHALL")
        }
    }

    func test_PostgresRestartedMidRunLosesNoJob() throws {
        try runThrough(12, seconds: 1, workers: 2, timeout: 90) { try stack.restartPostgres(downFor: 2) }
    }

    func test_200JobsWhileWorkersAreKilledAndRestarted_eachEndsOnceAndCapsHold() throws {
        stack.shutdown()
        stack = try TestStack(settings: TestStack.fastQueue.merging(["REELWORK_GLOBAL_CAP": "5", "REELWORK_CLUB_CAP": "3"]) { $1 })
        try stack.startCoordinator()
        video = try stack.uploadTinyClip()
        var workers = try (0..<3).map { _ in try stack.startWorker(slots: 2) }

        let jobs = try (0..<200).map { i in try stack.submitNoop(video: video, club: i % 2 == 0 ? "even" : "odd", seconds: 0.3, tag: 1000 + i) }

        // Sample Redis's running set throughout, from a thread of its own.
        let sampler = QueueStatsSampler(queue: JobQueue(prefix: stack.queuePrefix), url: try RedisURL(parsing: stack.redisURL), interval: 0.1)
        sampler.start()
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        let deadline = Date().addingTimeInterval(150)
        while Date() < deadline {
            let open = try stack.db().query("SELECT count(*) AS n FROM jobs WHERE status NOT IN ('succeeded', 'failed', 'cancelled')").rows[0]["n"]
            if open == "0" { break }
            Thread.sleep(forTimeInterval: Double.random(in: 2...4, using: &generator))
            let victim = Int.random(in: 0..<workers.count, using: &generator)
            kill(workers[victim].processIdentifier, SIGKILL)
            workers[victim].waitUntilExit()
            kills += 1
            workers[victim] = try stack.startWorker(slots: 2)
        }
        let samples = sampler.stop()

        let rows = try stack.db().query("""
            SELECT j.id, j.status, (SELECT count(*) FROM results r WHERE r.job_id = j.id) AS results,
                   (SELECT count(*) FROM job_attempts a WHERE a.job_id = j.id AND a.outcome = 'succeeded') AS wins
            FROM jobs j WHERE j.id = ANY($1::uuid[])
            """, ["{" + jobs.map { $0.id.uuidString.lowercased() }.joined(separator: ",") + "}"]).rows
        XCTAssertEqual(rows.count, 200, "no job lost")
        XCTAssertEqual(rows.filter { $0["status"] == "succeeded" }.count, 200, "every job ended succeeded:\n\(stack.logTail())")
        XCTAssertTrue(rows.allSatisfy { $0["results"] == "1" }, "exactly one result per job")
        XCTAssertTrue(rows.allSatisfy { $0["wins"] == "1" }, "exactly one succeeded attempt per job")
        XCTAssertGreaterThan(kills, 2, "the test really killed workers")
        XCTAssertGreaterThan(samples.count, 50, "caps were sampled throughout")
        XCTAssertLessThanOrEqual(samples.map(\.running).max() ?? 0, 5, "global cap")
        XCTAssertLessThanOrEqual(samples.flatMap { $0.runningByClub.values }.max() ?? 0, 3, "per-club cap")
        print("chaos: 200 jobs, \(kills) workers killed, \(samples.count) cap samples, peak running \(samples.map(\.running).max() ?? 0)")
    }

    func test_ASingleJobOfAnotherClubIsNotStuckBehindABulkUpload() throws {
        let slots = 2
        try stack.startWorker(slots: slots)
        let bulk = try (0..<100).map { try stack.submitNoop(video: video, club: "A", seconds: 0.2, tag: 2000 + $0) }
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(bulk[0].id) != "queued" })
        let single = try stack.submitNoop(video: video, club: "B", seconds: 0.2, tag: 3000)
        XCTAssertTrue(try stack.waitUntil(timeout: 30) { try stack.status(single.id) == "succeeded" })
        let row = try stack.db().query("""
            SELECT count(*) AS n FROM jobs a, jobs b
            WHERE b.id = $1 AND a.club = 'A' AND a.started_at > b.created_at AND a.started_at < b.started_at
            """, [single.id]).rows[0]
        let overtaken = Int(row["n"] ?? "") ?? -1
        XCTAssertLessThanOrEqual(overtaken, slots, "A's queue advanced by \(overtaken) jobs before B's started")
        XCTAssertGreaterThan(try stack.db().query("SELECT count(*) AS n FROM jobs WHERE club = 'A' AND status = 'queued'").rows[0]["n"].flatMap { Int($0) } ?? 0, 50,
                             "B started long before A's bulk was done")
    }
}
