import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A clip keeps its own name. Two copies of one clip under other names are one video (its bytes
/// are stored once) but two jobs, and every view of a job calls it by its own name: the API and
/// the CLI, the dashboard's list and search, the batch's PDF report and the webhook.
final class ClipNameTests: WebhookStackTestCase {
    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging(["REELWORK_WEBHOOK_ALLOW_PRIVATE": "1", "REELWORK_WEBHOOK_POLL_SECONDS": "0.1"]) { $1 }
    }

    func testTwoCopiesOfAClipUnderOtherNamesKeepTheirOwnNamesEverywhere() throws {
        try stack.startWorker()
        let clubKey = try stack.createKey(["--club", "c"])
        let client = try stack.client()
        let hook = try awaitSync { try await client.createWebhook(CreateWebhookRequest(url: self.receiver.url("/names"), events: ["job.succeeded"], club: "c")) }
        try receiver.verify(with: [hook.secret])

        // The clip is on the coordinator already under its first name (the setup's upload is
        // another club's; this one is club c's).
        let folder = stack.directory.appendingPathComponent("tuesday")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try stack.makeTinyClip()
        _ = try awaitSync { try await self.stack.client(key: clubKey).uploadVideo(file: clip) }
        for name in ["tue-forehand-anna.mp4", "tue-rally-ben.mp4"] {
            try FileManager.default.copyItem(at: clip, to: folder.appendingPathComponent(name))
        }
        let options = stack.directory.appendingPathComponent("noop.json")
        try #"{"noop": {"seconds": 0.05}}"#.write(to: options, atomically: true, encoding: .utf8)
        let environment = ["REELWORK_API_KEY": clubKey, "XDG_STATE_HOME": stack.directory.appendingPathComponent("state").path]
        let submit = { try self.stack.run(["submit", folder.path, "--recursive", "--sport", "tennis", "--options", options.path, "--label", "Tuesday juniors"],
                                          extraEnvironment: environment) }
        let submitted = try submit()
        XCTAssertEqual(submitted.status, 0, submitted.output)
        let ids = try submitted.stdout.split(separator: "\n").map { try XCTUnwrap(UUID(uuidString: String($0))) }
        XCTAssertEqual(ids.count, 2, "one job per file: \(submitted.output)")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos WHERE club = 'c'").rows[0].int("n"), 1, "the bytes are one video")
        let again = try submit()
        XCTAssertEqual(again.stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) }, ids, "a repeat creates nothing")

        // The API.
        let jobs = try ids.map { id in try stack.waitForTerminal(id) }
        XCTAssertEqual(jobs.map(\.status), [.succeeded, .succeeded])
        XCTAssertEqual(jobs.map(\.fileName), ["tue-forehand-anna.mp4", "tue-rally-ben.mp4"])
        XCTAssertEqual(jobs.map(\.label), ["Tuesday juniors", "Tuesday juniors"])
        XCTAssertEqual(Set(jobs.map(\.videoId)).count, 1)

        // The CLI: list, show and results name each file.
        let list = try stack.run(["jobs", "list", "--club", "c"])
        XCTAssertTrue(list.output.contains("tue-forehand-anna.mp4") && list.output.contains("tue-rally-ben.mp4"), list.output)
        let show = try stack.run(["jobs", "show", String(ids[1].uuidString.lowercased().prefix(8))])
        XCTAssertTrue(show.output.contains("file      tue-rally-ben.mp4    label Tuesday juniors"), show.output)
        let results = try stack.run(["jobs", "results", ids[0].uuidString, "--format", "json"])
        XCTAssertEqual(results.status, 0, results.output)
        let document = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(results.stdout.utf8))
        XCTAssertEqual(document[ids[0].uuidString.lowercased()]?["fileName"], .string("tue-forehand-anna.mp4"), results.stdout)

        // The webhook.
        let delivered = try receiver.awaitRequests("both job.succeeded deliveries") { $0.count >= 2 }
        let names = try delivered.map { try ReelworkJSON.decoder.decode(JSONValue.self, from: Data($0.body.utf8))["data"]?["job"]?["fileName"] }
        XCTAssertEqual(Set(names.compactMap { name -> String? in if case .string(let text)? = name { text } else { nil } }),
                       ["tue-forehand-anna.mp4", "tue-rally-ben.mp4"])

        // The dashboard: a search for a coach's name finds that coach's clip only.
        var session = DashboardSession(baseURL: stack.coordinatorURL)
        _ = try session.signIn(clubKey)
        let search = try session.get("/dashboard/jobs?q=anna")
        XCTAssertEqual(search.status, 200)
        XCTAssertTrue(search.body.contains("tue-forehand-anna.mp4"), search.body)
        XCTAssertFalse(search.body.contains("tue-rally-ben.mp4"), "ben's clip does not match 'anna'")

        // The batch's report: each job's section under its own name.
        let batch = try XCTUnwrap(jobs[0].batchId)
        let swing = #"{"swings": [{"swingNumber": 1, "type": "forehand", "startTime": 0.1, "endTime": 0.9, "keyFrameTimes": {"preparation": 0.1, "backswing": 0.3, "contact": 0.5, "followThrough": 0.7, "recovery": 0.9}, "metrics": {"peakWristSpeed": 8.25, "peakWristSpeedUnit": "torso/s"}}]}"#
        try stack.db().query("UPDATE results SET result = $1::jsonb WHERE job_id = ANY(string_to_array($2, ',')::uuid[])",
                             [swing, ids.map(\.uuidString).joined(separator: ",")])
        let (pdfData, status, _) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)/v1/batches/\(batch.uuidString.lowercased())/report.pdf")!,
                                                    key: clubKey)
        XCTAssertEqual(status, 200, String(decoding: pdfData, as: UTF8.self))
        let pdf = try PictureRouteTests.keep(pdfData, "clip-names-batch-report.pdf")
        let text = try PictureRouteTests.pdfText(pdf).text
        XCTAssertTrue(text.contains("tue-forehand-anna.mp4") && text.contains("tue-rally-ben.mp4"), text)

        // One job at a time: its own name and label, or by default the name the bytes came under.
        let club = try stack.client(key: clubKey)
        let noop: JSONValue = .object(["noop": .object(["seconds": .number(0.05)])])
        let named = try awaitSync {
            try await club.createJob(CreateJobRequest(videoId: jobs[0].videoId, sport: "tennis", options: noop, fileName: "wed-serve-anna.mp4", label: "Wednesday"))
        }
        XCTAssertEqual(named.fileName, "wed-serve-anna.mp4")
        XCTAssertEqual(named.label, "Wednesday")
        let unnamed = try awaitSync { try await club.createJob(CreateJobRequest(videoId: jobs[0].videoId, sport: "tennis", options: noop)) }
        XCTAssertNotEqual(unnamed.id, named.id, "another name, another job")
        XCTAssertEqual(unnamed.fileName, try awaitSync { try await club.video(jobs[0].videoId) }.originalName)
        XCTAssertNil(unnamed.label)
    }

    /// Names a client gives are one line of bounded length, checked before anything is stored.
    func testANameThatIsNotOneShortLineIsRefusedAndCreatesNothing() throws {
        let client = try stack.client()
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis", club: "c")) }
        let url = URL(string: "\(stack.coordinatorURL)/v1/batches/\(batch.id.uuidString.lowercased())/jobs")!
        let vid = video.uuidString.lowercased()
        let cases: [(String, String, String)] = [
            ("a newline", #"{"videoIds": ["\#(vid)"], "fileNames": ["a\nb.mp4"]}"#, "'fileNames[0]' must be one line of 1 to 255 characters"),
            ("too long", #"{"videoIds": ["\#(vid)"], "fileNames": ["\#(String(repeating: "x", count: 256))"]}"#, "'fileNames[0]' must be one line"),
            ("one name short", #"{"videoIds": ["\#(vid)"], "fileNames": []}"#, "'fileNames' has 0 entries and 'videoIds' 1"),
            ("the same name twice", #"{"videoIds": ["\#(vid)", "\#(vid)"], "fileNames": ["a.mp4", "a.mp4"]}"#, "named 'a.mp4' is given twice"),
        ]
        for (label, body, message) in cases {
            let (data, status, _) = try HTTP.request("POST", url, key: stack.operatorKey, body: Data(body.utf8), headers: ["Content-Type": "application/json"])
            XCTAssertEqual(status, 400, label)
            XCTAssertTrue(HTTP.apiError(data)?.message.contains(message) ?? false, "\(label): \(String(decoding: data, as: UTF8.self))")
        }
        let single = try ReelworkJSON.encoder.encode(CreateJobRequest(videoId: video, sport: "tennis", club: "c", fileName: "tab\there.mp4"))
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)/v1/jobs")!, key: stack.operatorKey, body: single,
                                                 headers: ["Content-Type": "application/json"])
        XCTAssertEqual(status, 400, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0].int("n"), 0)
    }
}
