import Coordinator
import Foundation
import Logging
import ReelworkClient
import ReelworkCore
import Store
import Threading
import XCTest

/// Guarantee 7 on every endpoint: the test walks the coordinator's registered routes, so a route
/// added later without a key check or a club filter fails here without anyone remembering to
/// extend the test. Club alpha owns a video, a succeeded job, a failed job, a batch, and a webhook
/// endpoint with the deliveries of its jobs' ends; club beta's key asks for them by id on every
/// route and must get exactly what an id that does not exist gets. Against the coordinator in
/// process (`InProcessStack`: its router, real PostgreSQL and Redis); alpha's jobs are run as a
/// worker records them (`runWaitingNoopJobs`). `ClubIsolationWorkerTests` has the worker key's
/// read of a running job's video.
final class ClubIsolationTests: XCTestCase {
    var stack: InProcessStack!
    var alphaKey = "", betaKey = "", workerKey = ""
    var alphaVideo: VideoView!
    var alphaJob: JobView!, alphaFailedJob: JobView!
    var alphaBatch: BatchView!
    var alphaWebhook: WebhookEndpointRecord!
    var alphaDelivery = ""
    var alphaUpload: UploadView!

    override func setUpWithError() throws {
        // Alpha's endpoint is a closed local port: its deliveries exist (and fail), which is all the walk needs.
        // Event streams end after 0.3 s here: every route is called and read to its end.
        stack = try InProcessStack(settings: ["REELWORK_MAX_ATTEMPTS": "1", "REELWORK_WEBHOOK_ALLOW_PRIVATE": "1",
                                         "REELWORK_EVENTS_MAX_STREAM_SECONDS": "0.3", "REELWORK_EVENTS_HEARTBEAT_SECONDS": "0.3"])
        alphaKey = try stack.createKey(["--club", "alpha"])
        betaKey = try stack.createKey(["--club", "beta"])
        workerKey = try stack.createKey(["--worker"])
        try stack.startCoordinator()
        let alpha = try stack.client(key: alphaKey)
        alphaWebhook = try awaitSync { try await alpha.createWebhook(CreateWebhookRequest(url: "http://127.0.0.1:9/hook", events: ["job.succeeded"])) }
            .webhook
        let clip = try stack.makeTinyClip()
        alphaVideo = try awaitSync { try await alpha.uploadVideo(file: clip) }
        alphaUpload = try awaitSync { try await alpha.createUpload(CreateUploadRequest(filename: "open.mp4", sizeBytes: self.alphaVideo.sizeBytes,
                                                                                      sha256: self.alphaVideo.contentHash)) }
        alphaJob = try awaitSync { try await alpha.createJob(CreateJobRequest(videoId: self.alphaVideo.id, sport: "tennis",
                                                                               options: .object(["noop": .object([:])]))) }
        alphaFailedJob = try awaitSync { try await alpha.createJob(CreateJobRequest(
            videoId: self.alphaVideo.id, sport: "tennis", options: .object(["noop": .object(["invalidAttempts": .number(1)])]))) }
        alphaBatch = try awaitSync { try await alpha.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object([:])]))) }
        _ = try awaitSync { try await alpha.addBatchJobs(self.alphaBatch.id, AddBatchJobsRequest(videoIds: [self.alphaVideo.id])) }
        XCTAssertTrue(Set(try stack.runWaitingNoopJobs()).isSuperset(of: [alphaJob.id, alphaFailedJob.id]))
        XCTAssertEqual(try stack.status(alphaJob.id), "succeeded")
        XCTAssertEqual(try stack.status(alphaFailedJob.id), "failed")
        // A confirmed version of alpha's job (its rows as detected), so that its GET answers alpha.
        _ = try awaitSync { try await alpha.confirm(self.alphaJob.id, .corrections, body: Data(#"{"corrections": []}"#.utf8)) }
        // Recorded with the job's end, in the same transaction.
        alphaDelivery = try XCTUnwrap(awaitSync { try await alpha.webhookDeliveries(self.alphaWebhook.id) }.deliveries.first?.id)
    }

    override func tearDown() {
        stack?.shutdown()
    }

    /// The routes as the coordinator registers them (its own router, built from the same code), each
    /// with the access its registration declared (`operatorOnly`, `clubData`, `videoContent`).
    func registeredRoutes() throws -> [(method: String, path: String, access: String?)] {
        let config = try ReelworkConfig.fromEnvironment(stack.environment)
        return try CoordinatorServer.routeList(config: config, logger: Logger(label: "test")).filter { $0.path.hasPrefix("/v1/") }
    }

    /// Alpha's record for each kind of id a path can name (the segment before the parameter).
    func fixture(for segment: String) -> String? {
        switch segment {
        case "videos": return alphaVideo.id.uuidString.lowercased()
        case "jobs": return alphaJob.id.uuidString.lowercased()
        case "batches": return alphaBatch.id.uuidString.lowercased()
        case "webhooks": return alphaWebhook.id.uuidString.lowercased()
        case "deliveries": return alphaDelivery
        case "uploads": return alphaUpload.id.uuidString.lowercased()
        case "parts": return "1"
        // Operator-only routes (a club key gets 403 before any lookup): alpha's club, a made-up worker.
        case "clubs": return "alpha"
        case "workers": return "worker-\(UUID().uuidString.prefix(8))"
        default: return nil
        }
    }

    /// The path with each `:param` (or `{param}`) replaced by alpha's record, or by a fresh id.
    func concrete(_ path: String, alphas: Bool) -> String? {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for i in segments.indices where segments[i].hasPrefix(":") || segments[i].hasPrefix("{") {
            guard i > 0, let id = fixture(for: segments[i - 1]) else { return nil }
            segments[i] = alphas ? id : UUID().uuidString.lowercased()
        }
        return segments.joined(separator: "/")
    }

    /// A body that names alpha's records where a route takes one.
    func body(_ method: String, _ path: String) -> Data? {
        guard method == "POST" else { return nil }
        switch path {
        case "/v1/jobs": return Data(#"{"videoId":"\#(alphaVideo.id.uuidString)","sport":"tennis","options":{"noop":{"seconds":0.01}}}"#.utf8)
        case "/v1/videos/lookup": return Data(#"{"hashes":["\#(alphaVideo.contentHash)"]}"#.utf8)
        case "/v1/jobs/retry": return Data(#"{"all":true}"#.utf8)
        case "/v1/batches": return Data(#"{"sport":"tennis"}"#.utf8)
        case "/v1/batches/{id}/jobs": return Data(#"{"videoIds":["\#(alphaVideo.id.uuidString)"]}"#.utf8)
        case "/v1/videos": return try? Data(contentsOf: stack.makeTinyClip())
        default: return Data("{}".utf8)
        }
    }

    func send(_ method: String, _ path: String, key: String?, headers: [String: String] = [:]) throws -> (data: Data, status: Int) {
        let (data, status, _) = try stack.request(method, path, key: key, body: body(method, path), headers: headers)
        return (data, status)
    }

    /// Alpha's ids, which must not appear in anything beta is answered unless beta sent them itself
    /// (an error may repeat the id it was asked for, exactly as it does for a missing one).
    func alphaIds(notIn request: String) -> [String] {
        ([alphaVideo.id, alphaJob.id, alphaFailedJob.id, alphaBatch.id, alphaWebhook.id, alphaUpload.id].map { $0.uuidString.lowercased() }
            + [alphaDelivery.lowercased()])
            .filter { !request.lowercased().contains($0) }
    }

    func testEveryRouteNeedsAKeyAndAWorkerKeyOnlyReadsVideoContent() throws {
        let revoked = try stack.createKey(["--club", "alpha", "--label", "to revoke"])
        let revokedId = try XCTUnwrap(APIKeyRepository(stack.db()).list().first { $0.label == "to revoke" }?.id)
        _ = try APIKeyRepository(stack.db()).revoke(id: revokedId)   // as `reelwork keys revoke` does
        let routes = try registeredRoutes()
        XCTAssertGreaterThanOrEqual(routes.count, 10, "the walk found the routes: \(routes)")
        // The pool's state and controls are the operators' (guarantee 7): a declaration that widened
        // one of them would change what the walk below expects, so they are pinned here.
        let operatorRoutes = Set(routes.filter { $0.access == "operatorOnly" }.map { "\($0.method) \($0.path)" })
        for route in ["GET /v1/queue", "POST /v1/queue/pause", "POST /v1/queue/resume", "GET /v1/workers"] {
            XCTAssertTrue(operatorRoutes.contains(route), "\(route) is declared operator-only: \(operatorRoutes.sorted())")
        }
        for (method, pattern, access) in routes {
            let path = try XCTUnwrap(concrete(pattern, alphas: true), "\(method) \(pattern) names an id this test has no fixture for: add one")
            let label = "\(method) \(pattern)"
            if !pattern.hasSuffix("/**") { XCTAssertNotNil(access, "\(label) declares who may call it") }
            if access == "operatorOnly" {
                // The pool's controls, with or without an id: club keys are refused before anything runs.
                for (key, who) in [(alphaKey, "alpha's club key"), (betaKey, "beta's club key")] {
                    let answer = try send(method, path, key: key)
                    XCTAssertEqual(answer.status, 403, "\(label) with \(who): operators only")
                    XCTAssertEqual(HTTP.apiError(answer.data)?.code, "forbidden", "\(label) with \(who)")
                }
            }
            for (key, headers, why) in [(nil, [:], "no key"), (revoked, [:], "a revoked key"), ("rw_club_short", [:], "a malformed key"),
                                        (nil, ["X-API-Key": alphaKey], "the key in the wrong header")] as [(String?, [String: String], String)] {
                let answer = try send(method, path, key: key, headers: headers)
                XCTAssertEqual(answer.status, 401, "\(label) with \(why)")
                XCTAssertEqual(HTTP.apiError(answer.data)?.code, "unauthorized", "\(label) with \(why)")
            }
            let asWorker = try send(method, path, key: workerKey)
            if pattern.hasSuffix("/**") {
                XCTAssertEqual(asWorker.status, 404, "\(label): the catch-all answers unknown paths")
            } else if access == "videoContent" {
                // Without the grant of a job it runs (testAWorkerKeyReadsOnlyTheVideoOfAJobItRuns has the rest).
                XCTAssertEqual(asWorker.status, 403, "\(label): a worker reads only what it analyses")
            } else {
                XCTAssertEqual(asWorker.status, 403, "\(label): a worker key reads video content only")
            }
        }
    }

    func testAnotherClubsIdAnswersExactlyAsAMissingOne() throws {
        var checked = 0
        for (method, pattern, access) in try registeredRoutes() {
            let label = "\(method) \(pattern)"
            let alphaPath = try XCTUnwrap(concrete(pattern, alphas: true), "\(label) names an id this test has no fixture for: add one")
            let asBeta = try send(method, alphaPath, key: betaKey)
            let betaText = String(decoding: asBeta.data, as: UTF8.self)
            let sent = alphaPath + String(decoding: body(method, pattern) ?? Data(), as: UTF8.self)
            for secret in alphaIds(notIn: sent) {
                XCTAssertFalse(betaText.lowercased().contains(secret), "\(label): beta's answer mentions alpha's \(secret): \(betaText.prefix(300))")
            }
            guard alphaPath != pattern else { continue }   // no id in the path: the body check above is the test
            if access == "operatorOnly" {
                // The pool's controls: a club key is refused before anything is looked up.
                XCTAssertEqual(asBeta.status, 403, "\(label): operators only")
                XCTAssertEqual(try send(method, alphaPath, key: alphaKey).status, 403, "\(label): operators only, even for alpha's own club")
                continue
            }
            let missing = try send(method, try XCTUnwrap(concrete(pattern, alphas: false)), key: betaKey)
            XCTAssertEqual(asBeta.status, 404, "\(label): another club's id")
            XCTAssertEqual(asBeta.status, missing.status, "\(label): the same answer as a missing id")
            XCTAssertEqual(HTTP.apiError(asBeta.data)?.code, HTTP.apiError(missing.data)?.code, label)
            // Alpha gets something else, so the 404 above came from the club filter, not a broken fixture
            // (a DELETE is checked with a GET of its path, so the walk does not remove alpha's record).
            XCTAssertNotEqual(try send(method == "DELETE" ? "GET" : method, alphaPath, key: alphaKey).status, 404, "\(label) as alpha")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 6, "routes with ids were walked")
        XCTAssertEqual(try stack.status(alphaFailedJob.id), "failed", "beta's retry of everything left alpha's job alone")

        let operatorSees = try send("GET", "/v1/jobs/\(alphaJob.id.uuidString.lowercased())", key: stack.operatorKey)
        XCTAssertEqual(operatorSees.status, 200, "an operator sees every club")
    }

    func testAClubKeyCannotActForAnotherClub() throws {
        let named = Data(#"{"videoId":"\#(alphaVideo.id.uuidString)","sport":"tennis","club":"alpha"}"#.utf8)
        let (data, status, _) = try stack.request("POST", "/v1/jobs", key: betaKey, body: named)
        XCTAssertEqual(status, 403, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(HTTP.apiError(data)?.code, "forbidden")
        let upload = try stack.request("POST", "/v1/videos?club=alpha", key: betaKey,
                                      body: try Data(contentsOf: stack.makeTinyClip()))
        XCTAssertEqual(upload.1, 403)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs WHERE club = 'beta'").rows[0].int("n"), 0)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos WHERE club = 'beta'").rows[0].int("n"), 0)
    }

    /// A list's cursor is looked up within the caller's club: beta naming alpha's newest job, batch or
    /// endpoint as its cursor gets what an unknown cursor gets (an empty page), never its own records
    /// older than alpha's, which would tell when alpha made them.
    func testAnotherClubsIdAsACursorAnswersAsAnUnknownOne() throws {
        let beta = try stack.client(key: betaKey), alpha = try stack.client(key: alphaKey)
        let betaVideo = try awaitSync { try await beta.uploadVideo(file: try self.stack.makeTinyClip()) }
        _ = try awaitSync { try await beta.createJob(CreateJobRequest(videoId: betaVideo.id, sport: "tennis", options: .object(["noop": .object([:])]))) }
        _ = try awaitSync { try await beta.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object([:])]))) }
        _ = try awaitSync { try await beta.createWebhook(CreateWebhookRequest(url: "http://127.0.0.1:9/beta", events: ["job.succeeded"])) }
        // Alpha's records made after beta's: as cursors they would page to beta's older ones.
        let later = try awaitSync { try await alpha.createJob(CreateJobRequest(videoId: self.alphaVideo.id, sport: "tennis",
                                                                                  options: .object(["noop": .object([:]), "tag": .number(9)]))) }
        let laterBatch = try awaitSync { try await alpha.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object([:])]))) }
        let laterHook = try awaitSync { try await alpha.createWebhook(CreateWebhookRequest(url: "http://127.0.0.1:9/later", events: ["job.failed"])) }.webhook
        for (path, field, alphaId) in [("/v1/jobs", "jobs", later.id), ("/v1/batches", "batches", laterBatch.id), ("/v1/webhooks", "webhooks", laterHook.id)] {
            let own = try send("GET", path, key: betaKey)
            XCTAssertFalse(try items(own.data, field).isEmpty, "\(path): beta has records of its own")
            let asAlpha = try send("GET", "\(path)?cursor=\(alphaId.uuidString.lowercased())", key: betaKey)
            let asUnknown = try send("GET", "\(path)?cursor=\(UUID().uuidString.lowercased())", key: betaKey)
            XCTAssertEqual(asAlpha.status, asUnknown.status, path)
            XCTAssertEqual(try items(asAlpha.data, field).count, try items(asUnknown.data, field).count,
                           "\(path): another club's id as a cursor paged to \(String(decoding: asAlpha.data, as: UTF8.self))")
            XCTAssertEqual(try items(asAlpha.data, field).count, 0, path)
        }
    }

    private func items(_ data: Data, _ field: String) throws -> [Any] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
        return try XCTUnwrap(object[field] as? [Any], "\(field) in \(object)")
    }

    func testTheSameBytesFromTwoClubsAreStoredOnceAndRecordedTwice() throws {
        let clip = try stack.makeTinyClip()
        let bytes = try Data(contentsOf: clip)
        let url = "/v1/videos"
        let first = try stack.request("POST", url, key: betaKey, body: bytes)
        let gamma = try stack.createKey(["--club", "gamma"])
        let second = try stack.request("POST", url, key: gamma, body: bytes)
        XCTAssertEqual(first.1, 201)
        XCTAssertEqual(second.1, 201, "no hint that another club has these bytes")
        let again = try stack.request("POST", url, key: gamma, body: bytes)
        XCTAssertEqual(again.1, 200, "the club's own repeat is recognised")
        let videos = try [first.0, second.0, again.0].map { try ReelworkJSON.decoder.decode(VideoView.self, from: $0) }
        XCTAssertNotEqual(videos[0].id, videos[1].id)
        XCTAssertEqual(videos[1].id, videos[2].id)
        XCTAssertEqual(Set(videos.map(\.contentHash)).count, 1)
        let keys = try stack.db().query("SELECT DISTINCT storage_key FROM videos WHERE content_hash = $1", [videos[0].contentHash]).rows
        XCTAssertEqual(keys.count, 1)
        let files = try FileManager.default.subpathsOfDirectory(atPath: stack.storageDir.path)
            .filter { $0.contains(videos[0].contentHash) }
        XCTAssertEqual(files.count, 1, "stored once: \(files)")

        // Lookup answers for the asking club only.
        let lookup = try stack.client(key: gamma)
        let found = try awaitSync { try await lookup.lookupVideos(hashes: [videos[0].contentHash, String(repeating: "0", count: 64)]) }
        XCTAssertEqual(found.videos.map(\.videoId), [videos[1].id])
    }

    func testHealthSaysWhatIsDownWithoutAKeyOrDetails() throws {
        let (data, status, _) = try stack.get("/healthz")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(try ReelworkJSON.decoder.decode(HealthView.self, from: data), HealthView(status: "ok", redis: "ok", postgres: "ok"))
    }
}

