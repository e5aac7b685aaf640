import BasketballScenes
import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// Basketball through the real stack (issue 14): a rendered shooting session, encoded H.264 by
/// ffmpeg and uploaded, comes back shot by shot against its truth as JSON, CSV rows, a picture and
/// a PDF report; a batch of two sessions adds up into one stats table; bad input (no hoop, a hoop
/// outside the frame, a blank video) gets a clear answer and no made-up score.
final class BasketballJobTests: CoordinatorTestCase {
    /// Every kind of attempt, 2PT and 3PT, with dribbles and passes between (not attempts).
    static let script: [SceneEvent] = [
        .dribble(playerX: 16, bounces: 2),
        .shot(.swish, distanceFt: 15),
        .pass(playerX: 20, towardHoop: false),
        .shot(.rimOut, distanceFt: 18),
        .shot(.bank, distanceFt: 12),
        .shot(.airball, distanceFt: 24),
        .shot(.swish, distanceFt: 24),
        .dribble(playerX: 14, bounces: 2),
        .shot(.offBoard, distanceFt: 16),
    ]

    static func hoop(_ scene: ShootingScene) -> JSONValue {
        .object(["rimLeft": .array([.number(scene.rimEnds.left.x), .number(scene.rimEnds.left.y)]),
                 "rimRight": .array([.number(scene.rimEnds.right.x), .number(scene.rimEnds.right.y)])])
    }

    /// The scene as an H.264 MP4 in the stack's directory.
    func render(_ scene: ShootingScene, _ name: String) throws -> URL {
        let clip = stack.directory.appendingPathComponent(name)
        try ShootingSceneRenderer(scene: scene).encode(to: clip)
        return clip
    }

