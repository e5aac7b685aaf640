import Foundation
import ReelworkClient
import ReelworkCore
import Store
import XCTest

/// Operators steering the pool (issue 13, part 4), on real Redis, PostgreSQL and worker processes:
/// a drained worker finishes its job and exits 0 without claiming more; a paused club's jobs wait
/// while another club's run; a paused queue claims nothing while running jobs finish. Each waits on
/// a condition (a worker's fresh, idle heartbeat proves it had the chance to claim), never a fixed sleep.
final class PoolControlTests: QueueStackTestCase {
    var api: CoordinatorClient { get throws { try stack.client() } }

    func workers() throws -> [WorkerView] {
        let api = try self.api
        return try awaitSync { try await api.workers() }.workers
    }

    func post(_ path: String, key: String? = nil) throws -> (status: Int, code: String?) {
        let (data, status, _) = try HTTP.request("POST", URL(string: stack.coordinatorURL + path)!, key: key ?? stack.operatorKey)
        return (status, HTTP.apiError(data)?.code)
    }

    /// Waits until worker `id` has beaten after `since` with nothing running: it was free to claim and did not.
    func waitUntilIdle(_ id: String, since: Date) throws -> Bool {
        try stack.waitUntil(timeout: 20) {
            try workers().contains { $0.id == id && $0.running == 0 && $0.lastHeartbeatAt > since.addingTimeInterval(0.6) }
        }
    }