/// A worker key reads a video only with the grant of a job it runs, while it runs (guarantee 7),
/// with a worker process running the jobs.
final class ClubIsolationWorkerTests: XCTestCase {
    var stack: TestStack!
    var alphaKey = "", workerKey = ""
    var alphaVideo: VideoView!
    var alphaJob: JobView!

    override func setUpWithError() throws {
        stack = try TestStack(settings: ["REELWORK_MAX_ATTEMPTS": "1"])
        alphaKey = try stack.createKey(["--club", "alpha"])
        workerKey = try stack.createKey(["--worker"])
        try stack.startCoordinator()
        try stack.startWorker()
        let alpha = try stack.client(key: alphaKey)
        let clip = try stack.makeTinyClip()
        alphaVideo = try awaitSync { try await alpha.uploadVideo(file: clip) }
        alphaJob = try awaitSync { try await alpha.createJob(CreateJobRequest(videoId: self.alphaVideo.id, sport: "tennis",
                                                                               options: .object(["noop": .object([:])]))) }
        XCTAssertEqual(try stack.waitForTerminal(alphaJob.id).status, .succeeded)
    }

    override func tearDown() {
        stack?.shutdown()
    }

    func send(_ method: String, _ path: String, key: String?) throws -> (data: Data, status: Int) {
        // A POST carries `{}`, as ClubIsolationTests' walk sends it.
        let (data, status, _) = try HTTP.request(method, URL(string: stack.coordinatorURL + path)!, key: key, body: method == "POST" ? Data("{}".utf8) : nil)
        return (data, status)
    }

