import Foundation
import ReelworkCore
import Store
import TestSupport
import XCTest

/// `reelwork submit` killed in the middle of a file: run again, it resumes that file's upload from
/// the parts the store holds (the upload's id was in its journal before the first part left).
final class SubmitUploadResumeTests: XCTestCase {
    var stack: TestStack!

    override func setUpWithError() throws {
        stack = try TestStack()
        try stack.startCoordinator()
    }

    override func tearDown() {
        if let coordinator = stack?.coordinator, coordinator.isRunning { kill(coordinator.processIdentifier, SIGCONT) }
        stack?.shutdown()
    }

    func testAClientKilledMidFileResumesFromTheLastPartHeld() throws {
        let folder = stack.directory.appendingPathComponent("match")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent("rally.mp4")
        // Three parts: lossless noise is large and still a video.
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30,noise=alls=100:allf=t+u", "-t", "6",
                         "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", clip.path])
        let state = ["XDG_STATE_HOME": stack.directory.appendingPathComponent("state").path]
        let arguments = ["submit", folder.path, "--recursive", "--sport", "tennis", "--parallel", "1"]

        let first = try stack.spawn(arguments, name: "submit-1", extraEnvironment: state)
        // Once part 1 is held, the coordinator freezes (the client's next part hangs) and the client dies.
        let uploads = stack.storageDir.appendingPathComponent("uploads")
        let partOneHeld = stack.waitUntil(timeout: 60) {
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []
            return folders.contains { FileManager.default.fileExists(atPath: uploads.appendingPathComponent("\($0)/1").path) }
        }
        XCTAssertTrue(partOneHeld, "part 1 never arrived")
        let coordinator = try XCTUnwrap(stack.coordinator)
        kill(coordinator.processIdentifier, SIGSTOP)
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        kill(coordinator.processIdentifier, SIGCONT)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos").rows[0].int("n"), 0, "the file was not finished before the kill")

        let again = try stack.run(arguments, extraEnvironment: state)
        XCTAssertEqual(again.status, 0, again.output)
        let resumed = try XCTUnwrap(again.output.firstMatch(of: /rally\.mp4: resuming its upload \((\d) of 3 parts sent before\)/), again.output)
        XCTAssertGreaterThanOrEqual(Int(resumed.1) ?? 0, 1)
        XCTAssertLessThan(Int(resumed.1) ?? 3, 3)
        let db = try stack.db()
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM uploads").rows[0].int("n"), 1, "the same upload, resumed, not a new one")
        XCTAssertEqual(try db.query("SELECT status FROM uploads").rows[0].string("status"), UploadStatus.completed.rawValue)
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM jobs").rows[0].int("n"), 1, again.output)
    }
}
