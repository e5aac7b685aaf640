import Foundation
import Queue
import ReelworkCore
import XCTest

/// Pause and drain in the queue's scripts (issue 13): a paused club is passed over, a paused queue
/// claims nothing, a resume releases both; a drain request reaches the worker's next beat only.
extension JobQueueTests {
    func testAPausedClubIsPassedOverAndAPausedQueueClaimsNothing() throws {
        let a = UUID(), b = UUID(), c = UUID()
        try queue.enqueue(a, club: "a", on: redis)
        try queue.enqueue(b, club: "b", on: redis)
        try queue.pause(club: "a", on: redis)
        XCTAssertEqual(try claim()?.jobId, b, "club a is skipped")
        XCTAssertNil(try claim(), "nothing else is claimable while a is paused")
        try queue.enqueue(c, club: "b", on: redis)
        try queue.pause(club: nil, on: redis)
        XCTAssertNil(try claim(), "the whole queue is paused")
        XCTAssertEqual(try queue.pauseState(on: redis), .init(all: true, clubs: ["a"]))
        try queue.resume(club: nil, on: redis)
        XCTAssertEqual(try claim()?.jobId, c)
        try queue.resume(club: "a", on: redis)
        XCTAssertEqual(try claim()?.jobId, a)
        XCTAssertEqual(try queue.pauseState(on: redis), .init(all: false, clubs: []))
    }

    func testADrainIsSeenByTheWorkersNextBeatAndAFreshStartForgetsIt() throws {
        XCTAssertFalse(try queue.drain(workerID: "w1", on: redis), "no such worker yet")
        XCTAssertFalse(try queue.workerBeat(id: "w1", host: "h", version: "v", slots: 2, running: 1, fresh: true, ttl: 30, on: redis))
        XCTAssertTrue(try queue.drain(workerID: "w1", on: redis))
        XCTAssertTrue(try queue.drain(workerID: "w1", on: redis), "idempotent")
        XCTAssertEqual(try queue.workers(on: redis).map(\.draining), [true])
        XCTAssertTrue(try queue.workerBeat(id: "w1", host: "h", version: "v", slots: 2, running: 1, fresh: false, ttl: 30, on: redis))
        XCTAssertFalse(try queue.workerBeat(id: "w1", host: "h", version: "v", slots: 2, running: 0, fresh: true, ttl: 30, on: redis),
                       "a restarted worker with the same id does not inherit the drain")
        try queue.workerLeft(id: "w1", on: redis)
        XCTAssertEqual(try queue.workers(on: redis), [])
    }

    /// A beat's time and its age both come from Redis's clock: the coordinator listing workers
    /// compares no host's clock with another's.
    func testAWorkersBeatIsStampedAndAgedByRedisClock() throws {
        XCTAssertFalse(try queue.workerBeat(id: "w1", host: "h", version: "v", slots: 1, running: 0, fresh: true, ttl: 300, on: redis))
        let now = try redisNow()
        let listed = try XCTUnwrap(try queue.workers(on: redis).first)
        XCTAssertEqual(listed.lastBeat.timeIntervalSince1970 * 1000, now, accuracy: 1_000)
        XCTAssertLessThan(listed.heartbeatAge, 1)
        // The hash as a beat 90 s ago left it: its age is Redis's now minus that stamp.
        try redis.command("HSET", "\(queue.prefix):worker:w1", "beat_ms", String(Int64(now) - 90_000))
        XCTAssertEqual(try queue.workers(on: redis).first?.heartbeatAge ?? 0, 90, accuracy: 1)
    }
}
