import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import XCTest

/// Retries, permanent failures, cancel, idempotent submission and operator retries, end to end.
final class QueueBehaviourTests: QueueStackTestCase {
    /// (scheduled wait, attempt ended, next attempt started) for each retried attempt, from PostgreSQL.
    func retryWaits(_ id: UUID) throws -> [(scheduled: Double, started: Double)] {
        try stack.db().query("""
            SELECT extract(epoch FROM a.retry_at - a.finished_at)::float8 AS scheduled,
                   extract(epoch FROM n.started_at - a.retry_at)::float8 AS late
            FROM job_attempts a JOIN job_attempts n ON n.job_id = a.job_id AND n.attempt = a.attempt + 1
            WHERE a.job_id = $1 AND a.outcome = 'retry' ORDER BY a.attempt
            """, [id]).rows.map { (try $0.double("scheduled"), try $0.double("late")) }
    }

    func testTransientErrorsRetryWithGrowingBackoffUntilTheyPass() throws {
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 1, extra: ["failAttempts": .number(2)])
        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .succeeded)
        XCTAssertEqual(done.attempt, 3)
        XCTAssertEqual(done.failures, 2)
        XCTAssertEqual(done.attempts.map(\.outcome), ["retry", "retry", "succeeded"])
        XCTAssertEqual(done.attempts.first?.errorKind, "transient")
        // Backoff base 0.2 s, factor 2, equal jitter: after failure n the wait is in
        // [d/2, d] for d = 0.2 × 2^(n−1), i.e. [0.1, 0.2] then [0.2, 0.4]. The scheduled time is
        // computed just before the statement that records the failure, so it may come out a few
        // milliseconds short of d/2; it can never exceed d. No attempt starts before it is due.
        let waits = try retryWaits(job.id)
        XCTAssertEqual(waits.count, 2)
        for (n, wait) in waits.enumerated() {
            let full = 0.2 * pow(2, Double(n))
            XCTAssertGreaterThanOrEqual(wait.scheduled, full / 2 - 0.05, "retry \(n + 1): at least half the backoff")
            XCTAssertLessThanOrEqual(wait.scheduled, full, "retry \(n + 1): at most the backoff")
            XCTAssertGreaterThanOrEqual(wait.started, 0, "retry \(n + 1) started before it was due")
        }
    }

    /// Past the cap every wait is in [cap/2, cap], however many failures came before.
    func testRetryBackoffStopsGrowingAtTheCap() throws {
        stack.shutdown()
        stack = try TestStack(settings: TestStack.fastQueue.merging([QueueSettings.Env.retryBaseSeconds: "0.2",
                                                                    QueueSettings.Env.retryFactor: "4",
                                                                    QueueSettings.Env.retryCapSeconds: "0.5"]) { $1 })
        try stack.startCoordinator()
        video = try stack.uploadTinyClip()
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 11, extra: ["failAttempts": .number(3)], maxAttempts: 4)
        XCTAssertEqual(try stack.waitForTerminal(job.id, timeout: 30).status, .succeeded)
        let waits = try retryWaits(job.id).map(\.scheduled)
        XCTAssertEqual(waits.count, 3)
        // 0.2, then 0.8 and 3.2 uncapped: both capped to 0.5.
        for (n, (wait, full)) in zip(waits, [0.2, 0.5, 0.5]).enumerated() {
            XCTAssertGreaterThanOrEqual(wait, full / 2 - 0.05, "retry \(n + 1)")
            XCTAssertLessThanOrEqual(wait, full, "retry \(n + 1)")
        }
    }

    /// PostgreSQL refuses the run's result (here a CHECK constraint; in life a value it cannot
    /// store): each attempt fails `internal` with the reason, and the job ends after its attempts
    /// instead of being handed back and claimed again forever.
    func testAResultPostgresRefusesFailsTheJobAfterItsAttempts() throws {
        try stack.db().execute("ALTER TABLE results ADD CONSTRAINT refuse_noop CHECK (NOT (result ? 'noop'))")
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 12)
        let done = try stack.waitForTerminal(job.id, timeout: 60)
        XCTAssertEqual(done.status, .failed)
        XCTAssertEqual(done.attempt, 3)
        XCTAssertEqual(done.attempts.map(\.outcome), ["retry", "retry", "failed"])
        XCTAssertEqual(done.lastErrorKind, "internal")
        XCTAssertTrue(done.lastError?.contains("storing the result failed") ?? false, done.lastError ?? "")
        XCTAssertTrue(done.lastError?.contains("refuse_noop") ?? false, done.lastError ?? "")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM results").rows[0]["n"], "0")
    }

    func testAResultLargerThanTheLimitFailsAtOnceWithTheReason() throws {
        try stack.startWorker(extraEnvironment: [InputLimits.Env.maxResultBytes: "5"])
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 13)
        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .failed)
        XCTAssertEqual(done.attempt, 1, "a larger limit is needed, not another attempt")
        XCTAssertEqual(done.lastErrorKind, "invalid_input")
        XCTAssertTrue(done.lastError?.contains("more than the limit of 5 (REELWORK_MAX_RESULT_BYTES)") ?? false, done.lastError ?? "")
    }

    func testTransientErrorsStopAtMaxAttemptsWithTheReason() throws {
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 2, extra: ["failAttempts": .number(9)])
        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .failed)
        XCTAssertEqual(done.attempt, 3, "the seeds' three attempts")
        XCTAssertEqual(done.failures, 3)
        XCTAssertEqual(done.lastErrorKind, "transient")
        XCTAssertTrue(done.lastError?.contains("transient failure requested for attempt 3") ?? false, done.lastError ?? "")
        XCTAssertEqual(done.attempts.map(\.outcome), ["retry", "retry", "failed"])
    }

    func testPermanentErrorsFailAtOnce() throws {
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 3, extra: ["invalidAttempts": .number(9)])
        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .failed)
        XCTAssertEqual(done.attempt, 1)
        XCTAssertEqual(done.lastErrorKind, "invalid_input")
    }

    func testCancelRemovesAQueuedJobAndStopsARunningOneWithinAHeartbeat() throws {
        let client = try stack.client()
        let running = try stack.submitNoop(video: video, seconds: 20, tag: 4)
        let waiting = try stack.submitNoop(video: video, seconds: 20, tag: 5)
        try stack.startWorker(slots: 1)
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(running.id) == "running" })

        let cancelledWaiting = try awaitSync { try await client.cancel(waiting.id) }
        XCTAssertEqual(cancelledWaiting.status, .cancelled)
        let asked = try awaitSync { try await client.cancel(running.id) }
        XCTAssertTrue(asked.cancelRequested)
        let signalled = Date()
        XCTAssertTrue(try stack.waitUntil(timeout: 5) { try stack.status(running.id) == "cancelled" }, stack.logTail())
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 3, "stopped within a heartbeat, not after its 20 s")
        let job = try awaitSync { try await client.job(running.id) }
        XCTAssertEqual(job.attempts.last?.outcome, "cancelled")
        // Redis no longer holds the removed job, so no worker can ever claim it.
        XCTAssertFalse(try JobQueue(prefix: stack.queuePrefix).holds(waiting.id, on: stack.redis()))
        XCTAssertEqual(try stack.status(waiting.id), "cancelled", "the worker never ran the removed job")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM job_attempts WHERE job_id = $1", [waiting.id]).rows[0]["n"], "0")

        XCTAssertThrowsError(try awaitSync { try await client.cancel(running.id) }) { error in
            guard case ClientError.api(409, "not_cancellable", _)? = error as? ClientError else { return XCTFail("\(error)") }
        }
    }

    func testRepeatSubmissionsReturnTheExistingJob() throws {
        let client = try stack.client()
        let ball: JSONValue = .object(["color": .object(["h": .number(220), "s": .number(80), "v": .number(70)])])
        let request = CreateJobRequest(videoId: video, sport: "bowling", club: "north", options: .object(["hand": .string("left"), "ballProfile": ball]))
        let first = try awaitSync { try await client.createJob(request) }
        let repeatByContent = try awaitSync { try await client.createJob(request) }
        XCTAssertEqual(first.id, repeatByContent.id, "same video, sport, options and pipeline version")
        var otherOptions = request
        otherOptions.options = .object(["hand": .string("right"), "ballProfile": ball])
        XCTAssertNotEqual(try awaitSync { try await client.createJob(otherOptions) }.id, first.id)
        var otherClub = request
        otherClub.club = "south"
        XCTAssertNotEqual(try awaitSync { try await client.createJob(otherClub) }.id, first.id, "clubs do not share jobs")

        let keyed = try awaitSync { try await client.createJob(CreateJobRequest(videoId: self.video, sport: "tennis"), idempotencyKey: "k-1") }
        let keyedAgain = try awaitSync { try await client.createJob(CreateJobRequest(videoId: self.video, sport: "tennis"), idempotencyKey: "k-1") }
        XCTAssertEqual(keyed.id, keyedAgain.id)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0]["n"], "4")
        let stats = try awaitSync { try await client.queueStats() }
        XCTAssertEqual(stats.ready, 4, "each job enqueued once")
    }

    func testOperatorRetriesEveryFailedJobMatchingAFilter() throws {
        try stack.startWorker(slots: 2)
        let northFailing = try (0..<3).map { try stack.submitNoop(video: video, club: "north", seconds: 0, tag: 10 + $0,
                                                                   extra: ["invalidAttempts": .number(1)]) }
        let southFailing = try stack.submitNoop(video: video, club: "south", seconds: 0, tag: 20, extra: ["invalidAttempts": .number(1)])
        for job in northFailing + [southFailing] { XCTAssertEqual(try stack.waitForTerminal(job.id).status, .failed) }

        let retried = try stack.run(["jobs", "retry", "--failed", "--club", "north", "--since", "1h", "--yes"])
        XCTAssertEqual(retried.status, 0, retried.output)
        XCTAssertEqual(Set(retried.stdout.split(separator: "\n").map(String.init)), Set(northFailing.map { $0.id.uuidString.lowercased() }))
        for job in northFailing {
            let done = try stack.waitForTerminal(job.id)
            XCTAssertEqual(done.status, .succeeded, "attempt 2 is past invalidAttempts")
            XCTAssertEqual(done.attempts.map(\.outcome), ["failed", "succeeded"], "the history keeps the failed attempt")
        }
        XCTAssertEqual(try stack.status(southFailing.id), "failed", "other clubs untouched")
        let none = try stack.run(["jobs", "retry", "--failed", "--club", "north", "--since", "2030-01-01T00:00:00Z"])
        XCTAssertEqual(none.stdout, "")
    }

    func testRedisDownAtSubmitCreatesNothing() throws {
        stack.shutdown()
        stack = try TestStack(settings: ["REELWORK_REDIS_URL": "redis://127.0.0.1:1/0"])
        try stack.startCoordinator(requireHealthy: false)
        let health = try HTTP.get(URL(string: "\(stack.coordinatorURL)/healthz")!)
        XCTAssertEqual(health.1, 503)
        let said = String(decoding: health.0, as: UTF8.self)
        XCTAssertTrue(said.contains(#""redis":"unavailable""#) && said.contains(#""postgres":"ok""#), "names what is down: \(said)")
        XCTAssertFalse(said.contains("127.0.0.1"), "an open endpoint tells no addresses or error text: \(said)")

        let video = try stack.uploadTinyClip()   // uploads need PostgreSQL only
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)/v1/jobs")!, key: stack.operatorKey,
                                                 body: Data(#"{"videoId":"\#(video.uuidString)","sport":"tennis"}"#.utf8))
        XCTAssertEqual(status, 503, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(HTTP.apiError(data)?.code, "queue_unavailable")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0]["n"], "0", "no job nothing would run")
    }
}
