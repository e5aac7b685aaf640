import BowlingScenes
import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A season folder as a club keeps it: clips with their options in sidecars beside them, or a
/// manifest mixing sports, sent by one `submit`; and the season's results back as one CSV (CLI,
/// API and dashboard), a row per shot with its job and file name.
final class SeasonExportTests: CoordinatorTestCase {
    var environment: [String: String] = [:]
    var clubKey = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        clubKey = try stack.createKey(["--club", "north"])
        environment = ["REELWORK_API_KEY": clubKey, "XDG_STATE_HOME": stack.directory.appendingPathComponent("state").path]
    }

    func testSidecarOptionsAndOneCSVOfTheSeasonWithEachJobsFileName() throws {
        try stack.startWorker()
        let folder = stack.directory.appendingPathComponent("season")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let scene = BowlingScene(camera: .behindBowler720p, hand: .right, shots: [.hook(.right, speedMph: 18, revRateRPM: 340)])
        let clip = folder.appendingPathComponent("lane7-anna.mp4")
        _ = try BowlingRenderer.render(scene, to: clip)
        try FileManager.default.copyItem(at: clip, to: folder.appendingPathComponent("lane7-ben.mp4"))
        // Each clip's options beside it, in both sidecar spellings; --options is not given.
        let options = BowlingClipOptions(scene: scene).jsonString()
        try options.write(to: folder.appendingPathComponent("lane7-anna.options.json"), atomically: true, encoding: .utf8)
        try options.write(to: folder.appendingPathComponent("lane7-ben.mp4.options.json"), atomically: true, encoding: .utf8)

        let submitted = try stack.run(["submit", folder.path, "--recursive", "--sport", "bowling"], extraEnvironment: environment)
        XCTAssertEqual(submitted.status, 0, submitted.output)
        XCTAssertFalse(submitted.output.contains("options.json: "), "sidecars are not reported as skipped videos: \(submitted.output)")
        let ids = submitted.stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) }
        XCTAssertEqual(ids.count, 2, submitted.output)
        for id in ids { XCTAssertEqual(try stack.waitForTerminal(id).status, .succeeded, stack.logTail()) }
        let batch = try XCTUnwrap(try stack.waitForTerminal(ids[0]).batchId)

        // The CLI: the batch, and the sport's season, as CSV.
        let byBatch = try stack.run(["jobs", "results", "--batch", String(batch.uuidString.lowercased().prefix(8)), "--format", "csv"],
                                    extraEnvironment: environment)
        XCTAssertEqual(byBatch.status, 0, byBatch.output)
        let lines = byBatch.stdout.split(separator: "\r\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("jobId,fileName,shotNumber") ?? false, byBatch.stdout)
        XCTAssertEqual(lines.count, 3, "the header and one shot per clip: \(byBatch.stdout)")
        XCTAssertTrue(lines[1].hasPrefix("\(ids[0].uuidString.lowercased()),lane7-anna.mp4,1,"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("\(ids[1].uuidString.lowercased()),lane7-ben.mp4,1,"), lines[2])
        let single = try stack.run(["jobs", "results", ids[0].uuidString, "--format", "csv"], extraEnvironment: environment)
        let singleRow = try XCTUnwrap(single.stdout.split(separator: "\r\n").dropFirst().first)
        XCTAssertTrue(lines[1].hasSuffix("," + singleRow), "the export's cells are the job's own CSV's:\n\(lines[1])\n\(singleRow)")
        let bySport = try stack.run(["jobs", "results", "--sport", "bowling", "--since", "1h", "--format", "csv"], extraEnvironment: environment)
        XCTAssertEqual(bySport.stdout, byBatch.stdout)
        let wrong = try stack.run(["jobs", "results", "--batch", batch.uuidString], extraEnvironment: environment)
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.output.contains("add --format csv"), wrong.output)

        // The API: another club sees none of it; a filter without a sport says what it needs.
        let otherKey = try stack.createKey(["--club", "south"])
        let (others, othersStatus, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/results.csv?sport=bowling")!, key: otherKey)
        XCTAssertEqual(othersStatus, 200)
        XCTAssertEqual(String(decoding: others, as: UTF8.self).split(separator: "\r\n").count, 1, "only the header")
        let (theirBatch, theirStatus, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/results.csv?batch=\(batch.uuidString)")!, key: otherKey)
        XCTAssertEqual(theirStatus, 404, String(decoding: theirBatch, as: UTF8.self))
        let (noSport, noSportStatus, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/results.csv?club=north")!, key: stack.operatorKey)
        XCTAssertEqual(noSportStatus, 400)
        XCTAssertTrue(HTTP.apiError(noSport)?.message.contains("name a 'batch' or a 'sport'") ?? false)

        // The dashboard: a filtered jobs page links its export, which is the same CSV.
        var session = DashboardSession(baseURL: stack.coordinatorURL)
        _ = try session.signIn(clubKey)
        let page = try session.get("/dashboard/jobs?sport=bowling")
        XCTAssertTrue(page.body.contains("id=\"export-csv\""), page.body)
        XCTAssertFalse(try session.get("/dashboard/jobs").body.contains("id=\"export-csv\""), "no sport, no export")
        let download = try session.get("/dashboard/results.csv?batch=\(batch.uuidString.lowercased())")
        XCTAssertEqual(download.status, 200)
        XCTAssertEqual(download.body, byBatch.stdout)
    }

    /// A manifest gives each file its sport and options: one batch per sport and options.
    func testAManifestMixesSportsIntoOneBatchEach() throws {
        try stack.startWorker()
        let folder = stack.directory.appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("wed"), withIntermediateDirectories: true)
        for (i, name) in ["serve.mp4", "wed/jumper.mp4", "wed/lay-up.mp4"].enumerated() {
            try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.5", "-vf", "hue=h=\(i * 20)",
                             "-c:v", "libx264", "-pix_fmt", "yuv420p", folder.appendingPathComponent(name).path])
        }
        let noop = #"{"noop": {"seconds": 0.05}}"#
        let manifest = folder.appendingPathComponent("season.json")
        try """
            [{"file": "serve.mp4", "sport": "tennis", "options": \(noop)},
             {"file": "wed/jumper.mp4", "sport": "basketball", "options": \(noop)},
             {"file": "wed/lay-up.mp4", "sport": "basketball", "options": \(noop)}]
            """.write(to: manifest, atomically: true, encoding: .utf8)
        let submitted = try stack.run(["submit", "--manifest", manifest.path], extraEnvironment: environment)
        XCTAssertEqual(submitted.status, 0, submitted.output)
        let jobs = try submitted.stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) }.map { try stack.waitForTerminal($0) }
        XCTAssertEqual(jobs.map(\.sport).sorted(), ["basketball", "basketball", "tennis"])
        XCTAssertEqual(Set(jobs.compactMap(\.batchId)).count, 2, "one batch per sport")
        XCTAssertEqual(Set(jobs.filter { $0.sport == "basketball" }.compactMap(\.batchId)).count, 1)
        XCTAssertEqual(Set(jobs.map { $0.fileName ?? "" }), ["serve.mp4", "jumper.mp4", "lay-up.mp4"])

        // A file with no sport from anywhere: refused, naming it, before anything is sent.
        try FileManager.default.copyItem(at: folder.appendingPathComponent("serve.mp4"), to: folder.appendingPathComponent("extra.mp4"))
        let before = try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0].int("n")
        let refused = try stack.run(["submit", "--manifest", manifest.path, folder.appendingPathComponent("extra.mp4").path], extraEnvironment: environment)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.output.contains("extra.mp4 has no sport: give --sport, or name it in the manifest"), refused.output)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM jobs").rows[0].int("n"), before)
        let badManifest = folder.appendingPathComponent("bad.json")
        try #"[{"file": "serve.mp4", "sport": "curling"}]"#.write(to: badManifest, atomically: true, encoding: .utf8)
        let bad = try stack.run(["submit", "--manifest", badManifest.path], extraEnvironment: environment)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.output.contains("entry 1 (serve.mp4): unknown sport 'curling'"), bad.output)
    }
}
