import FuzzSupport
import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import Threading
import XCTest

/// The checks both classes below make: a request's answer, the coordinator still up, what is stored.
protocol HostileRequestChecks: XCTestCase {
    var api: any APIStack { get }
}

struct HostileAnswer {
    var status: Int
    var code: String
    var message: String
    var headers: [String: String]
}

extension HostileRequestChecks {
    func send(_ method: String, _ path: String, _ body: Data?, headers: [String: String] = [:]) throws -> HostileAnswer {
        let (data, status, fields) = try api.request(method, path, key: api.operatorKey, body: body, headers: headers)
        let error = HTTP.apiError(data)
        return HostileAnswer(status: status, code: error?.code ?? "", message: error?.message ?? String(decoding: data, as: UTF8.self),
                             headers: fields)
    }

    func createJob(_ json: String) throws -> HostileAnswer {
        try send("POST", "/v1/jobs", Data(json.utf8), headers: ["Content-Type": "application/json"])
    }

    func upload(_ data: Data, name: String? = nil) throws -> HostileAnswer {
        try send("POST", "/v1/videos" + (name.map { "?filename=\($0)" } ?? ""), data, headers: ["Content-Type": "application/octet-stream"])
    }

    func assertHealthy(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (_, status, _) = try api.request("GET", "/healthz", key: nil, body: nil, headers: [:])
        XCTAssertEqual(status, 200, "\(label): the coordinator must answer right after\n\(api.logTail(lines: 30))", file: file, line: line)
        XCTAssertTrue(api.isCoordinatorRunning, label, file: file, line: line)
    }

    func count(_ table: String) throws -> Int {
        try api.db().query("SELECT count(*) AS n FROM \(table)").rows[0].int("n")
    }

    func storedVideoFiles() -> [String] {
        FileManager.default.enumerator(atPath: api.storageDir.appendingPathComponent("videos").path)?
            .compactMap { $0 as? String }.filter { $0.count > 10 } ?? []
    }

    func temporaryFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: api.storageDir.appendingPathComponent("tmp").path)) ?? []
    }
}

/// What a stranger can send the coordinator: each request gets a clear 4xx (or a 503 telling it
/// when to come back), changes nothing else, and the coordinator is up right after. Here the
/// requests the router alone answers, against the coordinator in process (`InProcessStack`: its
/// router, real PostgreSQL and Redis); `HostileRequestProcessTests` has the rest (raw connections,
/// workers, the command line).
final class HostileRequestTests: InProcessTestCase, HostileRequestChecks {
    var api: any APIStack { stack }

    /// Starts the coordinator again with `settings` on top of the stack's own (the same database).
    func restartCoordinator(_ settings: [String: String]) throws {
        stack.stopCoordinator()
        try stack.startCoordinator(extraSettings: settings)
    }

