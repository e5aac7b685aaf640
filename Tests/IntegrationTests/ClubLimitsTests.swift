import Foundation
import ReelworkClient
import ReelworkCore
import Store
import Threading
import XCTest

/// Per-club quotas and per-key request rates (issue 12), against a real coordinator.
final class ClubLimitsTests: XCTestCase {
    var stack: TestStack!

    override func tearDown() {
        stack?.shutdown()
    }

    func test_AClubOverItsWaitingJobQuotaGets429WithTheNumbersAndOthersGoOn() throws {
        stack = try TestStack(settings: ["REELWORK_MAX_WAITING_JOBS_PER_CLUB": "2"])
        let north = try stack.createKey(["--club", "north"])
        let south = try stack.createKey(["--club", "south"])
        try stack.startCoordinator()   // no worker: jobs stay waiting
        let clip = try stack.makeTinyClip()
        let northClient = try stack.client(key: north)
        let video = try awaitSync { try await northClient.uploadVideo(file: clip) }
        func create(_ client: CoordinatorClient, _ video: UUID, tag: Int) throws -> JobView {
            try awaitSync { try await client.createJob(CreateJobRequest(videoId: video, sport: "tennis", options: .object(["tag": .number(Double(tag))]))) }
        }
        let first = try create(northClient, video.id, tag: 1)
        _ = try create(northClient, video.id, tag: 2)
        XCTAssertThrowsError(try create(northClient, video.id, tag: 3)) { error in
            guard case .api(let status, let code, let message) = error as? ClientError else { return XCTFail("\(error)") }
            XCTAssertEqual(status, 429)
            XCTAssertEqual(code, "quota_exceeded")
            XCTAssertTrue(message.contains("2 waiting") && message.contains("at most 2"), message)
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs WHERE club = 'north'").rows[0].int("n"), 2, "nothing created")
        XCTAssertEqual(try create(northClient, video.id, tag: 1).id, first.id, "a repeat of a waiting job is still answered")

        let southClient = try stack.client(key: south)
        let southVideo = try awaitSync { try await southClient.uploadVideo(file: clip) }
        XCTAssertNoThrow(try create(southClient, southVideo.id, tag: 1), "another club's quota is its own")

        _ = try awaitSync { try await northClient.cancel(first.id) }
        XCTAssertNoThrow(try create(northClient, video.id, tag: 3), "a cancelled job frees its place")
    }

    func test_AKeyOverItsRateGets429WithRetryAfterAndOtherKeysDoNot() throws {
        stack = try TestStack(settings: ["REELWORK_RATE_LIMIT_PER_SECOND": "5"])
        let busy = try stack.createKey(["--club", "north"])
        let calm = try stack.createKey(["--club", "south"])
        try stack.startCoordinator()
        let url = URL(string: "\(stack.coordinatorURL)/v1/jobs")!
        // 30 requests in well under the seconds they span: at most 5 per second get through.
        let started = Date()
        let answers = try (0..<30).map { _ in try HTTP.get(url, key: busy) }
        let seconds = Int(Date().timeIntervalSince(started).rounded(.up)) + 1
        let passed = answers.filter { $0.1 == 200 }.count
        let limited = answers.filter { $0.1 == 429 }
        XCTAssertEqual(passed + limited.count, 30, "only 200 or 429: \(answers.map(\.1))")
        XCTAssertLessThanOrEqual(passed, 5 * seconds)
        XCTAssertFalse(limited.isEmpty, "30 requests in \(seconds) s must meet a limit of 5/s")
        XCTAssertEqual(limited.first?.2["Retry-After"], "1")
        XCTAssertEqual(limited.first.flatMap { HTTP.apiError($0.0)?.code }, "rate_limited")
        XCTAssertEqual(try HTTP.get(url, key: calm).1, 200, "the limit is per key")
    }

    func test_ARevokedKeyStopsWorkingAtOnce() throws {
        stack = try TestStack()
        let key = try stack.createKey(["--club", "north", "--label", "laptop"])
        try stack.startCoordinator()
        let url = URL(string: "\(stack.coordinatorURL)/v1/jobs")!
        XCTAssertEqual(try HTTP.get(url, key: key).1, 200)
        let id = try XCTUnwrap(try APIKeyRepository(stack.db()).list().first { $0.label == "laptop" }?.id)
        XCTAssertEqual(try stack.run(["keys", "revoke", id.uuidString]).status, 0)
        let (data, status, headers) = try HTTP.get(url, key: key)
        XCTAssertEqual(status, 401)
        XCTAssertEqual(HTTP.apiError(data)?.code, "unauthorized")
        XCTAssertEqual(headers["Www-Authenticate"] ?? headers["WWW-Authenticate"], "Bearer")
    }
}
