import Foundation
import Queue
import ReelworkCore
import XCTest

/// The live event stream against a real Redis: appends are capped, a reader resumes after any id
/// still kept and gets exactly what followed it, and the bounds say when an id can no longer be resumed.
final class EventStreamTests: XCTestCase {
    var redis: RedisConnection!
    var prefix: String!

    override func setUpWithError() throws {
        guard let url = ProcessInfo.processInfo.environment["REELWORK_TEST_REDIS_URL"] else {
            XCTFail("set REELWORK_TEST_REDIS_URL (scripts/test.sh does)")
            throw ReelworkError.configuration("no test Redis")
        }
        redis = try RedisConnection(RedisURL(parsing: url))
        prefix = "etest:\(UUID().uuidString.lowercased())"
    }

    override func tearDownWithError() throws {
        try redis.command("DEL", "\(prefix!):events")
    }

    func event(_ n: Int, club: String = "a") -> JobEvent {
        JobEvent(type: .stageProgress, jobId: UUID(), club: club, stage: "decode", attempt: 1, framesDone: n, framesPlanned: 1_000)
    }

    func testAppendedEventsComeBackInOrderAsTheirJSONAndResumeAfterAnyIdGivesExactlyWhatFollowed() throws {
        let stream = EventStream(prefix: prefix, cap: 1_000)
        let events = (0..<25).map { event($0) }
        let ids = try stream.append(events, on: redis)
        XCTAssertEqual(ids.count, 25)
        XCTAssertEqual(ids, ids.sorted(), "ids grow")
        let all = try stream.range(after: .zero, count: 100, on: redis)
        XCTAssertEqual(all.map(\.id), ids)
        let decoded = try all.map { try ReelworkJSON.decoder.decode(JobEvent.self, from: Data($0.data.utf8)) }
        XCTAssertEqual(decoded.map(\.jobId), events.map(\.jobId))
        XCTAssertEqual(decoded.map(\.framesDone), events.map(\.framesDone))
        XCTAssertEqual(all.map(\.data), try events.map { String(decoding: try ReelworkJSON.encoder.encode($0), as: UTF8.self) }, "stored as the API's JSON")

        let resumed = try stream.range(after: ids[9], count: 10, on: redis)
        XCTAssertEqual(resumed.map(\.id), Array(ids[10..<20]), "after id 9: 10…19, the page bounded by its count")
        XCTAssertEqual(try stream.read(after: ids[19], count: 100, on: redis).map(\.id), Array(ids[20...]))
        XCTAssertEqual(try stream.read(after: ids[24], count: 100, on: redis), [], "nothing after the newest")
        XCTAssertTrue(try stream.bounds(on: redis).canResume(after: ids[0]))
    }

    func testABlockingReadWakesForAnEventAppendedWhileItWaits() throws {
        let stream = EventStream(prefix: prefix, cap: 1_000)
        let start = try stream.append([event(0)], on: redis)[0]
        let url = try RedisURL(parsing: ProcessInfo.processInfo.environment["REELWORK_TEST_REDIS_URL"]!)
        let later = event(1)
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.2)
            _ = try? stream.append([later], on: try RedisConnection(url))
        }
        writer.start()
        let began = Date()
        let read = try stream.read(after: start, count: 10, block: 5, on: redis)
        XCTAssertEqual(read.count, 1)
        XCTAssertLessThan(Date().timeIntervalSince(began), 4, "woken by the append, not by the timeout")
    }

    func testTheStreamIsCappedAndAnIdTrimmedAwayCanNoLongerBeResumed() throws {
        let stream = EventStream(prefix: prefix, cap: 100)
        let ids = try stream.append((0..<1_000).map { event($0) }, on: redis)
        let bounds = try stream.bounds(on: redis)
        XCTAssertGreaterThanOrEqual(bounds.length, 100, "MAXLEN ~ keeps at least the cap")
        XCTAssertLessThan(bounds.length, 300, "and trims the rest, a node at a time")
        XCTAssertEqual(bounds.lastGenerated, ids.last)
        XCTAssertFalse(bounds.canResume(after: ids[0]), "the oldest events are gone: resuming there would skip some")
        XCTAssertFalse(bounds.canResume(after: .zero))
        let firstKept = try XCTUnwrap(bounds.first)
        let keptIndex = try XCTUnwrap(ids.firstIndex(of: firstKept))
        XCTAssertTrue(bounds.canResume(after: ids[keptIndex]), "every event after a kept one is kept")
        XCTAssertTrue(bounds.canResume(after: ids[999]))
        XCTAssertEqual(try stream.range(after: ids[keptIndex], count: 5, on: redis).map(\.id), Array(ids[(keptIndex + 1)...(keptIndex + 5)]))
    }

    func testAnIdNewerThanTheStreamCannotBeResumed() throws {
        let stream = EventStream(prefix: prefix, cap: 100)
        XCTAssertEqual(try stream.bounds(on: redis), EventStream.Bounds(), "no stream yet")
        XCTAssertFalse(try stream.bounds(on: redis).canResume(after: EventID(milliseconds: 5, sequence: 0)),
                       "an id from before a flush would hide every new event")
        let id = try stream.append([event(0)], on: redis)[0]
        XCTAssertFalse(try stream.bounds(on: redis).canResume(after: EventID(milliseconds: id.milliseconds + 1, sequence: 0)))
    }

    func testEventIdsParseStrictly() {
        XCTAssertEqual(EventID("1700000000000-3"), EventID(milliseconds: 1_700_000_000_000, sequence: 3))
        for bad in ["", "-", "$", "+", "12", "12-", "-3", "1-2-3", "a-1", "1-b", " 1-2", "99999999999999999999999-0", "1-٣"] {
            XCTAssertNil(EventID(bad), bad)
        }
        XCTAssertLessThan(EventID("5-9")!, EventID("6-0")!)
        XCTAssertLessThan(EventID("5-1")!, EventID("5-2")!)
    }
}
