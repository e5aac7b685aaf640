import Foundation
import ReelworkClient
import ReelworkCore
import TestSupport
import XCTest

/// `/metrics` on a coordinator and on a worker (issue 13, part 3), scraped during a run and read
/// by prometheus_client's parser: the counters move by exactly the jobs run, the gauges follow the
/// queue, labels hold route patterns and bounded names (never an id), and only an operator key or
/// the scrape token may read them.
final class MetricsEndpointTests: XCTestCase {
    static let token = "scrape-token-for-the-metrics-tests"
    var stack: TestStack!
    var workerMetrics: URL!

    override func tearDown() {
        // What the processes said, when a test failed: a metric that never moved may be a crash.
        if let run = testRun, run.totalFailureCount > 0, let stack { print(stack.logTail()) }
        stack?.shutdown()
        super.tearDown()
    }

    /// A stack with fast queue timings, the scrape token, and queue gauges refreshed every 0.1 s.
    func startStack(extra: [String: String] = [:]) throws {
        stack = try TestStack(settings: TestStack.fastQueue.merging([
            MetricsSettings.Env.scrapeToken: Self.token, MetricsSettings.Env.refreshSeconds: "0.1",
        ]) { $1 }.merging(extra) { $1 })
        try stack.startCoordinator()
    }

    var coordinatorMetrics: URL { URL(string: "\(stack.coordinatorURL)/metrics")! }

    func scrapeCoordinator() throws -> MetricsScrape { try MetricsScrape.fetch(coordinatorMetrics, key: Self.token) }
    func scrapeWorker() throws -> MetricsScrape { try MetricsScrape.fetch(workerMetrics, key: stack.operatorKey) }

    /// A worker serving `/metrics` on a port of its own; returns once it answers.
    func startWorker() throws {
        let port = try FreePort.next()
        workerMetrics = URL(string: "http://127.0.0.1:\(port)/metrics")!
        try stack.startWorker(extraEnvironment: [MetricsSettings.Env.workerBind: "127.0.0.1:\(port)"])
        let up = stack.waitUntil(timeout: 60) { (try? HTTP.get(self.workerMetrics, key: Self.token))?.1 == 200 }
        XCTAssertTrue(up, "the worker's /metrics never answered:\n\(stack.logTail())")
    }

    /// Polls the coordinator's metrics until `condition` holds for a scrape; returns the last one.
    @discardableResult
    func awaitCoordinator(_ what: String, timeout: TimeInterval = 30, _ condition: (MetricsScrape) -> Bool) throws -> MetricsScrape {
        var last = try scrapeCoordinator()
        let held = try stack.waitUntil(timeout: timeout) {
            last = try scrapeCoordinator()
            return condition(last)
        }
        XCTAssertTrue(held, "\(what): never seen in\n\(last.samples.filter { !$0.name.hasSuffix("_bucket") }.map { "\($0.name)\($0.labels) \($0.value)" }.joined(separator: "\n"))")
        return last
    }

    func testCountersMoveByExactlyTheJobsRun() throws {
        try startStack()
        let client = try stack.client()
        let clip = try stack.makeTinyClip()
        let clipBytes = try Data(contentsOf: clip).count
        let before = try scrapeCoordinator()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }

