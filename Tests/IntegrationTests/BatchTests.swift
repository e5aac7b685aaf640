import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import Threading
import XCTest

/// Batches' refusals of bad requests and of a club over its quota, against the coordinator in
/// process (`InProcessStack`: its router, real PostgreSQL and Redis). `BatchWorkerTests` has what
/// a worker runs: many jobs in one request, repeats that create nothing, counts that follow the
/// jobs, retry and cancel of the whole.
final class BatchTests: XCTestCase {
    var stack: InProcessStack!
    var club = ""
    var client: CoordinatorClient!

    override func setUpWithError() throws {
        stack = try InProcessStack(settings: ["REELWORK_MAX_ATTEMPTS": "1"])
        club = try stack.createKey(["--club", "north"])
        try stack.startCoordinator()
        client = try stack.client(key: club)
    }

    override func tearDown() {
        stack?.shutdown()
    }

    /// `count` different small clips uploaded by the club (different bytes: different videos).
    func uploadClips(_ count: Int) throws -> [UUID] {
        try uploadBatchClips(count, in: stack.directory, client: client)
    }

    func testBadBatchRequestsAreRefusedAndCreateNothing() throws {
        let videos = try uploadClips(1)
        let client = self.client!
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis")) }
        let url = "/v1/batches/\(batch.id.uuidString.lowercased())/jobs"
        let tooMany = "{\"videoIds\":[" + (0..<100_000).map { _ in "\"\(UUID().uuidString)\"" }.joined(separator: ",") + "]}"
        let cases: [(String, Data, Int, String)] = [
            ("100,000 ids", Data(tooMany.utf8), 413, "body_too_large"),
            ("5,001 ids", Data(("{\"videoIds\":[" + (0..<5_001).map { _ in "\"\(UUID().uuidString)\"" }.joined(separator: ",") + "]}").utf8),
             400, "invalid_request"),
            ("a duplicate", Data(#"{"videoIds":["\#(videos[0])","\#(videos[0])"]}"#.utf8), 400, "invalid_request"),
            ("an unknown video", Data(#"{"videoIds":["\#(videos[0])","\#(UUID())"]}"#.utf8), 404, "video_not_found"),
            ("no ids", Data(#"{"videoIds":[]}"#.utf8), 400, "invalid_request"),
            ("not ids", Data(#"{"videoIds":["nope"]}"#.utf8), 400, "invalid_json"),
        ]
        for (label, body, status, code) in cases {
            let (data, got, _) = try stack.request("POST", url, key: club, body: body)
            XCTAssertEqual(got, status, "\(label): \(String(decoding: data.prefix(300), as: UTF8.self))")
            XCTAssertEqual(HTTP.apiError(data)?.code, code, label)
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0].int("n"), 0, "nothing half-created")

        let badBatch = try stack.request("POST", "/v1/batches", key: club,
                                        body: Data(#"{"sport":"curling"}"#.utf8))
        XCTAssertEqual(badBatch.1, 400)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM batches").rows[0].int("n"), 1)
    }

    func testABatchOverTheClubsQuotaCreatesNone() throws {
        stack.shutdown()
        stack = try InProcessStack(settings: ["REELWORK_MAX_WAITING_JOBS_PER_CLUB": "2"])
        club = try stack.createKey(["--club", "north"])
        try stack.startCoordinator()
        client = try stack.client(key: club)
        let videos = try uploadClips(3)
        let client = self.client!
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis")) }
        XCTAssertThrowsError(try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: videos)) }) { error in
            guard case .api(let status, let code, let message) = error as? ClientError else { return XCTFail("\(error)") }
            XCTAssertEqual(status, 429)
            XCTAssertEqual(code, "quota_exceeded")
            XCTAssertTrue(message.contains("asked for 3 more") && message.contains("at most 2"), message)
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0].int("n"), 0, "all or none")
        XCTAssertEqual(try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: Array(videos.prefix(2)))) }.created, 2)
    }
}

/// Batches run by a worker process: many jobs in one request, repeats that create nothing, counts
/// that follow the jobs, retry and cancel of the whole.
final class BatchWorkerTests: XCTestCase {
    var stack: TestStack!
    var club = ""
    var client: CoordinatorClient!

    override func setUpWithError() throws {
        stack = try TestStack(settings: ["REELWORK_MAX_ATTEMPTS": "1"])
        club = try stack.createKey(["--club", "north"])
        try stack.startCoordinator()
        client = try stack.client(key: club)
    }

    override func tearDown() {
        stack?.shutdown()
    }

    /// `count` different small clips uploaded by the club (different bytes: different videos).
    func uploadClips(_ count: Int) throws -> [UUID] {
        try uploadBatchClips(count, in: stack.directory, client: client)
    }

    func testABatchCreatesItsJobsAtOnceRepeatsCreateNothingAndCountsFollow() throws {
        let videos = try uploadClips(3)
        let noop: JSONValue = .object(["noop": .object(["seconds": .number(1)])])
        let client = self.client!
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis", options: noop, label: "week 1"),
                                                                  idempotencyKey: "submit-1") }
        let again = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis", options: noop), idempotencyKey: "submit-1") }
        XCTAssertEqual(again.id, batch.id, "the same Idempotency-Key gives the same batch")
        XCTAssertEqual(batch.club, "north")

        let added = try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: videos)) }
        XCTAssertEqual(added.created, 3)
        XCTAssertEqual(Set(added.jobIds).count, 3)
        let queue = try JobQueue(config: ReelworkConfig.fromEnvironment(stack.environment))
        XCTAssertEqual(try queue.stats(on: stack.redis()).ready, 3, "all three enqueued")

        // A resumed submit sends the same videos again: same jobs, nothing new.
        let repeated = try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: videos.reversed())) }
        XCTAssertEqual(repeated.created, 0)
        XCTAssertEqual(repeated.jobIds, added.jobIds.reversed())
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0].int("n"), 3)

        let waiting = try awaitSync { try await client.batch(batch.id) }
        XCTAssertEqual(waiting.total, 3)
        XCTAssertEqual(waiting.counts["queued"], 3)
        XCTAssertNil(waiting.finishedAt)

        try stack.startWorker(slots: 2)
        XCTAssertTrue(try stack.waitUntil(timeout: 60) { try awaitSync { try await client.batch(batch.id) }.isComplete })
        let done = try awaitSync { try await client.batch(batch.id) }
        XCTAssertEqual(done.counts, ["succeeded": 3])
        XCTAssertGreaterThan(done.framesPlanned, 0)
        XCTAssertEqual(done.framesDone, done.framesPlanned)
        XCTAssertNotNil(done.startedAt)
        let listed = try awaitSync { try await client.batchJobs(batch.id) }
        XCTAssertEqual(Set(listed.jobs.map(\.id)), Set(added.jobIds))
        XCTAssertTrue(listed.jobs.allSatisfy { $0.batchId == batch.id })
        XCTAssertEqual(try awaitSync { try await client.batches() }.batches.map(\.id), [batch.id])
    }

    func testRetryAndCancelActOnTheWholeBatch() throws {
        let videos = try uploadClips(2)
        let client = self.client!
        let failing = try awaitSync { try await client.createBatch(CreateBatchRequest(
            sport: "tennis", options: .object(["noop": .object(["invalidAttempts": .number(1)])]))) }
        _ = try awaitSync { try await client.addBatchJobs(failing.id, AddBatchJobsRequest(videoIds: videos)) }
        try stack.startWorker()
        XCTAssertTrue(try stack.waitUntil(timeout: 60) { try awaitSync { try await client.batch(failing.id) }.counts["failed"] == 2 })
        let retried = try awaitSync { try await client.retryBatch(failing.id) }
        XCTAssertEqual(retried.retried.count, 2)
        XCTAssertTrue(try stack.waitUntil(timeout: 60) {
            try self.stack.db().query("SELECT count(*) AS n FROM job_attempts").rows[0].int("n") == 4
        }, "each failed job ran again")

        stack.workers.forEach { $0.terminate() }
        stack.workers.forEach { $0.waitUntilExit() }
        let slow = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object(["seconds": .number(30)])]))) }
        _ = try awaitSync { try await client.addBatchJobs(slow.id, AddBatchJobsRequest(videoIds: videos)) }
        let cancelled = try awaitSync { try await client.cancelBatch(slow.id) }
        XCTAssertEqual(cancelled.counts, ["cancelled": 2])
        let queue = try JobQueue(config: ReelworkConfig.fromEnvironment(stack.environment))
        XCTAssertEqual(try queue.stats(on: stack.redis()).ready, 0, "Redis forgot the cancelled jobs")
    }
}

/// `count` different small clips in `directory`, uploaded by `client` (different bytes: different videos).
func uploadBatchClips(_ count: Int, in directory: URL, client: CoordinatorClient) throws -> [UUID] {
    try (0..<count).map { i in
        let clip = directory.appendingPathComponent("clip-\(i).mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.5", "-vf", "hue=h=\(i * 7)",
                         "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path])
        return try awaitSync { try await client.uploadVideo(file: clip) }.id
    }
}
