import Foundation
import ReelworkClient
import ReelworkCore
import Store
import XCTest

/// The ids the CLI prints are ids it accepts (issue 32): the start of an id names the one job or
/// batch whose id starts so, within the caller's club; an ambiguous or unknown start says so.
final class ShortIDTests: QueueStackTestCase {
    /// A succeeded job of `club` with the given id, written directly (two ids sharing a start
    /// are too rare to wait for).
    func insertJob(_ id: String, club: String) throws {
        try stack.db().query("""
            INSERT INTO jobs (id, video_id, club, sport, status) SELECT $1::uuid, $2, $3, 'tennis', 'succeeded'
            """, [id, video, club])
    }

    func testTheStartOfAnIdNamesItsJobOrBatchOrSaysWhyNot() throws {
        try insertJob("abcd1234-0000-4000-8000-000000000001", club: "c")
        try insertJob("abcd1234-0000-4000-8000-000000000002", club: "c")
        try insertJob("abcd9999-0000-4000-8000-000000000003", club: "c")
        try insertJob("beef0000-0000-4000-8000-000000000004", club: "other")

        let shown = try stack.run(["jobs", "show", "abcd9999", "--format", "json"])
        XCTAssertEqual(shown.status, 0, shown.output)
        XCTAssertTrue(shown.stdout.contains("abcd9999-0000-4000-8000-000000000003"), shown.stdout)

        let ambiguous = try stack.run(["jobs", "show", "ABCD1234"])
        XCTAssertNotEqual(ambiguous.status, 0)
        XCTAssertTrue(ambiguous.output.contains("'abcd1234' is ambiguous: 2 jobs start with it"), ambiguous.output)
        XCTAssertTrue(ambiguous.output.contains("abcd1234-0000-4000-8000-000000000001"), ambiguous.output)
        XCTAssertFalse(ambiguous.output.contains("Usage:"), "an error after parsing ends without the usage text: \(ambiguous.output)")

        let unknown = try stack.run(["jobs", "show", "0123abcd"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.output.contains("no job id starts with '0123abcd'"), unknown.output)
        XCTAssertTrue(try stack.run(["jobs", "show", "xyz"]).output.contains("is not a job id"))

        // A club key's starts find its own club's jobs only.
        let key = try stack.createKey(["--club", "c"])
        let foreign = try stack.run(["jobs", "show", "beef0000"], extraEnvironment: ["REELWORK_API_KEY": key])
        XCTAssertTrue(foreign.output.contains("no job id starts with 'beef0000'"), foreign.output)
        XCTAssertEqual(try stack.run(["jobs", "show", "beef0000"]).status, 0, "an operator sees every club")

        let batch = try awaitSync { try await self.stack.client().createBatch(CreateBatchRequest(sport: "tennis")) }
        let batchStart = String(batch.id.uuidString.lowercased().prefix(8))
        let batchShown = try stack.run(["batches", "show", batchStart, "--format", "json"])
        XCTAssertEqual(batchShown.status, 0, batchShown.output)
        XCTAssertTrue(batchShown.stdout.contains(batch.id.uuidString.lowercased()), batchShown.stdout)

        // The batch's jobs: `jobs list --batch` and `batches show --format json` name them.
        let added = try awaitSync { try await self.stack.client().addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: [self.video])) }
        let jobInBatch = try XCTUnwrap(added.jobIds.first?.uuidString.lowercased())
        let listed = try stack.run(["jobs", "list", "--batch", batchStart, "--format", "json"])
        XCTAssertEqual(listed.status, 0, listed.output)
        let page = try ReelworkJSON.decoder.decode(JobPage.self, from: Data(listed.stdout.utf8))
        XCTAssertEqual(page.jobs.map { $0.id.uuidString.lowercased() }, [jobInBatch], "only the batch's job")
        let withJobs = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try stack.run(["batches", "show", batchStart, "--format", "json"]).stdout.utf8))
        guard case .array(let jobs)? = withJobs["jobs"] else { return XCTFail("batches show --format json has no jobs: \(withJobs)") }
        XCTAssertEqual(jobs.map { $0["id"] }, [.string(jobInBatch)])
        XCTAssertEqual(withJobs["id"], .string(batch.id.uuidString.lowercased()), "the batch's own fields stay")

        let (data, status, _) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)/v1/jobs?idPrefix=abc")!, key: stack.operatorKey, body: nil)
        XCTAssertEqual(status, 400)
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("4 to 32 hex digits"))
    }
}
