import Foundation
import Queue
import TestSupport
import XCTest

/// The autoscaling gauges' source (issue 30): only work a free slot could start counts, and the
/// oldest wait is that work's, by Redis's clock.
extension JobQueueTests {
    func testClaimableCountsNeitherAPausedClubsNorACappedClubsJobs() throws {
        try queue.configure(globalCap: 0, clubCap: 2, on: redis)
        // The oldest work: a paused club's, then a capped club's (2 running, 3 waiting).
        for _ in 0..<4 { try queue.enqueue(UUID(), club: "paused", on: redis) }
        try queue.pause(club: "paused", on: redis)
        for _ in 0..<2 { try queue.enqueue(UUID(), club: "capped", on: redis) }
        XCTAssertEqual(try [claim(), claim()].compactMap { $0?.club }, ["capped", "capped"])
        for _ in 0..<3 { try queue.enqueue(UUID(), club: "capped", on: redis) }
        let backlogAt = try redisNow()
        _ = try Eventually.value(timeout: 10, interval: 0.01, "Redis's clock half a second on") { try redisNow() > backlogAt + 500 ? true : nil }
        // The newest: an open club with 1 running and 3 waiting, of which its cap leaves room for 1.
        try queue.enqueue(UUID(), club: "open", on: redis)
        XCTAssertEqual(try claim()?.club, "open")
        let before = try redisNow()
        for _ in 0..<3 { try queue.enqueue(UUID(), club: "open", on: redis) }
        let after = try redisNow()

        let readFrom = try redisNow()
        let seen = try queue.claimable(on: redis)
        let readAt = try redisNow()
        XCTAssertEqual(seen.jobs, 1, "the open club's one free slot; the paused club's 4 and the capped club's 3 do not count")
        // The open club's jobs were queued between `before` and `after`, the others at least 0.5 s earlier.
        XCTAssertGreaterThanOrEqual(seen.oldestWait * 1000, readFrom - after - 1, "the open club's jobs' wait")
        XCTAssertLessThanOrEqual(seen.oldestWait * 1000, readAt - before + 1, "not the older paused or capped work's wait")
        XCTAssertEqual(try queue.stats(on: redis).ready, 10, "the waiting gauge still counts every ready job")

        try queue.resume(club: "paused", on: redis)
        let resumed = try queue.claimable(on: redis)
        XCTAssertEqual(resumed.jobs, 3, "the paused club's 4 up to its cap's 2 free slots, and the open club's 1")
        XCTAssertGreaterThanOrEqual(resumed.oldestWait * 1000, (try redisNow()) - backlogAt - 1, "now the paused club's older jobs")

        try queue.configure(globalCap: 3, clubCap: 2, on: redis)
        XCTAssertEqual(try queue.claimable(on: redis), .init(jobs: 0, oldestWait: 0), "the global cap is full")
        try queue.configure(globalCap: 4, clubCap: 2, on: redis)
        XCTAssertEqual(try queue.claimable(on: redis).jobs, 1, "one global slot free")
        try queue.pause(club: nil, on: redis)
        XCTAssertEqual(try queue.claimable(on: redis), .init(jobs: 0, oldestWait: 0), "the whole queue paused")
    }

    /// A claimed or cancelled job leaves the wait: the gauge never reports a job no longer waiting.
    func testTheOldestWaitForgetsClaimedAndCancelledJobs() throws {
        let old = UUID(), cancelled = UUID()
        try queue.enqueue(old, club: "a", on: redis)
        try queue.enqueue(cancelled, club: "b", on: redis)
        let enqueuedAt = try redisNow()
        _ = try Eventually.value(timeout: 10, interval: 0.01, "Redis's clock half a second on") { try redisNow() > enqueuedAt + 500 ? true : nil }
        XCTAssertGreaterThanOrEqual(try queue.claimable(on: redis).oldestWait, 0.5)
        XCTAssertEqual(try claim()?.jobId, old)
        XCTAssertEqual(try queue.cancel(cancelled, on: redis), .removed)
        let fresh = UUID()
        try queue.enqueue(fresh, club: "a", on: redis)
        let seen = try queue.claimable(on: redis)
        XCTAssertEqual(seen.jobs, 1)
        XCTAssertLessThan(seen.oldestWait, 0.5, "only the fresh job waits")
        XCTAssertEqual(try redis.command("ZCARD", "\(queue.prefix):ready_since:b").integer, 0)
    }
}
