import Foundation
import ReelworkClient
import ReelworkCore
import XCTest

/// Status names are the same in every view (issue 32): `batches list` counts jobs "waiting", and
/// `jobs list --status waiting` finds them; `--status` help and errors list every name.
final class JobsListCommandTests: QueueStackTestCase {
    func testWaitingIsAStatusFilterAsTheViewsCallIt() throws {
        // No worker: the job stays queued.
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 1)
        let id = job.id.uuidString.lowercased()
        let waiting = try stack.run(["jobs", "list", "--status", "waiting", "--format", "json"])
        XCTAssertEqual(waiting.status, 0, waiting.output)
        XCTAssertEqual(try ReelworkJSON.decoder.decode(JobPage.self, from: Data(waiting.stdout.utf8)).jobs.map { $0.id.uuidString.lowercased() }, [id])
        let running = try stack.run(["jobs", "list", "--status", "running", "--format", "json"])
        XCTAssertEqual(try ReelworkJSON.decoder.decode(JobPage.self, from: Data(running.stdout.utf8)).jobs.count, 0)

        let unknown = try stack.run(["jobs", "list", "--status", "bogus"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.output.contains("retry_scheduled, waiting"), "the error lists every name: \(unknown.output)")
        XCTAssertTrue(try stack.run(["jobs", "list", "--help"]).output.contains("waiting"), "the help lists the names")
    }

    /// An error found after the arguments were read says what is wrong, without the usage text.
    func testAnErrorAfterParsingEndsWithoutTheUsageText() throws {
        let keyless = try stack.run(["jobs", "list"], extraEnvironment: ["REELWORK_API_KEY": ""])
        XCTAssertNotEqual(keyless.status, 0)
        XCTAssertTrue(keyless.output.contains("no API key"), keyless.output)
        XCTAssertFalse(keyless.output.contains("Usage:"), keyless.output)
        let badFile = try stack.run(["submit", "/nonexistent/clip.mp4", "--sport", "tennis", "--options", "/nonexistent/options.json"])
        XCTAssertNotEqual(badFile.status, 0)
        XCTAssertFalse(badFile.output.contains("Usage:"), badFile.output)
    }
}
