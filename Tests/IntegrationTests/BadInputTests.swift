import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// Bad requests get a clear error and change nothing else, against the coordinator in process
/// (`InProcessStack`: its router, real PostgreSQL and Redis). `BadInputWorkerTests` has the
/// bad videos a worker meets.
final class BadInputTests: InProcessTestCase {
    let uploadPath = "/v1/videos"
    let jobsPath = "/v1/jobs"

    func makeClip(_ name: String, faststart: Bool = false) throws -> URL {
        let url = stack.directory.appendingPathComponent(name)
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p"]
                        + (faststart ? ["-movflags", "+faststart"] : []) + [url.path])
        return url
    }

    /// Uploads raw bytes and returns (status, error code, message).
    func upload(_ body: Data?) throws -> (Int, String, String) {
        let (data, status, _) = try stack.request("POST", uploadPath, key: stack.operatorKey, body: body, headers: ["Content-Type": "application/octet-stream"])
        let error = HTTP.apiError(data)
        return (status, error?.code ?? "", error?.message ?? String(decoding: data, as: UTF8.self))
    }

    func assertNothingStored(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos").rows[0]["n"], "0", file: file, line: line)
        let fm = FileManager.default
        let tmp = (try? fm.contentsOfDirectory(atPath: stack.storageDir.appendingPathComponent("tmp").path)) ?? []
        XCTAssertEqual(tmp, [], "no temporary upload left behind", file: file, line: line)
        let videos = fm.enumerator(atPath: stack.storageDir.appendingPathComponent("videos").path)?.allObjects as? [String] ?? []
        XCTAssertEqual(videos, [], "no stored video", file: file, line: line)
    }

    func testBadUploadsAreRefusedWithTheProblemNamedAndLeaveNothing() throws {
        let clip = try makeClip("good.mp4")
        let bytes = try Data(contentsOf: clip)
        let faststart = try Data(contentsOf: try makeClip("fast.mp4", faststart: true))
        // Noise from a fixed seed: unseeded bytes once probed as an h263 stream (a few bytes look
        // like a picture start code), so the case must be the same bytes on every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let random = Data((0..<200_000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        })

        let cases: [(String, Data?, Int, String, String)] = [
            ("zero bytes", Data(), 400, "empty_upload", "empty"),
            ("no body", nil, 400, "empty_upload", "empty"),
            ("random bytes", random, 422, "invalid_video", "not a video"),
            ("text named .mp4", Data("these are my practice notes, not a video\n".utf8), 422, "invalid_video", "not a video"),
            ("mp4 cut in the middle", bytes.prefix(bytes.count / 2), 422, "invalid_video", ""),
            ("faststart mp4 cut in the middle", faststart.prefix(faststart.count / 2), 422, "invalid_video", "truncated"),
        ]
        for (label, body, status, code, words) in cases {
            let (gotStatus, gotCode, message) = try upload(body)
            XCTAssertEqual(gotStatus, status, "\(label): \(message)")
            XCTAssertEqual(gotCode, code, "\(label): \(message)")
            XCTAssertFalse(message.isEmpty, label)
            if !words.isEmpty { XCTAssertTrue(message.lowercased().contains(words), "\(label): '\(message)' should say '\(words)'") }
            try assertNothingStored()
        }
    }

    /// A name holding a control character is refused before a byte is stored (PostgreSQL's text
    /// holds no NUL: it was once a 500 from the failed insert, after the video was on disk); a
    /// long one is kept to 255 characters, as the API document says.
    func testAFileNameWithAControlCharacterIsRefusedAndALongOneIsCut() throws {
        let bytes = try Data(contentsOf: try makeClip("named.mp4"))
        for (label, query) in [("a NUL", "a%00b.mp4"), ("a newline", "a%0Ab.mp4")] {
            let (data, status, _) = try stack.request("POST", "\(uploadPath)?filename=\(query)", key: stack.operatorKey, body: bytes,
                                                      headers: ["Content-Type": "application/octet-stream"])
            XCTAssertEqual(status, 400, "\(label): \(String(decoding: data, as: UTF8.self))")
            XCTAssertEqual(HTTP.apiError(data)?.code, "invalid_request", label)
            XCTAssertTrue(HTTP.apiError(data)?.message.contains("'filename' holds a control character") == true, String(decoding: data, as: UTF8.self))
            try assertNothingStored()
        }
        let long = String(repeating: "x", count: 300)
        let (data, status, _) = try stack.request("POST", "\(uploadPath)?filename=\(long)", key: stack.operatorKey, body: bytes,
                                                  headers: ["Content-Type": "application/octet-stream"])
        XCTAssertEqual(status, 201, String(decoding: data, as: UTF8.self))
        let video = try ReelworkJSON.decoder.decode(VideoView.self, from: data)
        XCTAssertEqual(video.originalName, String(repeating: "x", count: 255))
    }

    func testUploadOverTheLimitIsRefusedWhileStreaming() throws {
        stack.stopCoordinator()
        try stack.startCoordinator(extraSettings: ["REELWORK_MAX_UPLOAD_BYTES": "50000"])
        let clip = try makeClip("big.mp4")
        let (data, status, _) = try stack.request("POST", uploadPath, key: stack.operatorKey, body: try Data(contentsOf: clip) + Data(count: 60_000))
        XCTAssertEqual(status, 413)
        XCTAssertEqual(HTTP.apiError(data)?.code, "too_large")
        try assertNothingStored()
    }

    func testBadJobRequestsAreRefusedAndEnqueueNothing() throws {
        let video = try awaitSync { try await self.stack.client().uploadVideo(file: try self.makeClip("ok.mp4")) }
        let vid = video.id.uuidString.lowercased()
        let cases: [(String, String, Int, String)] = [
            ("unknown sport", #"{"videoId":"\#(vid)","sport":"curling"}"#, 400, "unknown_sport"),
            ("missing video id", #"{"sport":"tennis"}"#, 400, "invalid_json"),
            ("video that does not exist", #"{"videoId":"\#(UUID().uuidString)","sport":"tennis"}"#, 404, "video_not_found"),
            ("options not an object", #"{"videoId":"\#(vid)","sport":"tennis","options":[1]}"#, 400, "invalid_options"),
            ("misspelt option", #"{"videoId":"\#(vid)","sport":"tennis","options":{"dominantHnad":"left"}}"#, 400, "invalid_options"),
            ("not JSON", "videoId=1", 400, "invalid_json"),
            ("empty body", "", 400, "empty_body"),
        ]
        for (label, body, status, code) in cases {
            let (data, gotStatus, _) = try stack.request("POST", jobsPath, key: stack.operatorKey, body: Data(body.utf8), headers: ["Content-Type": "application/json"])
            let error = HTTP.apiError(data)
            XCTAssertEqual(gotStatus, status, "\(label): \(String(decoding: data, as: UTF8.self))")
            XCTAssertEqual(error?.code, code, label)
            XCTAssertFalse(error?.message.isEmpty ?? true, label)
        }
        let (data, _, _) = try stack.request("POST", jobsPath, key: stack.operatorKey, body: Data(#"{"videoId":"\#(vid)","sport":"curling"}"#.utf8))
        XCTAssertTrue(HTTP.apiError(data)?.message.contains("tennis, bowling, archery, basketball") ?? false, "lists the valid sports")
        let typo = Data(#"{"videoId":"\#(vid)","sport":"tennis","options":{"dominantHnad":"left"}}"#.utf8)
        let (typoData, _, _) = try stack.request("POST", jobsPath, key: stack.operatorKey, body: typo, headers: ["Content-Type": "application/json"])
        XCTAssertEqual(HTTP.apiError(typoData)?.message, "unknown option 'dominantHnad' (did you mean 'dominantHand'?); tennis options are: dominantHand, playerHeight")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0]["n"], "0")
        XCTAssertEqual(try JobQueue(prefix: stack.queuePrefix).stats(on: stack.redis()).ready, 0)

        let (missing, missingStatus, _) = try stack.get("/v1/jobs/\(UUID().uuidString)", key: stack.operatorKey)
        XCTAssertEqual(missingStatus, 404)
        XCTAssertEqual(HTTP.apiError(missing)?.code, "job_not_found")
        let (badID, badIDStatus, _) = try stack.get("/v1/jobs/not-a-uuid", key: stack.operatorKey)
        XCTAssertEqual(badIDStatus, 400)
        XCTAssertEqual(HTTP.apiError(badID)?.code, "invalid_id")
    }
}

/// A bad video gets a clear error, spends no retry, and does not stop the worker (a worker process).
final class BadInputWorkerTests: CoordinatorTestCase {
    func makeClip(_ name: String, faststart: Bool = false) throws -> URL {
        let url = stack.directory.appendingPathComponent(name)
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p"]
                        + (faststart ? ["-movflags", "+faststart"] : []) + [url.path])
        return url
    }

    func testUndecodableVideoFailsAtOnceAndTheWorkerGoesOnToTheNextJob() throws {
        try stack.startWorker(slots: 1)
        let client = try stack.client()
        let broken = try awaitSync { try await client.uploadVideo(file: try self.makeClip("broken.mp4")) }
        // The stored copy rots after upload (disk fault, bad copy): the worker must not retry it.
        let stored = stack.storageDir.appendingPathComponent("videos/\(broken.contentHash.prefix(2))/\(broken.contentHash)")
        try Data(repeating: 0x5A, count: 4096).write(to: stored)
        let good = try awaitSync { try await client.uploadVideo(file: try self.makeClip("fine.mp4", faststart: true)) }

        let brokenJob = try awaitSync { try await client.createJob(CreateJobRequest(videoId: broken.id, sport: "tennis")) }
        let goodJob = try awaitSync { try await client.createJob(CreateJobRequest(videoId: good.id, sport: "tennis")) }

        let failed = try stack.waitForTerminal(brokenJob.id)
        XCTAssertEqual(failed.status, .failed)
        XCTAssertEqual(failed.attempt, 1, "no retry is spent on what cannot succeed")
        XCTAssertEqual(failed.maxAttempts, 3)
        XCTAssertEqual(failed.lastErrorKind, "invalid_input")
        XCTAssertTrue(failed.lastError?.hasPrefix("probe: ") ?? false, failed.lastError ?? "")
        XCTAssertEqual(failed.stages.first?.name, "probe")
        XCTAssertEqual(failed.stages.first?.status, .failed)
        XCTAssertGreaterThan(failed.stages.count, 1)
        XCTAssertTrue(failed.stages.dropFirst().allSatisfy { $0.status == .skipped }, "the stages after it never ran")
        XCTAssertEqual(failed.stages.first?.errorKind, "invalid_input")
        XCTAssertThrowsError(try awaitSync { try await client.results(brokenJob.id) })
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM results WHERE job_id = $1", [brokenJob.id]).rows[0]["n"], "0")

        XCTAssertEqual(try stack.waitForTerminal(goodJob.id).status, .succeeded, "the same worker serves the next job")
        XCTAssertTrue(stack.workers[0].isRunning)
    }

    func testOperatorRetryRunsAFailedJobAgainWithItsHistoryKept() throws {
        try stack.startWorker(slots: 1)
        let client = try stack.client()
        let clip = try makeClip("retry.mp4")
        let original = try Data(contentsOf: clip)
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        let stored = stack.storageDir.appendingPathComponent("videos/\(video.contentHash.prefix(2))/\(video.contentHash)")
        try Data(repeating: 0, count: 100).write(to: stored)
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis")) }
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .failed)

        let (conflict, conflictStatus, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)/v1/jobs/\(UUID().uuidString)/retry")!, key: stack.operatorKey)
        XCTAssertEqual(conflictStatus, 404, String(decoding: conflict, as: UTF8.self))

        try original.write(to: stored)   // the operator restored the file
        let retried = try stack.run(["jobs", "retry", job.id.uuidString.lowercased()])
        XCTAssertEqual(retried.status, 0, retried.output)
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .succeeded)
        XCTAssertEqual(done.attempt, 2)
        XCTAssertTrue(retried.output.contains("attempt 2 is next; its failures count again from 0/3"), retried.output)
        // The views agree: attempt numbers go on, the failures allowed start again.
        let shown = try stack.run(["jobs", "show", job.id.uuidString.lowercased()])
        XCTAssertTrue(shown.output.contains("attempts  attempt 2, 0/3 failed"), shown.output)
        XCTAssertEqual(Set(done.stages.map(\.attempt)), [1, 2], "both attempts stay in the history")
        XCTAssertEqual(done.stages.filter { $0.attempt == 1 }.first?.status, .failed)

        let again = try stack.run(["jobs", "retry", job.id.uuidString.lowercased()])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.output.contains("only failed or cancelled jobs can be retried"), again.output)
    }
}
