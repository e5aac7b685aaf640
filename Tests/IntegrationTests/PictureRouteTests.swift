import BowlingScenes
import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// `GET /v1/jobs/{id}/picture`, `GET /v1/jobs/{id}/report.pdf` and `GET /v1/batches/{id}/report.pdf`
/// on a real stack: a rendered bowling shot run by a worker comes back drawn over its own video and
/// as a report with its numbers; another club's ids answer exactly like missing ones; a job without
/// a result, or with nothing to draw, says so.
final class PictureRouteTests: CoordinatorTestCase {
    static let artifacts = TestStack.packageRoot.appendingPathComponent(".local/test-artifacts/pictures")

    func get(_ path: String, key: String) throws -> (data: Data, status: Int, headers: [String: String]) {
        let (data, status, headers) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)\(path)")!, key: key)
        return (data, status, headers)
    }

    func keep(_ data: Data, _ name: String) throws -> URL { try Self.keep(data, name) }

    /// Writes `data` to the artifacts directory as `name`, for people to look at after a run.
    static func keep(_ data: Data, _ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let url = Self.artifacts.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// The rgb24 pixels and size of a PNG, read by the ffmpeg CLI.
    func decode(_ png: URL) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let probe = try Tool.ffprobe(["-show_entries", "stream=width,height", png.path])
        let stream = try XCTUnwrap((probe["streams"] as? [[String: Any]])?.first)
        let width = try XCTUnwrap(stream["width"] as? Int), height = try XCTUnwrap(stream["height"] as? Int)
        let rgb = [UInt8](try Tool.run("ffmpeg", ["-v", "error", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        XCTAssertEqual(rgb.count, width * height * 3)
        return (width, height, rgb)
    }

    func pdfText(_ pdf: URL) throws -> (pages: Int, text: String) { try Self.pdfText(pdf) }

    /// The PDF's page count (pdfinfo) and its text laid out (pdftotext).
    static func pdfText(_ pdf: URL) throws -> (pages: Int, text: String) {
        let info = String(decoding: try Tool.run("pdfinfo", [pdf.path]), as: UTF8.self)
        let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
        return (try XCTUnwrap(pages, info), String(decoding: try Tool.run("pdftotext", ["-layout", pdf.path, "-"]), as: UTF8.self))
    }

    func testABowlingShotsPictureAndReportComeFromItsOwnVideoAndOnlyToItsClub() throws {
        try stack.startWorker()
        let alphaKey = try stack.createKey(["--club", "alpha"]), betaKey = try stack.createKey(["--club", "beta"])
        let client = try stack.client(key: alphaKey)
        let scene = BowlingScene(camera: .behindBowler720p, hand: .right, shots: [.hook(.right, speedMph: 18, revRateRPM: 340)])
        let clip = stack.directory.appendingPathComponent("lane 7.mp4")
        _ = try BowlingRenderer.render(scene, to: clip)
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(BowlingClipOptions(scene: scene).jsonString().utf8))
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "bowling", options: options)) }
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded, stack.logTail())
        let shot = try XCTUnwrap(try awaitSync { try await client.results(job.id) }.result["shots"].flatMap { if case .array(let a) = $0 { a.first } else { nil } })
        let id = job.id.uuidString.lowercased()

        // The picture: the 1280×720 frame with the panel beside it, the path in the first shot's colour.
        let answer = try get("/v1/jobs/\(id)/picture", key: alphaKey)
        XCTAssertEqual(answer.status, 200, String(decoding: answer.data, as: UTF8.self))
        XCTAssertEqual(answer.headers["Content-Type"] ?? answer.headers["content-type"], "image/png")
        let png = try keep(answer.data, "api-bowling.png")
        let image = try decode(png)
        XCTAssertEqual(image.width, 1280 + 440, "the frame, and the panel scaled with its 720 rows")
        XCTAssertGreaterThanOrEqual(image.height, 720)
        guard case .array(let points)? = shot["trajectory"], points.count > 10 else { return XCTFail("no trajectory: \(shot)") }
        let a = points[points.count / 2], b = points[points.count / 2 + 1]
        let x = Int(((a["x"]?.number ?? 0) + (b["x"]?.number ?? 0)) / 2), y = Int(((a["y"]?.number ?? 0) + (b["y"]?.number ?? 0)) / 2)
        let i = (y * image.width + x) * 3
        XCTAssertEqual([image.rgb[i], image.rgb[i + 1], image.rgb[i + 2]], [255, 59, 48], "the path at (\(x), \(y)) is drawn in the first shot's colour")

        // The report: its numbers, the file's name, the club.
        let report = try get("/v1/jobs/\(id)/report.pdf", key: alphaKey)
        XCTAssertEqual(report.status, 200)
        XCTAssertEqual(report.headers["Content-Type"] ?? report.headers["content-type"], "application/pdf")
        let pdf = try keep(report.data, "api-bowling-report.pdf")
        try Tool.run("pdftoppm", ["-png", "-r", "80", pdf.path, pdf.deletingPathExtension().path])
        let (pages, text) = try pdfText(pdf)
        XCTAssertGreaterThanOrEqual(pages, 1)
        let launch = String(format: "%.1f mph", try XCTUnwrap(shot["launchSpeed"]?.number))
        for expected in ["Bowling session report", "lane 7.mp4", "alpha", "Shots (1)", launch] {
            XCTAssertTrue(text.contains(expected), "'\(expected)' in the report:\n\(text)")
        }

        // Another club's key gets exactly what a missing id gets; a malformed id is a 400.
        for path in ["picture", "report.pdf"] {
            let theirs = try get("/v1/jobs/\(id)/\(path)", key: betaKey)
            let missingID = UUID().uuidString.lowercased()
            let missing = try get("/v1/jobs/\(missingID)/\(path)", key: betaKey)
            XCTAssertEqual(theirs.status, 404)
            XCTAssertEqual(missing.status, 404)
            XCTAssertEqual(String(decoding: theirs.data, as: UTF8.self).replacingOccurrences(of: id, with: "ID"),
                           String(decoding: missing.data, as: UTF8.self).replacingOccurrences(of: missingID, with: "ID"))
            XCTAssertEqual(try get("/v1/jobs/not-a-uuid/\(path)", key: alphaKey).status, 400)
        }
    }

    func testAPictureNeedsASucceededJobWithSomethingToDraw() throws {
        try stack.startWorker()
        let video = try stack.uploadTinyClip()
        let key = stack.operatorKey
        let empty = try stack.submitNoop(video: video, seconds: 0.05, tag: 2)
        let client = try stack.client()
        let basketball = try awaitSync {
            try await client.createJob(CreateJobRequest(videoId: video, sport: "basketball", options: .object(["noop": .object(["seconds": .number(0.05)])])))
        }
        XCTAssertEqual(try stack.waitForTerminal(empty.id).status, .succeeded)
        XCTAssertEqual(try stack.waitForTerminal(basketball.id).status, .succeeded)
        stack.stopWorkers()
        // No worker: this one stays queued.
        let waiting = try stack.submitNoop(video: video, seconds: 0.05, tag: 1)
        for path in ["picture", "report.pdf"] {
            let answer = try get("/v1/jobs/\(waiting.id.uuidString.lowercased())/\(path)", key: key)
            XCTAssertEqual(answer.status, 409, "\(path) of a job still waiting")
            XCTAssertEqual(HTTP.apiError(answer.data)?.code, "no_results")
        }
        // A tennis result without swings has no picture; its report says there are none.
        let nothing = try get("/v1/jobs/\(empty.id.uuidString.lowercased())/picture", key: key)
        XCTAssertEqual(nothing.status, 422)
        XCTAssertEqual(HTTP.apiError(nothing.data)?.message.contains("no swings to draw"), true, String(decoding: nothing.data, as: UTF8.self))
        let report = try get("/v1/jobs/\(empty.id.uuidString.lowercased())/report.pdf", key: key)
        XCTAssertEqual(report.status, 200)
        XCTAssertTrue(try pdfText(try keep(report.data, "api-empty-tennis-report.pdf")).text.contains("No swings were found"))

        // A basketball result without shots (the diagnostic pipeline's) has nothing to draw either.
        let answer = try get("/v1/jobs/\(basketball.id.uuidString.lowercased())/picture", key: key)
        XCTAssertEqual(answer.status, 422)
        XCTAssertEqual(HTTP.apiError(answer.data)?.code, "no_picture")
        XCTAssertEqual(HTTP.apiError(answer.data)?.message.contains("no shots to draw"), true, String(decoding: answer.data, as: UTF8.self))
    }

    func testABatchReportHasASectionForEachJobAndOnlyForItsClub() throws {
        try stack.startWorker()
        let alphaKey = try stack.createKey(["--club", "alpha"]), betaKey = try stack.createKey(["--club", "beta"])
        let client = try stack.client(key: alphaKey)
        let first = try awaitSync { try await client.uploadVideo(file: try self.stack.makeTinyClip()) }
        // Another picture than the tiny clip's, so that it is another video; filmed at a time its container gives.
        let other = stack.directory.appendingPathComponent("other.mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                         "-metadata", "creation_time=2025-03-06T18:45:00.000000Z", other.path])
        let second = try awaitSync { try await client.uploadVideo(file: other) }
        let batch = try awaitSync {
            try await client.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object(["seconds": .number(0.05)])]),
                                                            label: "Thursday juniors"))
        }
        let added = try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: [first.id, second.id])) }
        for id in added.jobIds { XCTAssertEqual(try stack.waitForTerminal(id).status, .succeeded) }
        let swing = #"{"swings": [{"swingNumber": 1, "type": "backhand", "startTime": 0.1, "endTime": 0.9, "keyFrameTimes": {"preparation": 0.1, "backswing": 0.3, "contact": 0.5, "followThrough": 0.7, "recovery": 0.9}, "metrics": {"peakWristSpeed": 8.25, "peakWristSpeedUnit": "torso/s"}}]}"#
        try stack.db().query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [added.jobIds[0], swing])

        let id = batch.id.uuidString.lowercased()
        let answer = try get("/v1/batches/\(id)/report.pdf", key: alphaKey)
        XCTAssertEqual(answer.status, 200, String(decoding: answer.data, as: UTF8.self))
        let pdf = try keep(answer.data, "api-batch-report.pdf")
        try Tool.run("pdftoppm", ["-png", "-r", "80", pdf.path, pdf.deletingPathExtension().path])
        let (pages, text) = try pdfText(pdf)
        XCTAssertEqual(pages, 3, "the batch's page, then one per job")
        // Without the player's height a speed is said against the player's own fastest swing, never in torso lengths.
        for expected in ["Tennis batch report", "Thursday juniors", "Totals over 2 succeeded jobs", "backhand", "100 % of the player's fastest swing",
                         "recorded 2025-03-06 18:45 UTC", "uploaded "] {
            XCTAssertTrue(text.contains(expected), "'\(expected)' in the report:\n\(text)")
        }
        XCTAssertFalse(text.contains("torso"), text)
        let theirs = try get("/v1/batches/\(id)/report.pdf", key: betaKey)
        let missingID = UUID().uuidString.lowercased()
        let missing = try get("/v1/batches/\(missingID)/report.pdf", key: betaKey)
        XCTAssertEqual(theirs.status, 404)
        XCTAssertEqual(String(decoding: theirs.data, as: UTF8.self).replacingOccurrences(of: id, with: "ID"),
                       String(decoding: missing.data, as: UTF8.self).replacingOccurrences(of: missingID, with: "ID"))
    }
}
