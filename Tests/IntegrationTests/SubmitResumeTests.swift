import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// `reelwork submit` run again says what it resumes, and an interrupted one leaves no empty batch.
final class SubmitResumeTests: XCTestCase {
    var stack: TestStack!
    var folder: URL!

    /// Uploads above 60 kB are refused: the small clips go, the big ones fail (as a lost network would).
    override func setUpWithError() throws {
        stack = try TestStack(settings: ["REELWORK_MAX_UPLOAD_BYTES": "60000"])
        try stack.startCoordinator()
        folder = stack.directory.appendingPathComponent("season")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        stack?.shutdown()
    }

    func clip(_ name: String, big: Bool, hue: Int) throws {
        let source = big ? "testsrc2=size=320x240:rate=25,noise=alls=80:allf=t" : "testsrc2=size=96x64:rate=10"
        try Tool.ffmpeg(["-f", "lavfi", "-i", source, "-t", big ? "2" : "0.5", "-vf", "hue=h=\(hue)",
                         "-c:v", "libx264", "-pix_fmt", "yuv420p", folder.appendingPathComponent(name).path])
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? NSNumber)
        XCTAssertEqual(size.intValue > 60000, big, "\(name) is \(size) bytes")
    }

    func submit() throws -> (status: Int32, output: String, stdout: String) {
        try stack.run(["submit", folder.path, "--recursive", "--sport", "tennis", "--label", "season"],
                      extraEnvironment: ["XDG_STATE_HOME": stack.directory.appendingPathComponent("state").path])
    }

    func batches() throws -> Int {
        try stack.db().query("SELECT count(*) AS n FROM batches").rows[0].int("n")
    }

    func testNothingSentMakesNoBatch() throws {
        try clip("a.mp4", big: true, hue: 0)
        try clip("b.mp4", big: true, hue: 40)
        let run = try submit()
        XCTAssertNotEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("2 upload(s) failed"), run.output)
        XCTAssertEqual(try batches(), 0, "no empty batch left behind:\n\(run.output)")
    }

    func testRunAgainItSaysWhichBatchItResumesAndHowManyFilesWereSent() throws {
        for (i, big) in [false, true, false, true, false].enumerated() { try clip("clip-\(i).mp4", big: big, hue: i * 20) }
        let first = try submit()
        XCTAssertNotEqual(first.status, 0, "two uploads failed: \(first.output)")
        XCTAssertFalse(first.output.contains("resuming"), first.output)
        XCTAssertEqual(first.stdout.split(separator: "\n").count, 3, "a job for each file sent: \(first.output)")
        let batch = try XCTUnwrap(try stack.db().query("SELECT id FROM batches").rows.first).uuid("id")

        let again = try submit()
        let short = String(batch.uuidString.lowercased().prefix(8))
        XCTAssertTrue(again.output.contains("resuming batch \(short) (3 of 5 files sent)"), again.output)
        XCTAssertEqual(try batches(), 1, "the same batch")
    }
}
