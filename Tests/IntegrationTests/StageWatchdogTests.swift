import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import XCTest

/// A stage that hangs must not hold a slot forever. The hang here is real: the stored video is
/// replaced by a FIFO nobody writes to, so the worker's probe blocks inside open(2), where no flag
/// or callback can reach it. Only the watchdog, ending the run on the thread's behalf, frees the slot.
final class StageWatchdogTests: QueueStackTestCase {
    static let stageTimeout = 2.0

    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging([QueueSettings.Env.stageTimeoutSeconds: String(Self.stageTimeout)]) { $1 }
    }

    /// A video whose stored file never delivers a byte.
    func stuckVideo() throws -> UUID {
        let clip = try stack.makeClip("stuck.mp4", "testsrc2=size=160x120:rate=10", seconds: 1)
        let video = try awaitSync { try await self.stack.client().uploadVideo(file: clip) }
        let stored = stack.storageDir.appendingPathComponent("videos/\(video.contentHash.prefix(2))/\(video.contentHash)")
        try FileManager.default.removeItem(at: stored)
        XCTAssertEqual(mkfifo(stored.path, 0o644), 0, "mkfifo \(stored.path)")
        return video.id
    }

    func createJob(video: UUID, maxAttempts: Int) throws -> JobView {
        try awaitSync { try await self.stack.client().createJob(CreateJobRequest(videoId: video, sport: "tennis", maxAttempts: maxAttempts)) }
    }

    func attempt(_ id: UUID) throws -> (outcome: String?, seconds: Double) {
        let row = try XCTUnwrap(try stack.db().query("""
            SELECT outcome, extract(epoch FROM finished_at - started_at)::float8 AS seconds FROM job_attempts WHERE job_id = $1 ORDER BY attempt DESC
            """, [id]).rows.first)
        return (row["outcome"], Double(row["seconds"] ?? "") ?? -1)
    }

    func testAHungStageIsFailedByTheWatchdogWithinItsDeadlineAndTheSlotRunsTheNextJob() throws {
        let stuck = try createJob(video: try stuckVideo(), maxAttempts: 1)
        let next = try stack.submitNoop(video: video, seconds: 0.2, tag: 1)
        let worker = try stack.startWorker(slots: 1)

        let failed = try stack.waitForTerminal(stuck.id, timeout: 30)
        XCTAssertEqual(failed.status, .failed, stack.logTail())
        XCTAssertEqual(failed.lastErrorKind, "internal")
        XCTAssertTrue(failed.lastError?.hasPrefix("probe: no progress for 2 s: stopped by the stage watchdog (REELWORK_STAGE_TIMEOUT_SECONDS=2)") ?? false,
                      failed.lastError ?? "")
        let probe = try XCTUnwrap(failed.stages.first { $0.name == "probe" })
        XCTAssertEqual(probe.status, .failed)
        XCTAssertEqual(probe.errorKind, "internal")
        XCTAssertTrue(failed.stages.filter { $0.name != "probe" }.allSatisfy { $0.status == .skipped })
        let (outcome, seconds) = try attempt(stuck.id)
        XCTAssertEqual(outcome, "failed")
        XCTAssertGreaterThanOrEqual(seconds, Self.stageTimeout, "not before the deadline")
        XCTAssertLessThan(seconds, Self.stageTimeout + 3, "within the deadline and a watchdog round or two")

        XCTAssertEqual(try stack.waitForTerminal(next.id, timeout: 30).status, .succeeded, "the one slot was freed for the next job")
        XCTAssertTrue(worker.isRunning)
        XCTAssertFalse(try JobQueue(prefix: stack.queuePrefix).holds(stuck.id, on: stack.redis()), "no lease is renewed for it")
        XCTAssertTrue(stack.logTail(lines: 200).contains("its thread is stuck in job \(stuck.id.uuidString.lowercased())"), "the slot got a new thread")
    }

    func testAHungStageIsRetriedWithinItsBudgetAndThenFails() throws {
        let stuck = try createJob(video: try stuckVideo(), maxAttempts: 2)
        try stack.startWorker(slots: 2)
        let failed = try stack.waitForTerminal(stuck.id, timeout: 60)
        XCTAssertEqual(failed.status, .failed)
        XCTAssertEqual(failed.attempt, 2, "internal errors are retried, within the job's attempts")
        XCTAssertEqual(failed.attempts.map(\.outcome), ["retry", "failed"])
    }

    func testACancelReachesAStuckStage() throws {
        stack.shutdown()
        stack = try TestStack(settings: TestStack.fastQueue.merging([QueueSettings.Env.stageTimeoutSeconds: "120"]) { $1 })
        try stack.startCoordinator()
        video = try stack.uploadTinyClip()
        let stuck = try createJob(video: try stuckVideo(), maxAttempts: 3)
        let next = try stack.submitNoop(video: video, seconds: 0.2, tag: 2)
        try stack.startWorker(slots: 1)
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(stuck.id) == "running" })
        _ = try awaitSync { try await self.stack.client().cancel(stuck.id) }
        let asked = Date()
        XCTAssertTrue(try stack.waitUntil(timeout: 15) { try stack.status(stuck.id) == "cancelled" }, stack.logTail())
        XCTAssertLessThan(Date().timeIntervalSince(asked), 10, "a heartbeat, then the watchdog's acknowledgement time")
        XCTAssertEqual(try attempt(stuck.id).outcome, "cancelled")
        XCTAssertEqual(try stack.waitForTerminal(next.id, timeout: 30).status, .succeeded, "and the slot is free again")
    }

    func testSIGTERMReachesAStuckStageAndHandsTheJobBack() throws {
        stack.shutdown()
        stack = try TestStack(settings: TestStack.fastQueue.merging([QueueSettings.Env.stageTimeoutSeconds: "120"]) { $1 })
        try stack.startCoordinator()
        let stuck = try createJob(video: try stuckVideo(), maxAttempts: 3)
        let worker = try stack.startWorker(slots: 1)
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(stuck.id) == "running" })
        let signalled = Date()
        worker.terminate()
        XCTAssertTrue(stack.waitUntil(timeout: 20) { !worker.isRunning }, "the worker exits although a stage is stuck:\n\(stack.logTail())")
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 10, "grace (0.5 s) plus the watchdog's acknowledgement time")
        XCTAssertEqual(worker.terminationStatus, 0)
        XCTAssertEqual(try stack.status(stuck.id), "queued", "handed back, never failed")
        XCTAssertEqual(try attempt(stuck.id).outcome, "handed_back")
        XCTAssertEqual(try awaitSync { try await self.stack.client().job(stuck.id) }.failures, 0)
    }

    /// Each abandoned thread keeps its memory until the process ends, so after
    /// `REELWORK_WORKER_MAX_ABANDONED_THREADS` of them the worker drains and exits non-zero for its
    /// supervisor to start a fresh one. Its other job is handed back, never failed, and a new worker runs it.
    func testAWorkerThatAbandonedTooManyThreadsDrainsAndExitsNonZeroWithoutLosingItsOtherJob() throws {
        let stuckVideo = try stuckVideo()
        // Two jobs, not one asked twice: their names tell them apart.
        let stuck = try (1...2).map { tag in
            try awaitSync { try await self.stack.client().createJob(CreateJobRequest(
                videoId: stuckVideo, sport: "tennis", maxAttempts: 1, fileName: "stuck-\(tag).mp4")) }
        }
        let other = try stack.submitNoop(video: video, seconds: 10, tag: 3)
        let worker = try stack.startWorker(slots: 3, extraEnvironment: [QueueSettings.Env.maxAbandonedThreads: "2"])
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(other.id) == "running" }, stack.logTail())

        guard stack.waitUntil(timeout: 30, { !worker.isRunning }) else {
            return XCTFail("the worker never exited:\n\(stack.logTail())")
        }
        XCTAssertEqual(worker.terminationStatus, 75, "non-zero, so systemd's Restart=on-failure restarts it")
        XCTAssertTrue(stack.logTail(lines: 200).contains("(REELWORK_WORKER_MAX_ABANDONED_THREADS=2)"), stack.logTail())
        for job in stuck { XCTAssertEqual(try stack.status(job.id), "failed") }
        XCTAssertEqual(try stack.status(other.id), "queued", "handed back, never failed:\n\(stack.logTail())")
        XCTAssertEqual(try attempt(other.id).outcome, "handed_back")
        XCTAssertEqual(try awaitSync { try await self.stack.client().job(other.id) }.failures, 0)

        try stack.startWorker(slots: 1)
        XCTAssertEqual(try stack.waitForTerminal(other.id, timeout: 40).status, .succeeded, "a fresh worker runs it")
    }
}