    func testAWorkerKeyReadsOnlyTheVideoOfAJobItRuns() throws {
        let alpha = try stack.client(key: alphaKey)
        let other = try awaitSync { try await alpha.uploadVideo(file: try self.stack.makeClip("other.mp4", "testsrc2=size=64x48:rate=5:duration=1")) }
        let long = try awaitSync { try await alpha.createJob(CreateJobRequest(videoId: self.alphaVideo.id, sport: "tennis",
                                                                              options: .object(["noop": .object(["seconds": .number(120)])]))) }
        var attempt = 0
        XCTAssertTrue(try stack.waitUntil(timeout: 60) {
            let row = try stack.db().query("SELECT status, attempt FROM jobs WHERE id = $1", [long.id]).rows[0]
            attempt = try row.int("attempt")
            return try row.string("status") == "running"
        }, "the long job starts: \(stack.logTail())")
        func read(_ video: UUID, _ job: UUID?, _ attempt: Int) throws -> (data: Data, status: Int) {
            let grant = job.map { "?" + VideoReadGrant(jobId: $0, attempt: attempt).query } ?? ""
            return try send("GET", "/v1/videos/\(video.uuidString.lowercased())/content\(grant)", key: workerKey)
        }
        let held = try read(alphaVideo.id, long.id, attempt)
        XCTAssertEqual(held.status, 200, "the running job's grant reads its video")
        XCTAssertEqual(held.data.count, Int(alphaVideo.sizeBytes))
        XCTAssertEqual(try read(alphaVideo.id, nil, attempt).status, 403, "no grant")
        XCTAssertEqual(try read(alphaVideo.id, long.id, attempt + 1).status, 404, "an attempt the job is not at")
        XCTAssertEqual(try read(other.id, long.id, attempt).status, 404, "another video than the job's")
        XCTAssertEqual(try read(alphaVideo.id, alphaJob.id, 1).status, 404, "a job that has ended")
        XCTAssertEqual(HTTP.apiError(try read(other.id, long.id, attempt).data)?.code, "video_not_found")
        XCTAssertEqual(try send("POST", "/v1/jobs/\(long.id.uuidString.lowercased())/cancel", key: alphaKey).status / 100, 2)
        XCTAssertTrue(try stack.waitUntil(timeout: 60) { try read(alphaVideo.id, long.id, attempt).status == 404 },
                      "once the job is cancelled its grant reads nothing")
    }
}