    func testTheHundredByteUploadAndTheHugeRetryCountAreRefusedAndTheCoordinatorStaysUp() throws {
        let tiny = try upload(DamagedFiles.hugeBoxSize())
        XCTAssertEqual(tiny.status, 422, tiny.message)
        XCTAssertEqual(tiny.code, "invalid_video")
        XCTAssertTrue(tiny.message.contains("truncated video: the file ends at byte 100 but its 'mdat' box declares a size of"), tiny.message)
        try assertHealthy("after the 100-byte upload")

        let video = try stack.uploadTinyClip().uuidString
        let cases: [(String, String, String)] = [
            ("failAttempts 1e300", #"{"failAttempts": 1e300}"#, "option noop.failAttempts must be a whole number from 0 to 100"),
            ("seconds 1e300", #"{"seconds": 1e300}"#, "option noop.seconds must be a number from 0 to 600"),
            ("failAttempts 2.5", #"{"failAttempts": 2.5}"#, "option noop.failAttempts must be a whole number from 0 to 100"),
            ("invalidAttempts -1", #"{"invalidAttempts": -1}"#, "option noop.invalidAttempts must be a whole number from 0 to 100"),
            ("failAttempts as text", #"{"failAttempts": "3"}"#, "option noop.failAttempts must be a whole number from 0 to 100"),
            ("seconds negative", #"{"seconds": -1}"#, "option noop.seconds must be a number from 0 to 600"),
        ]
        for (label, noop, message) in cases {
            let answer = try createJob(#"{"videoId": "\#(video)", "sport": "tennis", "options": {"noop": \#(noop)}}"#)
            XCTAssertEqual(answer.status, 400, "\(label): \(answer.message)")
            XCTAssertEqual(answer.code, "invalid_options", label)
            XCTAssertEqual(answer.message, message, label)
            try assertHealthy(label)
        }
        let huge = try createJob(#"{"videoId": "\#(video)", "sport": "tennis", "maxAttempts": 1e300}"#)
        XCTAssertEqual(huge.status, 400, huge.message)
        XCTAssertEqual(huge.code, "invalid_json")
        XCTAssertEqual(try count("jobs"), 0, "nothing was created")
        XCTAssertEqual(try JobQueue(prefix: stack.queuePrefix).stats(on: stack.redis()).ready, 0)
    }

    /// Every sport's numbers: absurd values are refused by the same parsers the worker runs.
    func testAbsurdNumbersInSportOptionsAreRefusedBeforeAnythingIsQueued() throws {
        let video = try stack.uploadTinyClip().uuidString
        let ball = #""ballProfile": {"color": {"h": 220, "s": 80, "v": 70}}"#
        let cases: [(String, String, String, Int, String)] = [
            ("tennis height", "tennis", #"{"playerHeight": 1e300}"#, 400, "playerHeight"),
            ("tennis height NaN-ish", "tennis", #"{"playerHeight": -0.0}"#, 400, "playerHeight"),
            ("hue", "bowling", #"{"ballProfile": {"color": {"h": 1e300, "s": 80, "v": 70}}}"#, 400, "ballProfile.color.h"),
            ("tolerance", "bowling", #"{"ballProfile": {"color": {"h": 1, "s": 1, "v": 1}, "colorTolerance": -1e308}}"#, 400, "colorTolerance"),
            ("pixels per foot", "bowling", #"{\#(ball), "calibration": {"pixelsPerFoot": 1e308, "pixelsPerBoard": 1e308, "foulLineY": 1e308, "arrowsY": -1e308, "leftGutterX": -1e308, "rightGutterX": 1e308}}"#, 422, "calibration"),
            ("far distance", "bowling", #"{\#(ball), "calibration": {"lanePoints": {"foulLineLeft": [0, 700], "foulLineRight": [900, 700], "farLeft": [400, 100], "farRight": [500, 100], "farDistanceFt": 1e300}}}"#, 400, "farDistanceFt"),
            ("lane points", "bowling", #"{\#(ball), "calibration": {"lanePoints": {"foulLineLeft": [-1e308, 1e308], "foulLineRight": [1e308, 1e308], "farLeft": [-1e308, -1e308], "farRight": [1e308, -1e308]}}}"#, 422, "calibration"),
        ]
        for (label, sport, options, status, words) in cases {
            let answer = try createJob(#"{"videoId": "\#(video)", "sport": "\#(sport)", "options": \#(options)}"#)
            XCTAssertEqual(answer.status, status, "\(label): \(answer.message)")
            XCTAssertTrue(answer.message.contains(words) || answer.code == "needs_person", "\(label): '\(answer.message)' should name \(words)")
            try assertHealthy(label)
        }
        XCTAssertEqual(try count("jobs"), 0)
    }

    func testVideosPastTheLimitsAreRefusedAtUploadNamingTheLimit() throws {
        let small = stack.directory.appendingPathComponent("16x16.avi")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "color=black:size=16x16:rate=1", "-frames:v", "1", "-c:v", "mjpeg", small.path])
        let claims16K = try DamagedFiles.claimingPictureSize(try Data(contentsOf: small), width: 15360, height: 8640)
        let picture = try upload(claims16K, name: "16k.avi")
        XCTAssertEqual(picture.status, 422, picture.message)
        XCTAssertEqual(picture.code, "invalid_video")
        XCTAssertEqual(picture.message, "the picture is 15360×8640, larger than the limit of 7680×4320 (REELWORK_MAX_FRAME_SIZE)")

        let tenHours = stack.directory.appendingPathComponent("ten-hours.mp4")
        // Three frames, each shown for five hours.
        try Tool.ffmpeg(["-f", "lavfi", "-i", "color=black:size=32x32:rate=1/18000", "-frames:v", "3", "-c:v", "libx264",
                         "-pix_fmt", "yuv420p", tenHours.path])
        let long = try upload(try Data(contentsOf: tenHours))
        XCTAssertEqual(long.status, 422, long.message)
        XCTAssertEqual(long.code, "invalid_video")
        XCTAssertTrue(long.message.hasPrefix("the video lasts 15:00:00, longer than the limit of 2:00:00 (REELWORK_MAX_VIDEO_SECONDS)"), long.message)
        try assertHealthy("after the limits")
        XCTAssertEqual(try count("videos"), 0)
        XCTAssertEqual(storedVideoFiles(), [])
        XCTAssertTrue(stack.waitUntil(timeout: 5) { temporaryFiles().isEmpty })

        try restartCoordinator([InputLimits.Env.maxFrames: "20", InputLimits.Env.maxVideoSeconds: "60"])
        let clip = try stack.makeClip("fifty-frames.mp4", "testsrc2=size=160x120:rate=25", seconds: 2)
        let frames = try upload(try Data(contentsOf: clip))
        XCTAssertEqual(frames.status, 422, frames.message)
        XCTAssertEqual(frames.message, "the video has 50 frames, more than the limit of 20 (REELWORK_MAX_FRAMES)")
    }

    func testOversizedBodiesDeepOptionsAndPagesOutOfBoundsAreRefused() throws {
        try restartCoordinator([InputLimits.Env.maxJSONBytes: "2000", InputLimits.Env.maxPageSize: "20"])
        let video = try stack.uploadTinyClip().uuidString
        let padding = String(repeating: "x", count: 3000)
        let big = try createJob(#"{"videoId": "\#(video)", "sport": "tennis", "options": {"note": "\#(padding)"}}"#)
        XCTAssertEqual(big.status, 413, big.message)
        XCTAssertEqual(big.code, "body_too_large")
        XCTAssertTrue(big.message.contains("2000 bytes (REELWORK_MAX_JSON_BYTES)"), big.message)

        let nested = String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)
        let deep = try createJob(#"{"videoId": "\#(video)", "sport": "tennis", "options": \#(nested)}"#)
        XCTAssertEqual(deep.status, 400, deep.message)
        XCTAssertEqual(deep.code, "invalid_options")
        XCTAssertTrue(deep.message.contains("nested 41 levels deep; at most 16"), deep.message)

        let nul = try createJob(#"{"videoId": "\#(video)", "sport": "tennis", "options": {"note": ["ok", "a\u0000b"]}}"#)
        XCTAssertEqual(nul.status, 400, nul.message)
        XCTAssertEqual(nul.message, "options.note[1] contains the NUL character (\\u0000), which options may not hold")

        let veryDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let parser = try createJob(#"{"videoId": "\#(video)", "sport": "tennis", "options": \#(veryDeep)}"#)
        XCTAssertEqual(parser.status, 400, parser.message)

        for (query, words) in [("limit=21", "from 1 to 20"), ("limit=0", "from 1 to 20"), ("limit=1e300", "from 1 to 20"),
                               ("limit=99999999999999999999999", "from 1 to 20"), ("cursor=x", "not a job id")] {
            let page = try send("GET", "/v1/jobs?\(query)", nil)
            XCTAssertEqual(page.status, 400, query)
            XCTAssertTrue(page.message.contains(words), "\(query): \(page.message)")
        }
        XCTAssertEqual(try send("GET", "/v1/jobs?limit=20", nil).status, 200)
        try assertHealthy("after the bodies")
        XCTAssertEqual(try count("jobs"), 0)
    }

    func testTheDiagnosticPipelineIsRefusedUnlessDiagnosticsAreOn() throws {
        try restartCoordinator([ReelworkConfig.Env.diagnostics: "0"])
        let video = try stack.uploadTinyClip().uuidString
        let noop = try createJob(#"{"videoId": "\#(video)", "sport": "tennis", "options": {"noop": {"seconds": 1}}}"#)
        XCTAssertEqual(noop.status, 400, noop.message)
        XCTAssertEqual(noop.code, "invalid_options")
        XCTAssertTrue(noop.message.contains("REELWORK_DIAGNOSTICS=1"), noop.message)
        XCTAssertEqual(try count("jobs"), 0)
    }

    /// With `maxmemory` reached and `noeviction`, Redis refuses writes: a new job is refused whole
    /// (503 queue_unavailable, no row, no Redis key), and works again once Redis has room.
    func testRedisRefusingWritesGives503AndCreatesNothing() throws {
        let video = try stack.uploadTinyClip().uuidString
        let redis = try stack.redis()
        let configured = try XCTUnwrap(redis.command("CONFIG", "GET", "maxmemory").array?.last?.string)
        XCTAssertNotEqual(configured, "0", "the test Redis has a maxmemory (scripts/lib/services.sh): noeviction alone means nothing")
        try redis.command("CONFIG", "SET", "maxmemory", "1")
        defer { _ = try? redis.command("CONFIG", "SET", "maxmemory", configured) }

        let refused = try createJob(#"{"videoId": "\#(video)", "sport": "tennis"}"#)
        XCTAssertEqual(refused.status, 503, refused.message)
        XCTAssertEqual(refused.code, "queue_unavailable")
        // The dependency is named; its address and the driver's words ("OOM command not allowed…") stay in the log.
        XCTAssertTrue(refused.message.contains("redis is unavailable"), refused.message)
        for detail in ["OOM", "127.0.0.1", ProcessInfo.processInfo.environment["REELWORK_TEST_REDIS_PORT"] ?? "6379"] {
            XCTAssertFalse(refused.message.contains(detail), "\(detail) in \(refused.message)")
        }
        XCTAssertEqual(try count("jobs"), 0, "no job nothing would run")
        let keys = try redis.command("KEYS", "\(stack.queuePrefix):job:*").array ?? []
        XCTAssertEqual(keys.count, 0)

        try redis.command("CONFIG", "SET", "maxmemory", configured)
        XCTAssertEqual(try createJob(#"{"videoId": "\#(video)", "sport": "tennis"}"#).status, 201)
        XCTAssertEqual(try count("jobs"), 1)
    }

    func testAbandonedUploadFilesAreSweptWhenTheCoordinatorStarts() throws {
        stack.stopCoordinator()
        let tmp = stack.storageDir.appendingPathComponent("tmp")
        let abandoned = tmp.appendingPathComponent("abandoned.upload"), live = tmp.appendingPathComponent("live.upload")
        try Data(count: 1000).write(to: abandoned)
        try Data(count: 1000).write(to: live)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: abandoned.path)
        try stack.startCoordinator()
        XCTAssertEqual(temporaryFiles(), ["live.upload"], "an hour-old upload file is gone; a fresh one may be another coordinator's")
    }
}

/// What a stranger can send a coordinator process: slow and stalled connections, uploads held
/// open, and what a worker or the command line sees.
final class HostileRequestProcessTests: CoordinatorTestCase, HostileRequestChecks {
    var api: any APIStack { stack }
    var uploadURL: URL { URL(string: "\(stack.coordinatorURL)/v1/videos")! }

    /// Restarts the stack's coordinator with `settings` on top of the stack's own.
    func restartCoordinator(_ settings: [String: String]) throws {
        stack.shutdown()
        stack = try TestStack(settings: settings)
        try stack.startCoordinator()
    }

    /// Limits lowered after upload (or a stored file replaced): the worker checks again before decoding.
    func testTheWorkerChecksTheLimitsBeforeDecoding() throws {
        let video = try stack.uploadTinyClip()
        try stack.startWorker(extraEnvironment: [InputLimits.Env.maxVideoSeconds: "0.5"])
        let job = try awaitSync { try await self.stack.client().createJob(CreateJobRequest(videoId: video, sport: "tennis")) }
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .failed)
        XCTAssertEqual(done.attempt, 1, "not retried: the file will not get shorter")
        XCTAssertEqual(done.lastErrorKind, "invalid_input")
        XCTAssertEqual(done.lastError, "probe: the video lasts 0:00:01, longer than the limit of 0:00:00.5 (REELWORK_MAX_VIDEO_SECONDS)")
        XCTAssertEqual(done.stages.first { $0.name == "decode" }?.status, .skipped, "nothing was decoded")
    }

    func testUploadsPastTheConcurrencyLimitAreTurnedAwayWithRetryAfter() throws {
        try restartCoordinator([InputLimits.Env.maxConcurrentUploads: "1"])
        let clip = try Data(contentsOf: try stack.makeClip("ok.mp4", "testsrc2=size=160x120:rate=10", seconds: 1))
        // An upload in progress: its headers and some of its body sent, the rest still to come.
        let first = try RawConnection(port: stack.port)
        try first.send("POST /v1/videos HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(stack.operatorKey)\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nContent-Length: \(clip.count)\r\n\r\n")
        try first.send(clip.prefix(100))
        XCTAssertTrue(stack.waitUntil(timeout: 10) { !temporaryFiles().isEmpty }, "the first upload is being received")

        let second = try upload(clip)
        XCTAssertEqual(second.status, 503, second.message)
        XCTAssertEqual(second.code, "too_many_uploads")
        XCTAssertEqual(second.headers.first { $0.key.lowercased() == "retry-after" }?.value, "5")
        XCTAssertTrue(second.message.contains("REELWORK_MAX_CONCURRENT_UPLOADS"), second.message)

        try first.send(clip.dropFirst(100))
        let (response, _) = first.readUntilClosed(timeout: 20)
        XCTAssertTrue(String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 201"), String(decoding: response, as: UTF8.self))
        XCTAssertTrue(try stack.waitUntil(timeout: 10) { try self.upload(clip).status == 200 }, "a place is free again")
    }

    /// Each club has its own share of the upload slots: club north's slow uploads hold both of its
    /// places, its third is turned away naming the share, and club south still uploads.
    func testOneClubsSlowUploadsHoldOnlyItsOwnShareOfTheSlots() throws {
        try restartCoordinator([InputLimits.Env.maxConcurrentUploads: "4", ClubLimits.Env.uploadsPerClub: "2"])
        let north = try stack.createKey(["--club", "north"]), south = try stack.createKey(["--club", "south"])
        let clip = try Data(contentsOf: try stack.makeClip("ok.mp4", "testsrc2=size=160x120:rate=10", seconds: 1))
        let slow = try (0..<2).map { _ in
            let connection = try RawConnection(port: stack.port)
            try connection.send("POST /v1/videos HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(north)\r\nContent-Length: \(clip.count)\r\n\r\n")
            try connection.send(clip.prefix(100))
            return connection
        }
        XCTAssertTrue(stack.waitUntil(timeout: 10) { temporaryFiles().count == 2 }, "north's two uploads are being received")
        let (data, status, headers) = try HTTP.request("POST", uploadURL, key: north, body: clip, headers: ["Content-Type": "application/octet-stream"])
        XCTAssertEqual(status, 503, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(HTTP.apiError(data)?.code, "too_many_uploads")
        XCTAssertTrue(HTTP.apiError(data)?.message.contains("REELWORK_MAX_UPLOADS_PER_CLUB") ?? false, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(headers.first { $0.key.lowercased() == "retry-after" }?.value, "5")
        let other = try HTTP.request("POST", uploadURL, key: south, body: clip, headers: ["Content-Type": "application/octet-stream"])
        XCTAssertEqual(other.1, 201, "another club uploads while north holds its share: \(String(decoding: other.0, as: UTF8.self))")
        withExtendedLifetime(slow) {}
    }

    /// A client that sends a byte now and then is cut by the pace rule (too slow on average after
    /// the grace period) or by the deadline, long before the idle timeout would notice it, and its
    /// partial file is deleted.
    func testAnUploadThatTricklesIsCutByTheMinimumRateOrTheDeadline() throws {
        for (settings, code) in [([InputLimits.Env.minUploadBytesPerSecond: "2000", InputLimits.Env.uploadRateGraceSeconds: "1"], "upload_too_slow"),
                                 ([InputLimits.Env.minUploadBytesPerSecond: "1", InputLimits.Env.maxUploadSeconds: "2"], "upload_timeout")] {
            try restartCoordinator(settings)
            let trickle = try RawConnection(port: stack.port)
            try trickle.send("POST /v1/videos HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(stack.operatorKey)\r\nContent-Length: 10000000\r\n\r\n")
            try trickle.send(Data(repeating: 7, count: 100))
            XCTAssertTrue(stack.waitUntil(timeout: 10) { !temporaryFiles().isEmpty }, "the upload started")
            // A byte every 0.2 s from another thread (well inside the 30 s idle timeout), until the
            // coordinator answers and closes.
            let stop = LockedValue(false)
            let sender = Thread {
                while !stop.withLock({ $0 }) {
                    guard (try? trickle.send(Data([7]))) != nil else { return }
                    Thread.sleep(forTimeInterval: 0.2)
                }
            }
            sender.start()
            let (response, closed) = trickle.readUntilClosed(timeout: 15)
            stop.withLock { $0 = true }
            let text = String(decoding: response, as: UTF8.self)
            XCTAssertTrue(closed, "\(code): the trickling upload was cut")
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 408"), "\(code): \(text)")
            XCTAssertTrue(text.contains(code), text)
            XCTAssertTrue(stack.waitUntil(timeout: 10) { temporaryFiles().isEmpty }, "the partial upload was deleted: \(temporaryFiles())")
            XCTAssertEqual(try count("videos"), 0)
            try assertHealthy("after the trickling upload")
        }
    }

    func testAClientThatStopsSendingLosesItsConnectionAndItsHalfUploadIsDeleted() throws {
        try restartCoordinator([InputLimits.Env.idleTimeoutSeconds: "1"])
        let stalled = try RawConnection(port: stack.port)
        try stalled.send("POST /v1/videos HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(stack.operatorKey)\r\nContent-Length: 10000000\r\n\r\n")
        try stalled.send(Data(repeating: 7, count: 50_000))
        XCTAssertTrue(stack.waitUntil(timeout: 10) { !temporaryFiles().isEmpty }, "the upload started")
        let started = Date()
        let (_, closed) = stalled.readUntilClosed(timeout: 20)
        XCTAssertTrue(closed, "the coordinator closed the silent connection")
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertTrue(stack.waitUntil(timeout: 10) { temporaryFiles().isEmpty }, "the half-written upload was deleted: \(temporaryFiles())")
        XCTAssertEqual(try count("videos"), 0)

        // A connection that never sends a request is closed too.
        let idle = try RawConnection(port: stack.port)
        XCTAssertTrue(idle.readUntilClosed(timeout: 20).closed)
        try assertHealthy("after the silent clients")
    }

    func testRetryingEveryFailedJobNeedsAFilterOrAll() throws {
        let url = "/v1/jobs/retry"
        let bare = try send("POST", url, Data("{}".utf8))
        XCTAssertEqual(bare.status, 400)
        XCTAssertTrue(bare.message.contains(#""all": true"#), bare.message)
        XCTAssertEqual(try send("POST", url, Data(#"{"all": true}"#.utf8)).status, 200)
        XCTAssertEqual(try send("POST", url, Data(#"{"club": "north"}"#.utf8)).status, 200)
        let farFuture = try send("POST", url, Data(#"{"since": "+275760-09-13T00:00:00Z"}"#.utf8))
        XCTAssertEqual(farFuture.status, 400, farFuture.message)

        let cli = try stack.run(["jobs", "retry", "--failed"])
        XCTAssertNotEqual(cli.status, 0)
        XCTAssertTrue(cli.output.contains("--all"), cli.output)
        XCTAssertEqual(try stack.run(["jobs", "retry", "--failed", "--all", "--yes"]).status, 0)
    }

    /// While Redis refuses new work, the work already running goes on: its leases are renewed
    /// and its end is recorded (those scripts run out of memory too), so nothing stalls.
    func testAJobRunningWhenRedisFillsUpFinishesWithoutAStall() throws {
        try restartCoordinator(TestStack.fastQueue)
        let video = try stack.uploadTinyClip()
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 5, tag: 1)   // longer than its 3 s lease
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(job.id) == "running" })
        let redis = try stack.redis()
        let configured = try XCTUnwrap(redis.command("CONFIG", "GET", "maxmemory").array?.last?.string)
        try redis.command("CONFIG", "SET", "maxmemory", "1")
        defer { _ = try? redis.command("CONFIG", "SET", "maxmemory", configured) }

        XCTAssertEqual(try createJob(#"{"videoId": "\#(video.uuidString)", "sport": "tennis"}"#).code, "queue_unavailable")
        let done = try stack.waitForTerminal(job.id, timeout: 30)
        XCTAssertEqual(done.status, .succeeded, stack.logTail())
        XCTAssertEqual(done.attempt, 1)
        XCTAssertEqual(done.stalls, 0, "its lease was renewed all along")
        XCTAssertFalse(try JobQueue(prefix: stack.queuePrefix).holds(job.id, on: redis), "its end was recorded in Redis too")
    }

    func testAnUploadWhoseRecordFailsLeavesNoFile() throws {
        // PostgreSQL refuses this one upload's row (as it would when full, or mid-failover).
        try stack.db().execute("ALTER TABLE videos ADD CONSTRAINT refuse_one CHECK (original_name IS DISTINCT FROM 'refused.mp4')")
        let clip = try Data(contentsOf: try stack.makeClip("clip.mp4", "testsrc2=size=160x120:rate=10", seconds: 1))
        let refused = try upload(clip, name: "refused.mp4")
        XCTAssertGreaterThanOrEqual(refused.status, 500, refused.message)
        XCTAssertEqual(storedVideoFiles(), [], "the file moved into place was removed again")
        XCTAssertTrue(stack.waitUntil(timeout: 5) { temporaryFiles().isEmpty })
        XCTAssertEqual(try count("videos"), 0)

        XCTAssertEqual(try upload(clip, name: "accepted.mp4").status, 201)
        XCTAssertEqual(storedVideoFiles().count, 1)
        XCTAssertEqual(try stack.run(["storage", "check"]).status, 0, "storage and rows agree")
    }

    func testStorageCheckListsOrphansAndMissingFilesAndRemovesOldOrphans() throws {
        let clip = try stack.makeClip("kept.mp4", "testsrc2=size=160x120:rate=10", seconds: 1)
        let kept = try awaitSync { try await self.stack.client().uploadVideo(file: clip) }
        let lostClip = try stack.makeClip("lost.mp4", "testsrc2=size=160x120:rate=5", seconds: 1)
        let lost = try awaitSync { try await self.stack.client().uploadVideo(file: lostClip) }
        let videos = stack.storageDir.appendingPathComponent("videos")
        try FileManager.default.removeItem(at: videos.appendingPathComponent("\(lost.contentHash.prefix(2))/\(lost.contentHash)"))
        let orphanFolder = videos.appendingPathComponent("ff")
        try FileManager.default.createDirectory(at: orphanFolder, withIntermediateDirectories: true)
        let old = orphanFolder.appendingPathComponent(String(repeating: "f", count: 64))
        let recent = orphanFolder.appendingPathComponent("ff" + String(repeating: "e", count: 62))
        try Data(count: 10).write(to: old)
        try Data(count: 10).write(to: recent)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: old.path)

        let check = try stack.run(["storage", "check"])
        XCTAssertEqual(check.status, 1, check.output)
        XCTAssertTrue(check.stdout.contains("orphan   videos/ff/\(old.lastPathComponent)"), check.output)
        XCTAssertTrue(check.stdout.contains("recent   videos/ff/\(recent.lastPathComponent)"), check.output)
        XCTAssertTrue(check.stdout.contains("missing  videos/\(lost.contentHash.prefix(2))/\(lost.contentHash)  (video \(lost.id.uuidString.lowercased()))"), check.output)
        XCTAssertFalse(check.stdout.contains(kept.contentHash), "the agreeing video is not listed")

        let removal = try stack.run(["storage", "check", "--remove-orphans"])
        XCTAssertTrue(removal.stdout.contains("removed  videos/ff/\(old.lastPathComponent)"), removal.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recent.path), "a recent file may be an upload being recorded")
    }
}
