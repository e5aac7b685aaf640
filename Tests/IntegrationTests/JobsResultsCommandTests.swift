import Foundation
import ReelworkClient
import ReelworkCore
import XCTest

/// `reelwork jobs results` never hides a job without results (issue 32): a failed job is listed
/// with its error in the table and in JSON, and the exit status says something has no results.
final class JobsResultsCommandTests: QueueStackTestCase {
    func testAFailedJobIsListedWithItsErrorAndTheExitStatusSaysSo() throws {
        try stack.startWorker()
        let good = try stack.submitNoop(video: video, seconds: 0, tag: 1)
        let bad = try stack.submitNoop(video: video, seconds: 0, tag: 2, extra: ["invalidAttempts": .number(1)], maxAttempts: 1)
        XCTAssertEqual(try stack.waitForTerminal(good.id).status, .succeeded)
        let failed = try stack.waitForTerminal(bad.id)
        XCTAssertEqual(failed.status, .failed)
        let error = try XCTUnwrap(failed.lastError)
        let (goodID, badID) = (good.id.uuidString.lowercased(), bad.id.uuidString.lowercased())

        let json = try stack.run(["jobs", "results", goodID, badID, "--format", "json"])
        XCTAssertEqual(json.status, 1, "a job without results makes the exit status 1: \(json.output)")
        let documents = try ReelworkJSON.decoder.decode([String: JSONValue].self, from: Data(json.stdout.utf8))
        XCTAssertEqual(Set(documents.keys), [goodID, badID], "neither job left out")
        XCTAssertEqual(documents[badID]?["status"], .string("failed"))
        XCTAssertEqual(documents[badID]?["error"], .string(error))
        XCTAssertNotNil(documents[goodID]?["result"], "the succeeded job's document as before")
        XCTAssertTrue(json.output.contains("1 of 2 jobs have no results: 1 failed"), json.output)

        let table = try stack.run(["jobs", "results", goodID, badID])
        XCTAssertEqual(table.status, 1)
        XCTAssertTrue(table.stdout.contains("failed") && table.stdout.contains(String(error.prefix(30))), table.stdout)

        let alone = try stack.run(["jobs", "results", goodID, "--format", "json"])
        XCTAssertEqual(alone.status, 0, "every job has results: \(alone.output)")
    }
}
