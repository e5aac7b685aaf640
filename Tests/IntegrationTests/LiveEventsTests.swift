import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import TestSupport
import Threading
import XCTest

/// Live events (issue 13, part 1) on real Redis, PostgreSQL, coordinator and worker processes:
/// a job's events arrive in order with their fields, within a second of the change and never
/// ahead of what `GET /v1/jobs/{id}` shows (guarantee 5); a club key never sees another club's;
/// a resume delivers exactly the missed events; an id the stream no longer keeps gets `reset`
/// first; idle streams get heartbeats; `jobs watch` follows the events with plain lines in a pipe.
final class LiveEventsTests: QueueStackTestCase {
    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging(["REELWORK_EVENTS_HEARTBEAT_SECONDS": "0.3", "REELWORK_EVENTS_MAX_STREAMS_PER_KEY": "\(Self.streamCap)"]) { $1 }
    }

    /// Streams per key: as many as one test here opens at once.
    static let streamCap = 3

    func tap(key: String? = nil, job: UUID? = nil, batch: UUID? = nil, lastEventId: String? = nil) throws -> EventTap {
        let tap = EventTap(try stack.client(key: key), job: job, batch: batch, lastEventId: lastEventId)
        XCTAssertTrue(stack.waitUntil(timeout: 10) { tap.isConnected }, "the event stream did not open: \(tap.ended.withLock { $0 } ?? "")")
        return tap
    }

    func waitFor(_ type: JobEvent.Kind, of job: UUID, on tap: EventTap, timeout: TimeInterval = 30) -> Bool {
        stack.waitUntil(timeout: timeout) { tap.events.contains { $0.event.jobId == job && $0.event.type == type } }
    }

    func testAJobsEventsArriveInOrderWithTheirFields() throws {
        let tap = try tap()
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 1, tag: 1)
        XCTAssertTrue(waitFor(.jobSucceeded, of: job.id, on: tap), stack.logTail())
        let events = tap.events.filter { $0.event.jobId == job.id }
        let ids = events.map { EventID($0.id) }
        XCTAssertFalse(ids.contains(nil), "every event has a stream id")
        XCTAssertEqual(ids.compactMap { $0 }, ids.compactMap { $0 }.sorted(), "in stream order")
        // queued, running, the stage's start, progress steps, end, succeeded: nothing else, nothing twice.
        let types = events.map(\.event.type)
        XCTAssertEqual(types.first, .jobQueued)
        XCTAssertEqual(Array(types.dropFirst().prefix(2)), [.jobRunning, .stageStarted], "\(types)")
        XCTAssertEqual(Array(types.suffix(2)), [.stageSucceeded, .jobSucceeded], "\(types)")
        let progress = events.filter { $0.event.type == .stageProgress }
        XCTAssertEqual(progress.count, types.count - 5, "\(types)")
        XCTAssertGreaterThanOrEqual(progress.count, 2, "a 1 s stage reports progress (throttled to 4 a second)")
        XCTAssertLessThanOrEqual(progress.count, 8, "throttled: the noop stage reports every 50 ms, not every step is an event")
        XCTAssertEqual(progress.map { $0.event.framesDone ?? -1 }, progress.map { $0.event.framesDone ?? -1 }.sorted())
        XCTAssertTrue(progress.allSatisfy { $0.event.framesPlanned != nil && $0.event.stage == "noop" })
        for (_, event, _) in events {
            XCTAssertEqual(event.club, "c")
            XCTAssertNil(event.batchId)
            XCTAssertEqual(event.sport, "tennis")
        }
        XCTAssertEqual(events.dropFirst().map(\.event.attempt), Array(repeating: 1, count: events.count - 1), "the run's attempt")
        XCTAssertEqual(events.filter { $0.event.type.rawValue.hasPrefix("stage.") }.map(\.event.stage), Array(repeating: "noop", count: types.count - 3))
    }

    /// Guarantee 5: every change a worker writes is visible through the stream within a second of
    /// its write, `GET /v1/jobs/{id}` already shows it when its event arrives, and a running stage's
    /// progress is never more than a second old.
    func testStatusIsTruthfulWithinASecond() throws {
        let tap = try tap()
        try stack.startWorker()
        let api = try stack.client()
        let job = try stack.submitNoop(video: video, seconds: 2, tag: 2)
        var checked = 0
        var deadline = Date().addingTimeInterval(30)
        // Each event, as it arrives: the job as the API shows it then.
        while Date() < deadline {
            let events = tap.events.filter { $0.event.jobId == job.id }
            guard checked < events.count else { Thread.sleep(forTimeInterval: 0.005); continue }
            let (_, event, arrived) = events[checked]
            checked += 1
            let view = try awaitSync { try await api.job(job.id) }
            XCTAssertLessThan(arrived.timeIntervalSince(event.time), 1, "\(event.type) arrived \(arrived.timeIntervalSince(event.time)) s after its write")
            let stage = view.stages.first { $0.name == "noop" && $0.attempt == 1 }
            switch event.type {
            case .jobRunning: XCTAssertNotEqual(view.status, .queued)
            case .stageStarted: XCTAssertNotNil(stage?.startedAt)
            case .stageProgress: XCTAssertGreaterThanOrEqual(stage?.framesDone ?? 0, event.framesDone ?? 0, "the API is never behind the event")
            case .stageSucceeded: XCTAssertEqual(stage?.status, .succeeded)
            case .jobSucceeded:
                XCTAssertEqual(view.status, .succeeded)
                deadline = .distantPast
            default: break
            }
        }
        let events = tap.events.filter { $0.event.jobId == job.id }
        XCTAssertEqual(events.last?.event.type, .jobSucceeded, stack.logTail())
        // While the stage ran, no second passed without a change being published.
        let running = events.filter { [.stageStarted, .stageProgress, .stageSucceeded].contains($0.event.type) }.map(\.event.time)
        let gaps = zip(running, running.dropFirst()).map { $1.timeIntervalSince($0) }
        XCTAssertGreaterThan(gaps.count, 3)
        XCTAssertLessThan(gaps.max() ?? 99, 1, "progress gaps: \(gaps)")
    }

    func testAClubKeyNeverReceivesAnotherClubsEvents() throws {
        let keyA = try stack.createKey(["--club", "club-a"]), keyB = try stack.createKey(["--club", "club-b"])
        let tapA = try tap(key: keyA), tapB = try tap(key: keyB), all = try tap()
        try stack.startWorker(slots: 2)
        let jobA = try stack.submitNoop(video: video, club: "club-a", seconds: 0.3, tag: 3)
        let jobB = try stack.submitNoop(video: video, club: "club-b", seconds: 0.3, tag: 4)
        XCTAssertTrue(waitFor(.jobSucceeded, of: jobA.id, on: all) && waitFor(.jobSucceeded, of: jobB.id, on: all), stack.logTail())
        XCTAssertTrue(waitFor(.jobSucceeded, of: jobA.id, on: tapA) && waitFor(.jobSucceeded, of: jobB.id, on: tapB))
        XCTAssertEqual(Set(tapA.events.map(\.event.club)), ["club-a"])
        XCTAssertEqual(Set(tapB.events.map(\.event.club)), ["club-b"])
        XCTAssertEqual(Set(all.events.map(\.event.club)), ["club-a", "club-b"], "an operator sees every club's")
        // Another club's job or batch answers as one that does not exist.
        for (query, code) in [("job=\(jobB.id.uuidString.lowercased())", "job_not_found"), ("job=\(UUID().uuidString)", "job_not_found"),
                              ("batch=\(UUID().uuidString)", "batch_not_found")] {
            let (data, status, _) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)/v1/events?\(query)")!, key: keyA)
            XCTAssertEqual(status, 404, query)
            XCTAssertEqual(HTTP.apiError(data)?.code, code, query)
        }
        let (data, status, _) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)/v1/events?job=nope")!, key: keyA)
        XCTAssertEqual(status, 400)
        XCTAssertEqual(HTTP.apiError(data)?.code, "invalid_request")
        let ownJob = try tap(key: keyA, job: jobA.id)
        XCTAssertTrue(ownJob.isConnected, "its own job's events are its to follow")
    }

    /// A club key resuming with `Last-Event-ID` gets the backlog replayed from Redis, not the live
    /// feed: the replay too holds its own club's events only, every one of them, and no other's.
    func testAClubKeysReplayOfTheBacklogHoldsOnlyItsOwnClubsEvents() throws {
        let keyA = try stack.createKey(["--club", "club-a"])
        let all = try tap()
        try stack.startWorker(slots: 2)
        let jobA = try stack.submitNoop(video: video, club: "club-a", seconds: 0.2, tag: 6)
        let jobB = try stack.submitNoop(video: video, club: "club-b", seconds: 0.2, tag: 7)
        XCTAssertTrue(waitFor(.jobSucceeded, of: jobA.id, on: all) && waitFor(.jobSucceeded, of: jobB.id, on: all), stack.logTail())
        let first = try XCTUnwrap(all.events.first?.id)
        let firstID = try XCTUnwrap(EventID(first))
        // Not necessarily job.queued: the coordinator publishes it after enqueueing, so a quick worker's
        // job.running can come first. Any first event will do: the replay starts just before it.
        // Just before the first event: the whole backlog is replayed (the stream started after it was opened).
        let before = firstID.sequence > 0 ? "\(firstID.milliseconds)-\(firstID.sequence - 1)" : "\(firstID.milliseconds - 1)-0"
        let replay = try tap(key: keyA, lastEventId: before)
        let clubAEvents = all.events.filter { $0.event.club == "club-a" }.map(\.id)
        XCTAssertTrue(stack.waitUntil(timeout: 10) { replay.events.count >= clubAEvents.count }, "the replay arrived: \(replay.events.count)")
        XCTAssertEqual(replay.events.map(\.id), clubAEvents, "exactly club-a's events, in order")
        XCTAssertEqual(Set(replay.events.map(\.event.club)), ["club-a"])
        XCTAssertFalse(replay.events.contains { $0.event.jobId == jobB.id }, "nothing of club-b's job")
        XCTAssertGreaterThan(all.events.filter { $0.event.club == "club-b" }.count, 0, "club-b's events are in the backlog to leak")
    }

    func testResumingFromLastEventIdDeliversExactlyTheMissedEvents() throws {
        let whole = try tap()
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 1, tag: 5)
        XCTAssertTrue(waitFor(.jobSucceeded, of: job.id, on: whole), stack.logTail())
        let seen = whole.events.filter { $0.event.jobId == job.id }
        let running = try XCTUnwrap(seen.firstIndex { $0.event.type == .jobRunning })
        // A client that got events up to job.running and lost its connection then.
        let resumed = try tap(job: job.id, lastEventId: seen[running].id)
        XCTAssertTrue(waitFor(.jobSucceeded, of: job.id, on: resumed))
        XCTAssertEqual(resumed.events.map(\.id), seen[(running + 1)...].map(\.id), "each missed event once, in order, and none it had")
        XCTAssertFalse(resumed.all.contains { $0.type == EventNotice.reset })
        // The query parameter does the same for clients that cannot set headers.
        let raw = try RawConnection(port: stack.port)
        try raw.send("GET /v1/events?lastEventId=\(seen[running].id)&job=\(job.id.uuidString.lowercased()) HTTP/1.1\r\nHost: x\r\n"
                     + "Authorization: Bearer \(stack.operatorKey)\r\n\r\n")
        let text = String(decoding: raw.readUntilClosed(timeout: 1).data, as: UTF8.self)
        XCTAssertTrue(text.contains("text/event-stream"), text)
        XCTAssertTrue(text.contains("id: \(seen[running + 1].id)\n"), text)
    }

    func testAnExpiredOrMalformedLastEventIdGetsTheResetEventFirst() throws {
        // The stream as a coordinator with a cap of 100 keeps it, after 1,000 events.
        let stream = EventStream(prefix: stack.queuePrefix, cap: 100)
        let ids = try stream.append((0..<1_000).map { JobEvent(type: .jobQueued, jobId: UUID(), club: "c", time: Date(timeIntervalSince1970: Double($0))) },
                                   on: try stack.redis())
        for (lastEventId, says) in [(ids[0].description, "no longer kept"), ("yesterday", "not an event id")] {
            let tap = try tap(lastEventId: lastEventId)
            XCTAssertTrue(stack.waitUntil(timeout: 5) { tap.all.contains { $0.type != nil } })
            let first = try XCTUnwrap(tap.all.first { $0.type != nil })
            XCTAssertEqual(first.type, EventNotice.reset)
            XCTAssertEqual(first.id, ids.last?.description, "resume after the newest event, from now on")
            guard case .event(_, _, let data) = first.item else { return XCTFail() }
            let notice = try ReelworkJSON.decoder.decode(EventNotice.self, from: Data(data.utf8))
            XCTAssertTrue(notice.message.contains(says), notice.message)
            XCTAssertEqual(tap.events.count, 0, "no event from before now")
        }
    }

    /// A key has at most its cap of streams open on a coordinator: the next is refused with 429
    /// naming the setting, another key is not affected, and a stream that ends gives its place back.
    func testAKeyOverItsStreamCapGets429UntilOneOfItsStreamsEnds() throws {
        let open = try (0..<Self.streamCap).map { _ in try tap() }
        let refused = EventTap(try stack.client(key: nil))
        XCTAssertTrue(stack.waitUntil(timeout: 10) { refused.ended.withLock { $0 } != nil }, "one stream more than the cap was let open")
        let why = refused.ended.withLock { $0 } ?? ""
        XCTAssertTrue(why.contains("REELWORK_EVENTS_MAX_STREAMS_PER_KEY"), why)
        XCTAssertFalse(refused.isConnected)
        let other = try tap(key: try stack.createKey(["--club", "default"]))
        XCTAssertTrue(other.isConnected, "another key has places of its own")
        open[0].stop()
        // The coordinator notices the closed connection at its next heartbeat (0.3 s here).
        XCTAssertTrue(try stack.waitUntil(timeout: 10) {
            let again = EventTap(try self.stack.client(key: nil))
            let connected = self.stack.waitUntil(timeout: 2) { again.isConnected || again.ended.withLock { $0 } != nil } && again.isConnected
            again.stop()
            return connected
        }, "the ended stream's place was given back")
        open.forEach { $0.stop() }
        other.stop()
    }

    func testAnIdleStreamGetsHeartbeatComments() throws {
        let tap = try tap()
        XCTAssertTrue(stack.waitUntil(timeout: 5) { tap.all.filter { $0.item == .comment("heartbeat") }.count >= 3 },
                      "heartbeats every 0.3 s: \(tap.all.map(\.item))")
    }

    func testJobsWatchFollowsTheEventsWithPlainLinesWhenNotATerminal() throws {
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 1, tag: 6)
        let watched = try stack.run(["jobs", "watch", job.id.uuidString.lowercased()])
        XCTAssertEqual(watched.status, 0, watched.output)
        XCTAssertFalse(watched.output.contains("\u{1B}["), "no cursor movement in a pipe")
        XCTAssertFalse(watched.output.contains("polling"), "it used the event stream: \(watched.output)")
        let lines = watched.output.split(separator: "\n")
        XCTAssertTrue(lines.last?.contains("succeeded") == true, watched.output)
        XCTAssertGreaterThan(lines.count, 1, "redrawn as it changed: \(watched.output)")

        let api = try stack.client(), clip: UUID = video
        let batch = try awaitSync {
            let batch = try await api.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object(["seconds": .number(0.3)])])))
            _ = try await api.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: [clip]))
            return batch
        }
        let batchWatched = try stack.run(["batches", "watch", batch.id.uuidString.lowercased()])
        XCTAssertEqual(batchWatched.status, 0, batchWatched.output)
        XCTAssertFalse(batchWatched.output.contains("polling"), batchWatched.output)
        XCTAssertFalse(batchWatched.output.contains("\u{1B}["))
    }
}
