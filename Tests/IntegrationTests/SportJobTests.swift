import BowlingScenes
import Foundation
import ReelworkClient
import ReelworkCore
import Store
import Tennis
import TestSupport
import XCTest

/// Sport jobs through the real stack: options refused at the door, the seed's "needs a person"
/// failures spend no retries, and results come back as JSON and as CSV.
final class SportJobTests: CoordinatorTestCase {
    static let blueBall: JSONValue = .object(["color": .object(["h": .number(220), "s": .number(80), "v": .number(70)])])

    /// POSTs a job and returns (status, error code, message).
    func createJob(video: UUID, sport: String, options: JSONValue) throws -> (Int, String, String) {
        let body = try ReelworkJSON.encoder.encode(CreateJobRequest(videoId: video, sport: sport, options: options))
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)/v1/jobs")!, key: stack.operatorKey, body: body,
                                                 headers: ["Content-Type": "application/json"])
        let error = HTTP.apiError(data)
        return (status, error?.code ?? "", error?.message ?? "")
    }

    func testImpossibleOptionsAreRefusedBeforeAnyJobExists() throws {
        let video = try awaitSync { try await self.stack.client().uploadVideo(file: try self.stack.makeClip("lane.mp4", "color=c=0xc8a070:size=640x360:rate=30")) }.id
        let crossed: JSONValue = .object(["lanePoints": .object([
            "foulLineLeft": .array([.number(500), .number(340)]), "foulLineRight": .array([.number(100), .number(340)]),
            "farLeft": .array([.number(300), .number(40)]), "farRight": .array([.number(340), .number(40)]),
            "farDistanceFt": .number(60)])])
        let cases: [(String, String, JSONValue, Int, String, String)] = [
            ("no ball colour", "bowling", .object(["hand": .string("right")]), 400, "invalid_options", "ballProfile"),
            ("hue out of range", "bowling", .object(["ballProfile": .object(["color": .object(["h": .number(400), "s": .number(50), "v": .number(50)])])]),
             400, "invalid_options", "ballProfile.color.h"),
            ("a third hand", "bowling", .object(["hand": .string("both"), "ballProfile": Self.blueBall]), 400, "invalid_options", "hand"),
            ("lane edges crossed", "bowling", .object(["ballProfile": Self.blueBall, "calibration": crossed]), 422, "needs_person",
             "Calibration measurements don't look right"),
            ("a 7 m player", "tennis", .object(["playerHeight": .number(7)]), 400, "invalid_options", "playerHeight"),
        ]
        for (name, sport, options, status, code, text) in cases {
            let (gotStatus, gotCode, message) = try createJob(video: video, sport: sport, options: options)
            XCTAssertEqual(gotStatus, status, name)
            XCTAssertEqual(gotCode, code, name)
            XCTAssertTrue(message.contains(text), "\(name): '\(message)' should mention '\(text)'")
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0]["n"], "0", "no job was created")
    }

    func testABowlingClipWithoutTheBallFailsOnceAndSaysWhatToDo() throws {
        try stack.startWorker()
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: try self.stack.makeClip("empty-lane.mp4", "color=c=0xc8a070:size=640x360:rate=30,noise=alls=6:allf=t")) }
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "bowling",
                                                                              options: .object(["ballProfile": Self.blueBall]))) }
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .failed, stack.logTail())
        XCTAssertEqual(done.attempt, 1, "needs_person is never retried")
        XCTAssertEqual(done.lastErrorKind, ErrorKind.needsPerson.rawValue)
        XCTAssertEqual(done.lastError, "ball: Ball not detected. Please ensure the ball is visible and consider recalibrating ball color.")
        XCTAssertEqual(done.stages.first { $0.name == "probe" }?.status, .succeeded, "the stage that succeeded before the failure says so")
        XCTAssertEqual(done.stages.first { $0.name == "decode" }?.status, .succeeded, "the decode pass finished; only the ball stage failed")
        XCTAssertEqual(done.stages.first { $0.name == "decode" }?.framesDone, 60, "2 s at 30 fps")
        XCTAssertEqual(done.stages.first { $0.name == "ball" }?.status, .failed)
        XCTAssertEqual(done.stages.first { $0.name == "shot_metrics" }?.status, .skipped)
    }

    func testTennisResultsComeAsJSONAndCSVAndOtherFormatsAreRefused() throws {
        try stack.startWorker()
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: try self.stack.makeClip("court.mp4", "testsrc2=size=320x240:rate=25")) }
        let tennis = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis")) }
        XCTAssertEqual(try stack.waitForTerminal(tennis.id).status, .succeeded, stack.logTail())

        let document = try awaitSync { try await client.results(tennis.id) }
        XCTAssertEqual(document.result["swings"], .array([]), "nobody on court, no swings")
        XCTAssertEqual(document.stages.map(\.name), ["probe", "decode", "objects", "pose", "swings", "metrics"])
        let csv = try awaitSync { try await client.resultsCSV(tennis.id) }
        XCTAssertEqual(csv, ResultTable.tennisSwings.columns.map(\.name).joined(separator: ",") + "\r\n", "the header alone")

        let base = "\(stack.coordinatorURL)/v1/jobs"
        let (xml, xmlStatus, _) = try HTTP.get(URL(string: "\(base)/\(tennis.id.uuidString.lowercased())/results?format=xml")!, key: stack.operatorKey)
        XCTAssertEqual(xmlStatus, 400)
        XCTAssertTrue(HTTP.apiError(xml)?.message.contains("'format' must be json or csv") ?? false)

        let cli = try stack.run(["jobs", "results", tennis.id.uuidString.lowercased(), "--format", "csv"])
        XCTAssertEqual(cli.status, 0, cli.output)
        XCTAssertEqual(cli.stdout, csv)
    }

    func testARenderedBowlingShotComesBackAsJSONAsCSVAndAsATableRow() throws {
        try stack.startWorker()
        let client = try stack.client()
        let scene = BowlingScene(camera: .behindBowler720p, hand: .right, shots: [.hook(.right, speedMph: 18, revRateRPM: 340)])
        let clip = stack.directory.appendingPathComponent("shot.mp4")
        let truth = try XCTUnwrap(try BowlingRenderer.render(scene, to: clip).first)
        let options = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(BowlingClipOptions(scene: scene).jsonString().utf8))
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "bowling", options: options)) }
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded, stack.logTail())

        let document = try awaitSync { try await client.results(job.id) }
        guard case .array(let shots)? = document.result["shots"], let shot = shots.first else { return XCTFail("no shots: \(document.result)") }
        XCTAssertEqual(shots.count, 1)
        let launch = try XCTUnwrap(shot["launchSpeed"]?.number)
        XCTAssertEqual(launch, try XCTUnwrap(truth.launchSpeed), accuracy: 0.5)

        let csv = try awaitSync { try await client.resultsCSV(job.id) }.components(separatedBy: "\r\n")
        XCTAssertEqual(csv.count, 3, "header, one shot, final line end")
        let header = csv[0].components(separatedBy: ","), row = csv[1].components(separatedBy: ",")
        XCTAssertEqual(row[header.firstIndex(of: "shotNumber")!], "1")
        XCTAssertEqual(Double(row[header.firstIndex(of: "launchSpeed")!]), launch, "the CSV shows the table's value, the JSON's")
        XCTAssertEqual(row[header.firstIndex(of: "revCategory")!], shot["revCategory"].flatMap { if case .string(let s) = $0 { return s } else { return nil } })

        let rows = try stack.db().query("SELECT launch_speed, jsonb_array_length(trajectory) AS points FROM bowling_shots WHERE job_id = $1", [job.id]).rows
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first.flatMap { $0["launch_speed"] }.flatMap(Double.init), launch)
        guard case .array(let points)? = shot["trajectory"] else { return XCTFail("no trajectory") }
        XCTAssertEqual(rows.first?["points"], String(points.count), "every trajectory point, compacted")

        // The dashboard shows the sport's own picture (the API's PNG), captioned with the report's totals.
        var dashboard = DashboardSession(baseURL: stack.coordinatorURL)
        _ = try dashboard.signIn(stack.operatorKey)
        let id = job.id.uuidString.lowercased()
        let page = try dashboard.get("/dashboard/jobs/\(id)")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains(#"<img src="/dashboard/jobs/\#(id)/picture.png""#), "the job page has the picture")
        XCTAssertTrue(page.body.contains("<figcaption>1 shot · "), "captioned with the report's totals")
        XCTAssertTrue(page.body.contains("result.csv"), "and links the CSV")
        let artifacts = TestStack.packageRoot.appendingPathComponent(".local/test-artifacts/pictures")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let png = artifacts.appendingPathComponent("bowling-shot.png")
        XCTAssertEqual(try dashboard.download("/dashboard/jobs/\(id)/picture.png", to: png), 200)
        let api = try awaitSync { try await client.picture(job.id) }
        XCTAssertEqual(try Data(contentsOf: png), api, "the same picture as GET /v1/jobs/{id}/picture")
    }
}