    func get(_ path: String, key: String) throws -> (data: Data, status: Int) {
        let (data, status, _) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)\(path)")!, key: key)
        return (data, status)
    }

    func keep(_ data: Data, _ name: String) throws -> URL { try PictureRouteTests.keep(data, name) }

    func pdfText(_ pdf: URL) throws -> (pages: Int, text: String) { try PictureRouteTests.pdfText(pdf) }

    func testASessionComesBackShotByShotWithCSVPictureReportAndABatchTotal() throws {
        try stack.startWorker()
        let alphaKey = try stack.createKey(["--club", "alpha"]), betaKey = try stack.createKey(["--club", "beta"])
        let client = try stack.client(key: alphaKey)
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: Self.script, seed: 11)
        // The second session finds the rim itself (no hoop option).
        let second = ShootingScene(width: 640, height: 360, fps: 30, events: [.shot(.swish, distanceFt: 25), .shot(.rimOut, distanceFt: 10)], seed: 5)
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "basketball", label: "tuesday shooting")) }
        let video = try awaitSync { try await client.uploadVideo(file: try self.render(scene, "session 1.mp4")) }
        let otherVideo = try awaitSync { try await client.uploadVideo(file: try self.render(second, "session 2.mp4")) }
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "basketball",
                                                                              options: .object(["hoop": Self.hoop(scene)]), batchId: batch.id)) }
        let otherJob = try awaitSync { try await client.createJob(CreateJobRequest(videoId: otherVideo.id, sport: "basketball", batchId: batch.id)) }
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .succeeded, "\(done.lastError ?? "") \(stack.logTail())")
        XCTAssertEqual(try stack.waitForTerminal(otherJob.id).status, .succeeded, stack.logTail())

        // The result against the truth: every attempt, made or missed, 2PT or 3PT, release within 0.4 s.
        let document = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(document.stages.map(\.name), ["probe", "decode", "objects", "shots"])
        let shots = try XCTUnwrap(document.result["shots"].flatMap { if case .array(let a) = $0 { a } else { nil } })
        XCTAssertEqual(shots.count, scene.truth.count, "\(shots)")
        for (shot, truth) in zip(shots, scene.truth) {
            let name = "\(truth.kind) from \(truth.distanceFt) ft"
            XCTAssertEqual(shot["made"], .bool(truth.made), name)
            XCTAssertEqual(shot["shotType"], .string(truth.isThreePoint ? "3PT" : "2PT"), name)
            XCTAssertEqual(try XCTUnwrap(shot["releaseTime"]?.number), truth.releaseTime, accuracy: 0.4, name)
        }
        let made = scene.truth.filter(\.made).count, threes = scene.truth.filter(\.isThreePoint)
        let threesMade = threes.filter(\.made).count
        let stats = try XCTUnwrap(document.result["stats"])
        XCTAssertEqual(stats["fieldGoalsAttempted"], .number(Double(scene.truth.count)))
        XCTAssertEqual(stats["fieldGoalsMade"], .number(Double(made)))
        XCTAssertEqual(stats["threePointAttempted"], .number(Double(threes.count)))
        XCTAssertEqual(stats["threePointMade"], .number(Double(threesMade)))
        XCTAssertEqual(stats["points"], .number(Double(2 * (made - threesMade) + 3 * threesMade)))
        XCTAssertEqual(document.result["hoop"]?["source"], .string("option"))
        let otherDocument = try awaitSync { try await client.results(otherJob.id) }
        XCTAssertEqual(otherDocument.result["hoop"]?["source"], .string("found"))
        XCTAssertEqual(otherDocument.result["stats"]?["fieldGoalsAttempted"], .number(2))
        XCTAssertEqual(otherDocument.result["stats"]?["threePointMade"], .number(1))

        // CSV: the typed rows, one per shot, as the result has them.
        let csv = try awaitSync { try await client.resultsCSV(job.id) }
        let lines = csv.split(separator: "\r\n").map(String.init)
        XCTAssertEqual(lines.first, "shotNumber,releaseTime,rimTime,made,shotType,distanceFt,confidence")
        XCTAssertEqual(lines.count, 1 + scene.truth.count)
        for (line, truth) in zip(lines.dropFirst(), scene.truth) {
            let cells = line.split(separator: ",").map(String.init)
            XCTAssertEqual(cells[3], truth.made ? "true" : "false", line)
            XCTAssertEqual(cells[4], truth.isThreePoint ? "3PT" : "2PT", line)
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM basketball_shots WHERE job_id = $1 AND made", [job.id]).rows[0]["n"], "\(made)")

        // The picture: the 640×360 frame and the chart beside it; the report: totals and the table.
        let id = job.id.uuidString.lowercased()
        let picture = try get("/v1/jobs/\(id)/picture", key: alphaKey)
        XCTAssertEqual(picture.status, 200, String(decoding: picture.data, as: UTF8.self))
        let png = try keep(picture.data, "api-basketball.png")
        let probe = try Tool.ffprobe(["-show_entries", "stream=width,height", png.path])
        let stream = try XCTUnwrap((probe["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["width"] as? Int, 640 + 420)
        XCTAssertEqual(stream["height"] as? Int, 360)
        let report = try get("/v1/jobs/\(id)/report.pdf", key: alphaKey)
        XCTAssertEqual(report.status, 200)
        let pdf = try keep(report.data, "api-basketball-report.pdf")
        let (pages, text) = try pdfText(pdf)
        XCTAssertGreaterThanOrEqual(pages, 1)
        for expected in ["Basketball session report", "session 1.mp4", "alpha", "Shots (\(scene.truth.count))",
                         "\(made)/\(scene.truth.count)", "3PT", "missed"] {
            XCTAssertTrue(text.contains(expected), "'\(expected)' in the report:\n\(text)")
        }

        // The batch: one stats table over both sessions (counts add, percentages from the sums).
        let batchReport = try get("/v1/batches/\(batch.id.uuidString.lowercased())/report.pdf", key: alphaKey)
        XCTAssertEqual(batchReport.status, 200)
        let batchPDF = try keep(batchReport.data, "api-basketball-batch.pdf")
        let (batchPages, batchText) = try pdfText(batchPDF)
        XCTAssertGreaterThanOrEqual(batchPages, 3, "the summary, then a page per session")
        let allMade = made + 1, allAttempts = scene.truth.count + 2
        let allThrees = threesMade + 1
        for expected in ["Totals over 2 succeeded jobs", "\(allMade)/\(allAttempts)", "Stats by session", "Total",
                         "\(2 * (allMade - allThrees) + 3 * allThrees)"] {
            XCTAssertTrue(batchText.contains(expected), "'\(expected)' in the batch report:\n\(batchText)")
        }

        // The same table as JSON.
        let statsAnswer = try get("/v1/batches/\(batch.id.uuidString.lowercased())/stats", key: alphaKey)
        XCTAssertEqual(statsAnswer.status, 200, String(decoding: statsAnswer.data, as: UTF8.self))
        let table = try ReelworkJSON.decoder.decode(JSONValue.self, from: statsAnswer.data)
        XCTAssertEqual(table["total"]?["fieldGoalsMade"], .number(Double(allMade)))
        XCTAssertEqual(table["total"]?["fieldGoalsAttempted"], .number(Double(allAttempts)))
        XCTAssertEqual(table["total"]?["threePointMade"], .number(Double(allThrees)))
        let sessions: [JSONValue] = table["sessions"].flatMap { if case .array(let a) = $0 { a } else { nil } } ?? []
        XCTAssertEqual(sessions.count, 2)
        XCTAssertEqual(sessions.first?["fileName"], .string("session 1.mp4"))
        XCTAssertEqual(try get("/v1/batches/\(batch.id.uuidString.lowercased())/stats", key: betaKey).status, 404)
        // A sport without a stats table says which sports have one (its plug-in's report, not a list here).
        let tennis = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis")) }
        let none = try get("/v1/batches/\(tennis.id.uuidString.lowercased())/stats", key: alphaKey)
        XCTAssertEqual(none.status, 422)
        XCTAssertEqual(HTTP.apiError(none.data)?.code, "no_stats")
        XCTAssertEqual(HTTP.apiError(none.data)?.message, "stats tables are added up for basketball batches; tennis batches have none")

        // Another club gets exactly what a missing id gets.
        for path in ["picture", "report.pdf", "results?format=csv"] {
            let theirs = try get("/v1/jobs/\(id)/\(path)", key: betaKey)
            let missingID = UUID().uuidString.lowercased()
            let missing = try get("/v1/jobs/\(missingID)/\(path)", key: betaKey)
            XCTAssertEqual(theirs.status, 404, path)
            XCTAssertEqual(String(decoding: theirs.data, as: UTF8.self).replacingOccurrences(of: id, with: "ID"),
                           String(decoding: missing.data, as: UTF8.self).replacingOccurrences(of: missingID, with: "ID"), path)
        }
    }

    func testBadSessionsNeedAPersonOrAreRefusedAndNeverScore() throws {
        try stack.startWorker()
        let client = try stack.client()
        // A hoop option outside the uploaded video's frame: refused at creation, no job.
        let noHoopScene = ShootingScene(width: 640, height: 360, fps: 30, events: [.shot(.swish, distanceFt: 15)], seed: 3, showsHoop: false)
        let noHoop = try awaitSync { try await client.uploadVideo(file: try self.render(noHoopScene, "no hoop.mp4")) }
        let outside: JSONValue = .object(["hoop": .object(["rimLeft": .array([.number(600), .number(100)]),
                                                           "rimRight": .array([.number(700), .number(100)])])])
        let body = try ReelworkJSON.encoder.encode(CreateJobRequest(videoId: noHoop.id, sport: "basketball", options: outside))
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)/v1/jobs")!, key: stack.operatorKey, body: body,
                                                 headers: ["Content-Type": "application/json"])
        XCTAssertEqual(status, 400, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(HTTP.apiError(data)?.code, "invalid_options")
        XCTAssertTrue(HTTP.apiError(data)?.message.contains("hoop.rimRight") ?? false, String(decoding: data, as: UTF8.self))
        XCTAssertTrue(HTTP.apiError(data)?.message.contains("640×360") ?? false, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0]["n"], "0", "no job was created")

        // No hoop in view and none given: needs a person, naming the option; never retried.
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: noHoop.id, sport: "basketball")) }
        let failed = try stack.waitForTerminal(job.id)
        XCTAssertEqual(failed.status, .failed, stack.logTail())
        XCTAssertEqual(failed.attempt, 1)
        XCTAssertEqual(failed.lastErrorKind, ErrorKind.needsPerson.rawValue)
        XCTAssertTrue(failed.lastError?.hasPrefix("shots: No hoop found") ?? false, failed.lastError ?? "")
        XCTAssertTrue(failed.lastError?.contains("option hoop") ?? false, failed.lastError ?? "")
        // The rim is looked for in the first frames: the run stops there rather than decode the rest.
        XCTAssertEqual(failed.stages.first { $0.name == "shots" }?.status, .failed)
        XCTAssertEqual(failed.stages.first { $0.name == "probe" }?.status, .succeeded)

        // The person gives what was asked for: `jobs retry ID --options FILE` merges it into the
        // job's options. A hoop outside the frame is refused first and changes nothing.
        let outsideFile = stack.directory.appendingPathComponent("outside-hoop.json")
        try outside.jsonString().write(to: outsideFile, atomically: true, encoding: .utf8)
        let refused = try stack.run(["jobs", "retry", job.id.uuidString.lowercased(), "--options", outsideFile.path])
        XCTAssertNotEqual(refused.status, 0, refused.output)
        XCTAssertTrue(refused.output.contains("hoop.rimRight"), refused.output)
        let unchanged = try awaitSync { try await client.job(job.id) }
        XCTAssertEqual(unchanged.status, .failed)
        XCTAssertEqual(unchanged.options, .emptyObject)
        let hoopFile = stack.directory.appendingPathComponent("hoop.json")
        try JSONValue.object(["hoop": Self.hoop(noHoopScene)]).jsonString().write(to: hoopFile, atomically: true, encoding: .utf8)
        let retried = try stack.run(["jobs", "retry", String(job.id.uuidString.lowercased().prefix(8)), "--options", hoopFile.path])
        XCTAssertEqual(retried.status, 0, retried.output)
        XCTAssertTrue(retried.output.contains("attempt 2 is next"), retried.output)
        let second = try stack.waitForTerminal(job.id)
        XCTAssertEqual(second.attempt, 2)
        XCTAssertEqual(second.options["hoop"], Self.hoop(noHoopScene), "the retry ran with the hoop given")
        XCTAssertEqual(second.status, .succeeded, second.lastError ?? "")
        let document = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(document.result["hoop"]?["source"], .string("option"))

        // A blank video: no hoop either way; with a hoop given, no ball is ever seen. Both need a person.
        let blank = try awaitSync { try await client.uploadVideo(file: try self.stack.makeClip("blank.mp4", "color=c=black:size=640x360:rate=30")) }
        let blankJob = try awaitSync { try await client.createJob(CreateJobRequest(videoId: blank.id, sport: "basketball")) }
        let blankWithHoop = try awaitSync {
            try await client.createJob(CreateJobRequest(videoId: blank.id, sport: "basketball", options: .object(["hoop": Self.hoop(noHoopScene)])))
        }
        for id in [blankJob.id, blankWithHoop.id] {
            let done = try stack.waitForTerminal(id)
            XCTAssertEqual(done.status, .failed, stack.logTail())
            XCTAssertEqual(done.lastErrorKind, ErrorKind.needsPerson.rawValue, done.lastError ?? "")
        }
        XCTAssertTrue(try stack.waitForTerminal(blankJob.id).lastError?.contains("option hoop") ?? false)
        XCTAssertTrue(try stack.waitForTerminal(blankWithHoop.id).lastError?.contains("ballColor") ?? false)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM basketball_shots WHERE job_id <> $1", [job.id]).rows[0]["n"], "0",
                       "no made-up score (the job retried with a hoop is the only one scored)")
    }
}