    func testADrainedWorkerFinishesItsJobClaimsNothingMoreAndExitsZero() throws {
        let worker = try stack.startWorker(extraEnvironment: ["REELWORK_WORKER_ID": "drain-me", "REELWORK_SHUTDOWN_GRACE_SECONDS": "600"])
        let running = try stack.submitNoop(video: video, seconds: 2, tag: 1)
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(running.id) == "running" }, stack.logTail())
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try workers().contains { $0.id == "drain-me" && $0.running == 1 } })
        let listed = try XCTUnwrap(try workers().first { $0.id == "drain-me" })
        XCTAssertEqual(listed.slots, 1)
        XCTAssertEqual(listed.version, ReelworkVersion.current)
        XCTAssertFalse(listed.draining)

        let listedByCLI = try stack.run(["workers", "list"])
        XCTAssertEqual(listedByCLI.status, 0, listedByCLI.output)
        XCTAssertTrue(listedByCLI.stdout.contains("drain-me") && listedByCLI.stdout.contains("active"), listedByCLI.output)
        let drainedByCLI = try stack.run(["workers", "drain", "drain-me", "--yes"])
        XCTAssertEqual(drainedByCLI.status, 0, drainedByCLI.output)
        XCTAssertTrue(drainedByCLI.stdout.contains("draining"), drainedByCLI.output)
        XCTAssertEqual(try post("/v1/workers/drain-me/drain").status, 202, "draining again is the same request")
        let waiting = try stack.submitNoop(video: video, seconds: 0.1, tag: 2)

        guard stack.waitUntil(timeout: 30, { !worker.isRunning }) else {
            return XCTFail("the drained worker did not exit:\n\(stack.logTail())")
        }
        XCTAssertEqual(worker.terminationStatus, 0)
        XCTAssertEqual(try stack.waitForTerminal(running.id).status, .succeeded, "its running job finished")
        let results = try stack.db().query("SELECT count(*) AS n FROM results WHERE job_id = $1", [running.id]).rows.first?["n"]
        XCTAssertEqual(results, "1", "exactly one result")
        XCTAssertEqual(try stack.status(waiting.id), "queued", "nothing claimed after the drain")
        XCTAssertFalse(try workers().contains { $0.id == "drain-me" }, "an exited worker leaves the list")
        XCTAssertEqual(try post("/v1/workers/drain-me/drain").code, "worker_not_found")
        XCTAssertEqual(try post("/v1/workers/drain-me/drain").status, 404)
        XCTAssertEqual(try post("/v1/workers/bad%20id/drain").status, 400)
    }

    func testAPausedClubWaitsWhileAnotherClubsJobsRunAndResumeReleasesIt() throws {
        let paused = try stack.submitNoop(video: video, club: "paused-club", seconds: 0.1, tag: 1)
        let pausedByCLI = try stack.run(["queue", "pause", "--club", "paused-club"])
        XCTAssertEqual(pausedByCLI.status, 0, pausedByCLI.output)
        XCTAssertTrue(pausedByCLI.stdout.contains("paused-club"), pausedByCLI.output)
        XCTAssertEqual(try post("/v1/clubs/paused-club/pause").status, 200, "pausing again changes nothing")
        XCTAssertEqual(try post("/v1/clubs/no-such-club/pause").status, 404)
        XCTAssertEqual(try post("/v1/clubs/bad%20name/pause").code, "invalid_club")
        let clubKey = try stack.createKey(["--club", "paused-club"])
        XCTAssertEqual(try post("/v1/clubs/paused-club/resume", key: clubKey).status, 403, "a club key cannot resume its own queue")
        let api = try self.api
        let queue = try awaitSync { try await api.queueStats() }
        XCTAssertEqual(queue.pausedClubs, ["paused-club"])

        try stack.startWorker(extraEnvironment: ["REELWORK_WORKER_ID": "pause-test"])
        let other = try stack.submitNoop(video: video, club: "other-club", seconds: 0.1, tag: 2)
        XCTAssertEqual(try stack.waitForTerminal(other.id).status, .succeeded, "another club's job runs")
        XCTAssertTrue(try waitUntilIdle("pause-test", since: Date()))
        XCTAssertEqual(try stack.status(paused.id), "queued", "the paused club's job was skipped")
        // The coach and the operator read why it waits; another club's waiting job is not paused.
        XCTAssertEqual(try awaitSync { try await api.job(paused.id) }.paused, true)
        let shown = try stack.run(["jobs", "show", paused.id.uuidString])
        XCTAssertTrue(shown.output.contains("paused    paused by an operator"), shown.output)
        let listed = try stack.run(["jobs", "list", "--club", "paused-club"])
        XCTAssertTrue(listed.output.contains("queued") && listed.output.contains("paused by an operator"), listed.output)
        let waitingElsewhere = try stack.submitNoop(video: video, club: "other-club", seconds: 30, tag: 3)
        XCTAssertNotEqual(try awaitSync { try await api.job(waitingElsewhere.id) }.paused, true)
        _ = try awaitSync { try await api.cancel(waitingElsewhere.id) }
        XCTAssertEqual(try stack.waitForTerminal(waitingElsewhere.id).status, .cancelled)
        XCTAssertNil(try awaitSync { try await api.job(other.id) }.paused, "a finished job carries no pause")

        XCTAssertEqual(try post("/v1/clubs/paused-club/resume").status, 200)
        XCTAssertEqual(try stack.waitForTerminal(paused.id, timeout: 30).status, .succeeded, "resumed: claimed")
    }

    func testAGlobalPauseStopsClaimsWhileRunningJobsFinish() throws {
        try stack.startWorker(slots: 2, extraEnvironment: ["REELWORK_WORKER_ID": "global-test"])
        let running = try stack.submitNoop(video: video, seconds: 1.5, tag: 1)
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(running.id) == "running" })
        XCTAssertEqual(try post("/v1/queue/pause").status, 200)
        let waiting = try stack.submitNoop(video: video, club: "another", seconds: 0.1, tag: 2)
        XCTAssertEqual(try stack.waitForTerminal(running.id).status, .succeeded, "a running job finishes under a pause")
        XCTAssertTrue(try waitUntilIdle("global-test", since: Date()))
        XCTAssertEqual(try stack.status(waiting.id), "queued", "nothing is claimed while the queue is paused")
        let api = try self.api
        XCTAssertTrue(try awaitSync { try await api.queueStats() }.paused)

        XCTAssertEqual(try post("/v1/queue/resume").status, 200)
        XCTAssertEqual(try stack.waitForTerminal(waiting.id, timeout: 30).status, .succeeded)
    }
}