        func job(_ club: String, _ options: JSONValue, priority: String? = nil, maxAttempts: Int? = nil) throws -> JobView {
            let request = CreateJobRequest(videoId: video.id, sport: "tennis", club: club, options: options, maxAttempts: maxAttempts,
                                           priority: priority)
            return try awaitSync { try await client.createJob(request) }
        }
        func noop(_ settings: [String: JSONValue], tag: Int) -> JSONValue {
            .object(["noop": .object(settings), "tag": .number(Double(tag))])
        }
        // Club alpha: a slow job first in its line (the gauges catch it running), three quick ones,
        // one that fails once and then succeeds, and one real analysis of the clip.
        let slow = try job("alpha", noop(["seconds": .number(3)], tag: 0), priority: "high")
        let quick = try (1...3).map { try job("alpha", noop([:], tag: $0)) }
        let retried = try job("alpha", noop(["failAttempts": .number(1)], tag: 4), maxAttempts: 2)
        let analysed = try job("alpha", .object([:]))
        // Club beta: two that fail for good, one cancelled while it waits, and a batch of one
        // cancelled with its batch (on beta's own record of the clip, made by its first job).
        let invalid = try (5...6).map { try job("beta", noop(["invalidAttempts": .number(1)], tag: $0)) }
        let cancelled = try job("beta", noop([:], tag: 7))
        _ = try awaitSync { try await client.cancel(cancelled.id) }
        let betaVideo = try XCTUnwrap(try awaitSync { try await client.lookupVideos(hashes: [video.contentHash], club: "beta") }.videos.first)
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis", options: noop([:], tag: 8), club: "beta")) }
        _ = try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: [betaVideo.videoId])) }
        _ = try awaitSync { try await client.cancelBatch(batch.id) }
        let created = 10

        // No worker yet: everything waits, per club.
        let waiting = try awaitCoordinator("6 jobs waiting in alpha, 2 in beta") {
            $0.value(MetricName.jobsWaiting, ["club": "alpha"]) == 6 && $0.value(MetricName.jobsWaiting, ["club": "beta"]) == 2
        }
        XCTAssertLessThan(waiting.value(MetricName.queueSnapshotAge), 5, "the snapshot is refreshed every 0.1 s")
        XCTAssertGreaterThan(waiting.value(MetricName.queueSnapshotAge), 0, "measured at the scrape")

        try startWorker()
        try awaitCoordinator("alpha's slow job running") { $0.value(MetricName.jobsRunning, ["club": "alpha"]) == 1 }
        let beats = try scrapeWorker().samples.filter { $0.name == MetricName.heartbeatAge }
        XCTAssertEqual(beats.count, 1, "the worker's heartbeat age, once")
        for beat in beats {
            XCTAssertNotNil(beat.labels["worker"])
            XCTAssertGreaterThan(beat.value, 0, "measured at the scrape: never exactly now")
            XCTAssertLessThan(beat.value, TestStack.fastQueue["REELWORK_LEASE_SECONDS"].flatMap(Double.init) ?? 3,
                              "a live worker's heartbeat is younger than its lease")
        }

        for id in [slow.id, retried.id, analysed.id] + (quick + invalid).map(\.id) { _ = try stack.waitForTerminal(id, timeout: 120) }
        try awaitCoordinator("nothing waiting or running") { scrape in
            ["alpha", "beta"].allSatisfy { scrape.value(MetricName.jobsWaiting, ["club": $0]) == 0 && scrape.value(MetricName.jobsRunning, ["club": $0]) == 0 }
        }
        let strayPath = "/no-such-path-\(UUID().uuidString.lowercased())"
        XCTAssertEqual(try HTTP.get(URL(string: stack.coordinatorURL + strayPath)!).1, 404)
        let coordinator = try scrapeCoordinator()
        let worker = try scrapeWorker()
        func delta(_ name: String, _ labels: [String: String] = [:]) -> Double {
            coordinator.value(name, labels) - before.value(name, labels)
        }

        // Jobs finished: the worker counts its runs' outcomes, the coordinator the cancel; a retry
        // is no finish. Together, exactly the jobs created.
        let finished = MetricName.jobsFinished
        let succeeded = ["sport": "tennis", "outcome": "succeeded", "error_kind": "none"]
        XCTAssertEqual(worker.value(finished, succeeded), 6, "slow, 3 quick, the retried one, the analysis")
        XCTAssertEqual(worker.value(finished, ["sport": "tennis", "outcome": "failed", "error_kind": "invalid_input"]), 2)
        XCTAssertEqual(delta(finished, ["sport": "tennis", "outcome": "cancelled", "error_kind": "none"]), 2, "the job and the batch's")
        XCTAssertEqual(worker.value(finished) + delta(finished), Double(created), "every job finished once, counted once")

        // Stages: each attempt's noop stage, and the analysis's stages once each.
        let stage = MetricName.stageDuration + "_count"
        XCTAssertEqual(worker.value(stage, ["stage": "noop", "outcome": "succeeded"]), 5)
        XCTAssertEqual(worker.value(stage, ["stage": "noop", "outcome": "failed"]), 3, "the retried job's first attempt and the two invalid ones")
        for name in ["probe", "decode", "objects", "pose", "swings", "metrics"] {
            XCTAssertEqual(worker.value(stage, ["stage": name, "outcome": "succeeded"]), 1, name)
        }

        // Frames: the clip's, decoded once; the frames the models saw; one detector run per frame.
        let done = try stack.waitForTerminal(analysed.id)
        XCTAssertEqual(done.status, .succeeded)
        let objects = try XCTUnwrap(done.stages.first { $0.name == "objects" }?.framesDone)
        XCTAssertEqual(worker.value(MetricName.framesDecoded), Double(video.facts.frameCount))
        XCTAssertEqual(worker.value(MetricName.framesAnalysed, ["stage": "objects"]), Double(objects))
        XCTAssertEqual(worker.value(MetricName.framesAnalysed, ["stage": "pose"]), Double(objects))
        XCTAssertEqual(worker.value(MetricName.inferenceDuration + "_count", ["model": "detector"]), Double(objects))

        // The coordinator's own: bytes uploaded, requests by route pattern, round trips.
        XCTAssertEqual(delta(MetricName.uploadBytes), Double(clipBytes))
        let http = MetricName.httpRequestDuration + "_count"
        XCTAssertEqual(delta(http, ["route": "/v1/jobs", "method": "POST", "status": "201"]), Double(created - 1), "all but the batch's")
        XCTAssertEqual(delta(http, ["route": "/v1/jobs/{id}/cancel", "method": "POST", "status": "202"]), 1)
        XCTAssertGreaterThan(delta(http, ["route": "/v1/jobs/{id}", "method": "GET", "status": "200"]), 0)
        XCTAssertEqual(delta(http, ["route": "unmatched", "method": "GET", "status": "404"]), 1)
        for scrape in [coordinator, worker] {
            XCTAssertGreaterThan(scrape.value(MetricName.redisRoundTrip + "_count"), 0)
            XCTAssertGreaterThan(scrape.value(MetricName.postgresRoundTrip + "_count"), 0)
        }

        // Names and labels: ours, Prometheus's conventions, bounded values.
        let exported = Set((coordinator.samples + worker.samples).map(\.name))
        for name in MetricName.all {
            XCTAssertTrue(exported.contains { $0 == name || $0.hasPrefix(name + "_") }, "\(name) is exported")
        }
        let uuid = try NSRegularExpression(pattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", options: .caseInsensitive)
        for family in coordinator.families + worker.families {
            XCTAssertTrue(family.name.hasPrefix("reelwork_"), family.name)
            if family.type == "counter" { XCTAssertTrue(family.samples.allSatisfy { $0.name.hasSuffix("_total") }, family.name) }
            if family.type == "histogram" { XCTAssertTrue(family.name.hasSuffix("_seconds"), family.name) }
            for sample in family.samples {
                for value in sample.labels.values {
                    let range = NSRange(value.startIndex..., in: value)
                    XCTAssertNil(uuid.firstMatch(in: value, range: range), "\(sample.name) has an id in a label: \(sample.labels)")
                }
            }
        }
    }

    /// A job whose worker died, past its stalls, is failed by the coordinator's reaper: the
    /// coordinator counts it (the worker cannot), and publishes its end as a live event.
    func testAJobFailedForStallingIsCountedByTheCoordinator() throws {
        try startStack(extra: ["REELWORK_MAX_STALLS": "0"])
        let video = try stack.uploadTinyClip()
        let doomed = try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 60, tag: 1)
        let events = EventTap(try stack.client(), job: job.id)
        XCTAssertTrue(stack.waitUntil(timeout: 10) { events.isConnected }, "the event stream did not open")
        XCTAssertTrue(try stack.waitUntil(timeout: 60) { try stack.status(job.id) == "running" }, stack.logTail())
        kill(doomed.processIdentifier, SIGKILL)
        doomed.waitUntilExit()
        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .failed)
        XCTAssertEqual(done.lastErrorKind, "stalled")
        XCTAssertTrue(stack.waitUntil(timeout: 10) { events.events.contains { $0.event.type == .jobFailed && $0.event.errorKind == "stalled" } },
                      "no job.failed event: \(events.events.map(\.event.type))")
        let scrape = try scrapeCoordinator()
        XCTAssertEqual(scrape.value(MetricName.jobsFinished, ["sport": "tennis", "outcome": "failed", "error_kind": "stalled"]), 1)
        XCTAssertEqual(scrape.value(MetricName.jobsFinished), 1, "counted once, by the coordinator")
    }

    func testOnlyAnOperatorKeyOrTheScrapeTokenReadsMetrics() throws {
        try startStack()
        let clubKey = try stack.createKey(["--club", "alpha"])
        let workerKey = try stack.createKey(["--worker"])
        let unknownKey = "rw_op_" + String(repeating: "a", count: 32)
        try startWorker()
        for url in [coordinatorMetrics, workerMetrics!] {
            for key in [stack.operatorKey, Self.token] {
                XCTAssertEqual(try HTTP.get(url, key: key).1, 200, "\(url)")
            }
            for (key, why) in [(nil, "no key"), (unknownKey, "an unknown key"), (String(Self.token.dropLast()), "part of the token"),
                               (Self.token + "x", "more than the token"), ("rw_club_short", "a malformed key")] as [(String?, String)] {
                let (data, status, headers) = try HTTP.get(url, key: key)
                XCTAssertEqual(status, 401, "\(url) with \(why)")
                XCTAssertEqual(HTTP.apiError(data)?.code, "unauthorized", "\(url) with \(why)")
                XCTAssertEqual(OpenAPIContractTests.header("WWW-Authenticate", in: headers), "Bearer", "\(url) with \(why)")
            }
            for key in [clubKey, workerKey] {
                let (data, status, _) = try HTTP.get(url, key: key)
                XCTAssertEqual(status, 403, "\(url): a known key of a role that may not read metrics")
                XCTAssertEqual(HTTP.apiError(data)?.code, "forbidden")
            }
        }

        // An idle worker waits for work in BLPOP, a second at a time: a wait, not a round trip.
        let roundTrips = MetricName.redisRoundTrip + "_count"
        var idle = try scrapeWorker()
        try stack.waitUntil(timeout: 30) {
            idle = try scrapeWorker()
            return idle.value(roundTrips) >= 3
        }
        XCTAssertGreaterThanOrEqual(idle.value(roundTrips), 3, "the idle worker's claims are timed")
        XCTAssertEqual(idle.value(MetricName.redisRoundTrip + "_bucket", ["le": "1.0"]), idle.value(roundTrips),
                       "no Redis command took a second: the idle waits are not in the histogram")
    }

    /// The scrape token needs no database: with PostgreSQL down a scraper holding it still reads
    /// the metrics, while an operator key, which cannot be checked, gets 503 (not a 401 that
    /// would call a good key bad).
    func testTheScrapeTokenReadsMetricsWhilePostgreSQLIsDown() throws {
        try startStack()
        try stack.services(#"rw_stop_postgres "$REELWORK_TEST_PG_DIR""#)
        defer { try? stack.services(#"RW_PG_FAST=1 rw_start_postgres "$REELWORK_TEST_PG_DIR" "$REELWORK_TEST_PG_PORT" postgres"#) }
        XCTAssertEqual(try HTTP.get(coordinatorMetrics, key: Self.token).1, 200)
        let (data, status, _) = try HTTP.get(coordinatorMetrics, key: stack.operatorKey)
        XCTAssertEqual(status, 503)
        XCTAssertEqual(HTTP.apiError(data)?.code, "unavailable")
    }

    /// The README's "Metrics" section names every metric the code exports.
    func testTheReadmeListsEveryMetric() throws {
        let readme = try String(contentsOf: TestStack.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "\n## Metrics\n").dropFirst().first?.components(separatedBy: "\n## ").first,
                                    "README.md has a '## Metrics' section")
        for name in MetricName.all {
            XCTAssertTrue(section.contains("`\(name)`"), "README's Metrics section lists \(name)")
        }
    }
}
