import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import Threading
import XCTest

/// Per-club quotas and per-key request rates (issue 12), against the coordinator in process
/// (`InProcessStack`: its router, real PostgreSQL and Redis). `ClubLimitsProcessTests` has the
/// per-address limit (it needs the peer's address) and PostgreSQL stopped under a coordinator.
final class ClubLimitsTests: XCTestCase {
    var stack: InProcessStack!

    override func tearDown() {
        stack?.shutdown()
    }

    func testAClubOverItsWaitingJobQuotaGets429WithTheNumbersAndOthersGoOn() throws {
        stack = try InProcessStack(settings: ["REELWORK_MAX_WAITING_JOBS_PER_CLUB": "2"])
        let north = try stack.createKey(["--club", "north"])
        let south = try stack.createKey(["--club", "south"])
        try stack.startCoordinator()   // no worker: jobs stay waiting
        let clip = try stack.makeTinyClip()
        let northClient = try stack.client(key: north)
        let video = try awaitSync { try await northClient.uploadVideo(file: clip) }
        func create(_ client: CoordinatorClient, _ video: UUID, tag: Int) throws -> JobView {
            // Another name, another job of the same clip.
            try awaitSync { try await client.createJob(CreateJobRequest(videoId: video, sport: "tennis", fileName: "clip-\(tag).mp4")) }
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

    func testAKeyOverItsRateGets429WithRetryAfterAndOtherKeysDoNot() throws {
        stack = try InProcessStack(settings: ["REELWORK_RATE_LIMIT_PER_SECOND": "5"])
        let busy = try stack.createKey(["--club", "north"])
        let calm = try stack.createKey(["--club", "south"])
        try stack.startCoordinator()
        let url = "/v1/jobs"
        // 30 requests in well under the seconds they span: at most 5 per second get through.
        let started = Date()
        let answers = try (0..<30).map { _ in try stack.get(url, key: busy) }
        let seconds = Int(Date().timeIntervalSince(started).rounded(.up)) + 1
        let passed = answers.filter { $0.1 == 200 }.count
        let limited = answers.filter { $0.1 == 429 }
        XCTAssertEqual(passed + limited.count, 30, "only 200 or 429: \(answers.map(\.1))")
        XCTAssertLessThanOrEqual(passed, 5 * seconds)
        XCTAssertFalse(limited.isEmpty, "30 requests in \(seconds) s must meet a limit of 5/s")
        XCTAssertEqual(limited.first?.2["Retry-After"], "1")
        XCTAssertEqual(limited.first.flatMap { HTTP.apiError($0.0)?.code }, "rate_limited")
        XCTAssertEqual(try stack.get(url, key: calm).1, 200, "the limit is per key")
    }

    func testARevokedKeyStopsWorkingAtOnce() throws {
        stack = try InProcessStack()
        let key = try stack.createKey(["--club", "north", "--label", "laptop"])
        try stack.startCoordinator()
        let url = "/v1/jobs"
        XCTAssertEqual(try stack.get(url, key: key).1, 200)
        let id = try XCTUnwrap(try APIKeyRepository(stack.db()).list().first { $0.label == "laptop" }?.id)
        _ = try APIKeyRepository(stack.db()).revoke(id: id)   // as `reelwork keys revoke` does
        let (data, status, headers) = try stack.get(url, key: key)
        XCTAssertEqual(status, 401)
        XCTAssertEqual(HTTP.apiError(data)?.code, "unauthorized")
        XCTAssertEqual(headers["Www-Authenticate"] ?? headers["WWW-Authenticate"], "Bearer")
    }
}

/// The per-address limit (it counts by the connection's peer) and the unknown-key cache with
/// PostgreSQL stopped, against a coordinator process.
final class ClubLimitsProcessTests: XCTestCase {
    var stack: TestStack!

    override func tearDown() {
        stack?.shutdown()
    }

    /// The per-address limit comes before anything that costs: from one address, a flood of well-formed
    /// keys that do not exist meets 429 on the API, on the dashboard's sign-in form and on `/metrics`
    /// alike, while a client at another address goes on as before.
    func testAnAddressOverItsRateGets429OnEveryRouteAndOtherAddressesDoNot() throws {
        stack = try TestStack(settings: ["REELWORK_RATE_LIMIT_PER_ADDRESS": "5"])
        let forged = try revokedKey("forged")
        let calm = try stack.createKey(["--club", "south"])
        try stack.startCoordinator()
        for (index, path) in ["/v1/jobs", "/dashboard/login", "/metrics"].enumerated() {
            let flooder = "127.0.0.\(10 + index)"
            let started = Date()
            let answers = try (0..<30).map { _ in try curl(path, from: flooder, key: forged) }
            let seconds = Date().timeIntervalSince(started)
            let statuses = answers.map(\.status)
            let limited = try XCTUnwrap(answers.first { $0.status == 429 },
                                        "\(path): 30 requests in \(seconds) s from one address must meet a limit of 5/s: \(statuses)")
            XCTAssertLessThanOrEqual(Double(statuses.filter { $0 != 429 }.count), 10 + 5 * seconds.rounded(.up),
                                     "\(path): a burst of 10, then 5 a second: \(statuses)")
            XCTAssertTrue(limited.body.contains("REELWORK_RATE_LIMIT_PER_ADDRESS"), limited.body)
        }
        XCTAssertEqual(try curl("/v1/jobs", from: "127.0.0.2", key: calm).status, 200, "another address has its own share")
    }

    /// A key PostgreSQL just said is unknown is refused again without asking it: with PostgreSQL
    /// stopped, that key still gets 401, while a key never seen needs the lookup and gets 503.
    func testAnUnknownKeyIsRefusedAgainWithoutALookup() throws {
        stack = try TestStack()
        let seen = try revokedKey("seen"), unseen = try revokedKey("unseen")
        try stack.startCoordinator()
        let url = URL(string: "\(stack.coordinatorURL)/v1/jobs")!
        XCTAssertEqual(try HTTP.get(url, key: seen).1, 401)
        try stack.services(#"rw_stop_postgres "$REELWORK_TEST_PG_DIR""#)
        defer { try? stack.services(#"RW_PG_FAST=1 rw_start_postgres "$REELWORK_TEST_PG_DIR" "$REELWORK_TEST_PG_PORT" postgres"#) }
        let again = try HTTP.get(url, key: seen)
        XCTAssertEqual(again.1, 401, "answered from the cache: \(String(decoding: again.0, as: UTF8.self))")
        XCTAssertEqual(HTTP.apiError(again.0)?.code, "unauthorized")
        let lookedUp = try HTTP.get(url, key: unseen)
        XCTAssertEqual(lookedUp.1, 503, "a key never seen is looked up, and PostgreSQL is away")
        // A 503 names the dependency, never its address or the driver's words.
        let message = HTTP.apiError(lookedUp.0)?.message ?? ""
        XCTAssertTrue(message.contains("postgres is unavailable"), message)
        for detail in ["127.0.0.1", ProcessInfo.processInfo.environment["REELWORK_TEST_PG_PORT"] ?? "5432", "connection to server", "libpq"] {
            XCTAssertFalse(message.contains(detail), "\(detail) in \(message)")
        }
    }

    /// A well-formed key that no longer exists: made, then revoked.
    private func revokedKey(_ label: String) throws -> String {
        let key = try stack.createKey(["--club", "north", "--label", label])
        let id = try XCTUnwrap(try APIKeyRepository(stack.db()).list().first { $0.label == label }?.id)
        XCTAssertEqual(try stack.run(["keys", "revoke", id.uuidString]).status, 0)
        return key
    }

    /// One request with curl from a chosen loopback address (the server sees it as the client's).
    private func curl(_ path: String, from address: String, key: String) throws -> (status: Int, body: String) {
        let output = String(decoding: try Tool.run("/usr/bin/curl", ["-s", "--interface", address, "-H", "Authorization: Bearer \(key)",
                                                    "-w", "\n%{http_code}", stack.coordinatorURL + path]), as: UTF8.self)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n"))
    }
}
