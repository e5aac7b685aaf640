import Archery
import ArcheryScenes
import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// Archery through the real stack: a photo of a face (rendered with known truth, encoded as PNG by
/// ffmpeg) uploaded, scored by a worker, stored as rows, drawn, and confirmed with corrections;
/// only its own club sees or corrects it; what has no face fails once and says what to do.
final class ArcheryJobTests: CoordinatorTestCase {
    /// The scene rendered 1000 × 750, 20° off axis, written as a PNG (through a PPM) in the stack's directory.
    func photo(_ name: String) throws -> (url: URL, truth: SceneTruth) {
        let camera = FaceCamera.framing(width: 1000, height: 750, radiusPx: 300, yawDegrees: 20, pitchDegrees: 10)
        let rendered = ArcheryRenderer.render(ArcheryScene(camera: camera, arrows: SceneArrow.sixArrows, noise: 6))
        let ppm = stack.directory.appendingPathComponent(name + ".ppm"), png = stack.directory.appendingPathComponent(name)
        try Data(Array("P6\n\(rendered.width) \(rendered.height)\n255\n".utf8) + rendered.pixels).write(to: ppm)
        try Tool.ffmpeg(["-i", ppm.path, png.path])
        return (png, rendered.truth)
    }

    func post(_ path: String, key: String, body: String) throws -> (status: Int, code: String?, message: String, data: Data) {
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)\(path)")!, key: key, body: Data(body.utf8),
                                                 headers: ["Content-Type": "application/json"])
        return (status, HTTP.apiError(data)?.code, HTTP.apiError(data)?.message ?? "", data)
    }

    func testAPhotoOfAFaceIsScoredStoredDrawnAndConfirmedOnlyByItsClub() throws {
        try stack.startWorker()
        let alphaKey = try stack.createKey(["--club", "alpha"]), betaKey = try stack.createKey(["--club", "beta"])
        let client = try stack.client(key: alphaKey)
        let (file, truth) = try photo("end 3.png")
        XCTAssertEqual(truth.total, 38)
        let video = try awaitSync { try await client.uploadVideo(file: file) }
        XCTAssertEqual(video.facts.width, 1000, "the photo was accepted as a one-frame video")
        let job = try awaitSync {
            try await client.createJob(CreateJobRequest(videoId: video.id, sport: "archery", options: .object(["expectedArrowCount": .number(6)])))
        }
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded, stack.logTail())
        let id = job.id.uuidString.lowercased()

        // The result: every arrow within 0.04 face radii of the truth with its exact score, and the totals.
        let document = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(document.stages.map(\.name), ["probe", "decode", "scoring"])
        XCTAssertNil(document.confirmed, "nothing confirmed yet")
        let result = document.result
        guard case .array(let arrows)? = result["arrows"] else { return XCTFail("no arrows: \(result)") }
        XCTAssertEqual(arrows.count, truth.arrows.count)
        var detectedIndex: [Int: Int] = [:]  // truth index → the detected arrow's `id`
        for (t, expected) in truth.arrows.enumerated() {
            let nearest = arrows.min { a, b in
                hypot((a["normalizedX"]?.number ?? 9) - expected.x, (a["normalizedY"]?.number ?? 9) - expected.y)
                    < hypot((b["normalizedX"]?.number ?? 9) - expected.x, (b["normalizedY"]?.number ?? 9) - expected.y)
            }
            let found = try XCTUnwrap(nearest)
            let error = hypot((found["normalizedX"]?.number ?? 9) - expected.x, (found["normalizedY"]?.number ?? 9) - expected.y)
            XCTAssertLessThanOrEqual(error, 0.04, "arrow at (\(expected.x), \(expected.y))")
            XCTAssertEqual(found["score"]?.number, Double(expected.score), "score of the arrow at (\(expected.x), \(expected.y))")
            XCTAssertEqual(found["isXRing"], .bool(expected.isX))
            detectedIndex[t] = found["id"]?.number.map { Int($0) }
        }
        XCTAssertEqual(result["total"]?.number, Double(truth.total))
        XCTAssertEqual(result["xCount"]?.number, Double(truth.xCount))
        XCTAssertEqual(result["tens"]?.number, Double(truth.tens))
        XCTAssertEqual(result["input"], .string("photo"))
        XCTAssertNil(result["missingArrows"], "all six expected arrows found")

        // Rows: CSV through the API and the CLI, and the table.
        let csv = try awaitSync { try await client.resultsCSV(job.id) }
        let lines = csv.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.count, 8, "header, six arrows, final line end")
        XCTAssertEqual(lines[0], ResultTable.archeryArrows.columns.map(\.name).joined(separator: ","))
        for (line, arrow) in zip(lines.dropFirst(), arrows) {
            let cells = line.components(separatedBy: ",")
            XCTAssertEqual(Double(cells[1]), arrow["score"]?.number, line)
            XCTAssertEqual(cells[2], arrow["isXRing"] == .bool(true) ? "true" : "false", line)
            XCTAssertEqual(Double(cells[3]), arrow["normalizedX"]?.number, line)
        }
        let rows = try stack.db().query("SELECT sum(score) AS total, count(*) AS n FROM archery_arrows WHERE job_id = $1", [job.id]).rows
        XCTAssertEqual(rows.first?["n"], "6")
        XCTAssertEqual(rows.first?["total"], String(truth.total))
        let cli = try stack.run(["jobs", "results", id], extraEnvironment: ["REELWORK_API_KEY": alphaKey])
        XCTAssertEqual(cli.status, 0, cli.output)
        XCTAssertTrue(cli.stdout.contains("6 arrows, \(truth.total)"), cli.stdout)

        // The picture: the photo (750 rows shown 600 high: 800 wide), a gap, the 600 × 600 rectified
        // face, under a title and over a line of scores.
        let (png, pictureStatus, pictureHeaders) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/jobs/\(id)/picture")!, key: alphaKey)
        XCTAssertEqual(pictureStatus, 200, String(decoding: png, as: UTF8.self))
        XCTAssertEqual(pictureHeaders["Content-Type"] ?? pictureHeaders["content-type"], "image/png")
        let artifacts = TestStack.packageRoot.appendingPathComponent(".local/test-artifacts/pictures")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let pngFile = artifacts.appendingPathComponent("api-archery.png")
        try png.write(to: pngFile)
        let probe = try Tool.ffprobe(["-show_entries", "stream=width,height", pngFile.path])
        let stream = try XCTUnwrap((probe["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["width"] as? Int, 800 + 12 + 600)
        XCTAssertEqual(stream["height"] as? Int, 46 + 600 + 34)
        // The dashboard's job page shows the same picture, through the session, to its club only.
        var alpha = DashboardSession(baseURL: stack.coordinatorURL)
        XCTAssertEqual(try alpha.signIn(alphaKey).status, 303)
        let page = try alpha.get("/dashboard/jobs/\(id)")
        XCTAssertTrue(page.body.contains(#"<img src="/dashboard/jobs/\#(id)/picture.png""#), page.body)
        XCTAssertTrue(page.body.contains("<figcaption>6 arrows · Total \(truth.total) · "), page.body)
        let shown = stack.directory.appendingPathComponent("dashboard-archery.png")
        XCTAssertEqual(try alpha.download("/dashboard/jobs/\(id)/picture.png", to: shown), 200)
        XCTAssertEqual(try Data(contentsOf: shown), png, "the dashboard draws what the API draws")
        var beta = DashboardSession(baseURL: stack.coordinatorURL)
        XCTAssertEqual(try beta.signIn(betaKey).status, 303)
        XCTAssertEqual(try beta.download("/dashboard/jobs/\(id)/picture.png", to: shown), 404, "another club's picture")

        let (pdf, pdfStatus, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/jobs/\(id)/report.pdf")!, key: alphaKey)
        XCTAssertEqual(pdfStatus, 200)
        let pdfFile = artifacts.appendingPathComponent("api-archery-report.pdf")
        try pdf.write(to: pdfFile)
        let text = String(decoding: try Tool.run("pdftotext", ["-layout", pdfFile.path, "-"]), as: UTF8.self)
        XCTAssertTrue(text.contains("Archery session report"), text)
        XCTAssertNotNil(text.range(of: #"Total\s+\#(truth.total)\b"#, options: .regularExpression), text)

        // Another club: exactly as if the job did not exist, and nothing is stored.
        for (path, body) in [("/v1/jobs/\(id)/arrows", #"{"corrections": []}"#)] {
            let answer = try post(path, key: betaKey, body: body)
            XCTAssertEqual(answer.status, 404, String(decoding: answer.data, as: UTF8.self))
            XCTAssertEqual(answer.code, "job_not_found")
        }
        let (_, betaGet, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/jobs/\(id)/arrows")!, key: betaKey)
        XCTAssertEqual(betaGet, 404)

        // Bad corrections: 400 naming the problem, nothing stored.
        let one = try XCTUnwrap(detectedIndex[truth.arrows.firstIndex { $0.score == 1 }!], "the arrow scoring 1 was found")
        let bad: [(String, String)] = [
            (#"{"corrections": [{"op": "move", "index": 6, "x": 0, "y": 0}]}"#, "index 6 does not exist"),
            (#"{"corrections": [{"op": "bend", "index": 0}]}"#, "corrections[0].op"),
            (#"{"corrections": [{"op": "add", "x": 2, "y": 0}]}"#, "corrections[0].x"),
            (#"{"corrections": [{"op": "delete", "index": 1}, {"op": "move", "index": 1, "x": 0, "y": 0}]}"#, "corrected twice"),
            (#"{"moves": []}"#, "corrections must be an array"),
        ]
        for (body, text) in bad {
            let answer = try post("/v1/jobs/\(id)/arrows", key: alphaKey, body: body)
            XCTAssertEqual(answer.status, 400, body)
            XCTAssertEqual(answer.code, "invalid_corrections", body)
            XCTAssertTrue(answer.message.contains(text), "\(body): '\(answer.message)' should say '\(text)'")
        }
        XCTAssertEqual(try post("/v1/jobs/\(id)/arrows", key: alphaKey, body: "{not json").code, "invalid_json")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM archery_confirmations").rows[0]["n"], "0")

        // A person moves the 1 into the X ring: a confirmed version, rescored; the detected end stays.
        // What else the body holds is not kept (a NUL, which jsonb cannot hold, would fail the insert).
        let moved = try post("/v1/jobs/\(id)/arrows", key: alphaKey,
                             body: #"{"corrections": [{"op": "move", "index": \#(one), "x": 0.01, "y": -0.02, "note": "a\u0000b"}]}"#)
        XCTAssertEqual(moved.status, 201, String(decoding: moved.data, as: UTF8.self))
        let confirmed = try ReelworkJSON.decoder.decode(JSONValue.self, from: moved.data)
        XCTAssertEqual(confirmed["version"], .number(1))
        XCTAssertEqual(confirmed["corrections"], .array([.object(["op": .string("move"), "index": .number(Double(one)),
                                                                  "x": .number(0.01), "y": .number(-0.02)])]))
        XCTAssertEqual(confirmed["total"]?.number, Double(truth.total - 1 + 10))
        XCTAssertEqual(confirmed["xCount"]?.number, Double(truth.xCount + 1))
        guard case .array(let placed)? = confirmed["arrows"] else { return XCTFail("no confirmed arrows") }
        XCTAssertEqual(placed.count, 6)
        let movedArrow = try XCTUnwrap(placed.first { $0["source"] == .string("moved") })
        XCTAssertEqual(movedArrow["detectedIndex"]?.number, Double(one))
        XCTAssertEqual(movedArrow["wasAdjusted"], .bool(true))
        XCTAssertEqual(placed.filter { $0["source"] == .string("detected") }.count, 5)

        let after = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(after.result, result, "the detected end is unchanged")
        XCTAssertEqual(after.confirmed?["version"], .number(1))
        XCTAssertEqual(after.confirmed?["total"]?.number, Double(truth.total + 9))
        let confirmedCSV = try awaitSync { try await client.confirmedArrowsCSV(job.id) }.components(separatedBy: "\r\n")
        XCTAssertEqual(confirmedCSV.count, 8, "header, six arrows, final line end")
        XCTAssertEqual(confirmedCSV.filter { $0.contains(",moved,") }.count, 1)
        XCTAssertEqual(try awaitSync { try await client.resultsCSV(job.id) }, csv, "the detected rows are unchanged")

        // The CLI sends a file of corrections: the next version.
        let corrections = stack.directory.appendingPathComponent("corrections.json")
        try Data(#"{"corrections": [{"op": "delete", "index": \#(one)}]}"#.utf8).write(to: corrections)
        let sent = try stack.run(["jobs", "arrows", id, "--file", corrections.path], extraEnvironment: ["REELWORK_API_KEY": alphaKey])
        XCTAssertEqual(sent.status, 0, sent.output)
        let second = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(sent.stdout.utf8))
        XCTAssertEqual(second["version"], .number(2))
        XCTAssertEqual(second["total"]?.number, Double(truth.total - 1))
        XCTAssertEqual(try awaitSync { try await client.results(job.id) }.confirmed?["version"], .number(2), "the newest is current")
    }

    func testWhatHasNoFaceFailsOnceAndSaysWhatToDo() throws {
        try stack.startWorker()
        let client = try stack.client()
        // A photo of a wall (one PNG frame) and a blank video: no face, no made-up score.
        let wall = stack.directory.appendingPathComponent("wall.png")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "color=c=0x8c7a5f:size=800x600,noise=alls=8:allf=t", "-frames:v", "1", wall.path])
        let blank = try stack.makeClip("blank.mp4", "color=c=black:size=320x240:rate=25")
        var failed: [(String, JobView)] = []
        for file in [wall, blank] {
            let video = try awaitSync { try await client.uploadVideo(file: file) }
            let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "archery")) }
            failed.append((file.lastPathComponent, try stack.waitForTerminal(job.id)))
        }
        for (name, job) in failed {
            XCTAssertEqual(job.status, .failed, "\(name): \(stack.logTail())")
            XCTAssertEqual(job.attempt, 1, "\(name): needs_person is never retried")
            XCTAssertEqual(job.lastErrorKind, ErrorKind.needsPerson.rawValue, name)
            XCTAssertEqual(job.stages.first { $0.name == "scoring" }?.status, .failed, name)
        }
        XCTAssertEqual(failed[0].1.lastError,
                       "scoring: No target face found: photograph the whole face, in good light, from within 35° of straight on")
        XCTAssertTrue(failed[1].1.lastError?.hasPrefix("scoring: No steady view of the whole target face in the video: film the face from a tripod") ?? false,
                      failed[1].1.lastError ?? "")

        // Corrections need a succeeded archery job.
        let id = failed[0].1.id.uuidString.lowercased()
        let notDone = try post("/v1/jobs/\(id)/arrows", key: stack.operatorKey, body: #"{"corrections": []}"#)
        XCTAssertEqual(notDone.status, 409)
        XCTAssertEqual(notDone.code, "no_results")
        let tennis = try stack.submitNoop(video: try stack.uploadTinyClip(), seconds: 0.05, tag: 1)
        XCTAssertEqual(try stack.waitForTerminal(tennis.id).status, .succeeded)
        let other = try post("/v1/jobs/\(tennis.id.uuidString.lowercased())/arrows", key: stack.operatorKey, body: #"{"corrections": []}"#)
        XCTAssertEqual(other.status, 422)
        XCTAssertEqual(other.code, "not_archery")
    }
}
