import Foundation
import ReelworkCore
import Store
import Tennis
import TestSupport
import Webhooks
import XCTest

/// Guarantee 9's outbox: every write that ends a job records its webhook deliveries in the same
/// statement — exactly one per subscribed endpoint when the job really ends, none when the write is
/// fenced (a stale attempt), changes nothing (already finished), does not end the job (a retry, a
/// hand-back), or is rolled back.
final class WebhookOutboxTests: MigratedDatabaseTestCase {
    /// `startedRun` makes jobs of club "c".
    private let club = "c"
    private var subscribed: Set<UUID> = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        let hooks = WebhookRepository(db)
        let all = WebhookEventType.allCases
        // Two endpoints take every event; one only failures; one is disabled; one is another club's.
        let a = try hooks.create(club: club, url: "https://a.example.org/", events: all)
        let b = try hooks.create(club: club, url: "https://b.example.org/", events: all)
        subscribed = [a.endpoint.id, b.endpoint.id]
        _ = try hooks.create(club: club, url: "https://failures.example.org/", events: [.jobFailed])
        let off = try hooks.create(club: club, url: "https://off.example.org/", events: all)
        try hooks.disable(id: off.endpoint.id, club: nil, reason: "operator")
        _ = try hooks.create(club: "other", url: "https://other.example.org/", events: all)
    }

    /// The deliveries recorded for `job`: (event, endpoint).
    private func deliveries(_ job: UUID) throws -> [(event: String, endpoint: UUID)] {
        try db.query("SELECT event_type, endpoint_id FROM webhook_deliveries WHERE data->'job'->>'id' = $1 ORDER BY endpoint_id",
                     [job.uuidString.lowercased()]).rows.map { (try $0.string("event_type"), try $0.uuid("endpoint_id")) }
    }

    private func assertOneEach(_ job: UUID, _ event: String, extra: Int = 0, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = try deliveries(job)
        XCTAssertEqual(Set(found.map(\.event)), [event], file: file, line: line)
        XCTAssertEqual(found.count, subscribed.count + extra, "one per subscribed endpoint: \(found)", file: file, line: line)
        XCTAssertTrue(subscribed.isSubset(of: Set(found.map(\.endpoint))), file: file, line: line)
    }

    func testASucceededRunRecordsOneDeliveryPerSubscribedEndpointWithTheJobsSummary() throws {
        let run = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try RunRepository(db).complete(run, document: AnalysisDocument(video: nil, stages: [], warnings: [], result: .emptyObject),
                                                      facts: nil))
        try assertOneEach(run.jobId, "job.succeeded")
        let data = try XCTUnwrap(db.query("SELECT data::text AS d FROM webhook_deliveries LIMIT 1").rows.first?.string("d"))
        let value = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(data.utf8))
        let id = run.jobId.uuidString.lowercased()
        XCTAssertEqual(value["job"]?["id"], .string(run.jobId.uuidString.lowercased()), "as the API writes ids: lower case")
        XCTAssertEqual(value["job"]?["videoId"], .string(run.videoId.uuidString.lowercased()))
        XCTAssertEqual(value["job"]?["status"], .string("succeeded"))
        XCTAssertEqual(value["job"]?["club"], .string("c"))
        XCTAssertEqual(value["job"]?["sport"], .string("tennis"))
        guard case .string(let finished)? = value["job"]?["finishedAt"] else { return XCTFail("no finishedAt: \(data)") }
        XCTAssertTrue(finished.hasSuffix("Z") && finished.contains("T"), finished)
        XCTAssertEqual(value["links"], .object(["job": .string("/v1/jobs/\(id)"), "video": .string("/v1/videos/\(run.videoId.uuidString.lowercased())"),
                                                "results": .string("/v1/jobs/\(id)/results")]))
    }

    func testAStaleRunsFencedEndingsRecordNothingAndTheOwnersOneDoes() throws {
        let runs = RunRepository(db)
        let stale = try db.startedRun(sport: .tennis)
        let owner = try db.startedRun(sport: .tennis, attempt: 2, job: stale.jobId)
        let document = AnalysisDocument(video: nil, stages: [], warnings: [], result: .emptyObject)
        XCTAssertFalse(try runs.complete(stale, document: document, facts: nil))
        XCTAssertFalse(try runs.fail(stale, message: "late", kind: .invalidInput, retryIn: nil))
        XCTAssertFalse(try runs.cancelled(stale))
        XCTAssertEqual(try deliveries(stale.jobId).count, 0, "fenced: the job did not end")

        XCTAssertTrue(try runs.fail(owner, message: "bad video", kind: .invalidInput, retryIn: nil))
        try assertOneEach(owner.jobId, "job.failed", extra: 1)   // the failures-only endpoint too
        // The stale run again, after the job ended: still fenced, nothing more.
        XCTAssertFalse(try runs.complete(stale, document: document, facts: nil))
        XCTAssertFalse(try runs.fail(owner, message: "twice", kind: .invalidInput, retryIn: nil), "an ended run ends once")
        XCTAssertEqual(try deliveries(owner.jobId).count, 3)
    }

    func testWritesThatDoNotEndTheJobRecordNothing() throws {
        let runs = RunRepository(db)
        let run = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try runs.fail(run, message: "blip", kind: .transient, retryIn: 5))
        let second = try db.startedRun(sport: .tennis, attempt: 2, job: run.jobId)
        XCTAssertTrue(try runs.handBack(second))
        XCTAssertEqual(try deliveries(run.jobId).count, 0)
        let third = try db.startedRun(sport: .tennis, attempt: 3, job: run.jobId)
        XCTAssertTrue(try runs.cancelled(third))
        try assertOneEach(run.jobId, "job.cancelled")
    }

    func testARolledBackEndRecordsNothing() throws {
        let run = try db.startedRun(sport: .tennis)
        struct Abort: Error {}
        XCTAssertThrowsError(try db.transaction { tx in
            XCTAssertTrue(try RunRepository(tx).fail(run, message: "bad", kind: .invalidInput, retryIn: nil))
            XCTAssertEqual(try tx.query("SELECT count(*) AS n FROM webhook_deliveries").rows[0].int("n"), 3, "inside, it is there")
            throw Abort()
        })
        XCTAssertEqual(try deliveries(run.jobId).count, 0)
        XCTAssertEqual(try JobRepository(db).find(id: run.jobId)?.status, .running)
    }

    func testCancellingAWaitingJobRecordsItOnceAndARunningOneWaitsForItsWorker() throws {
        let jobs = JobRepository(db)
        let running = try db.startedRun(sport: .tennis)
        XCTAssertEqual(try jobs.cancel(id: running.jobId), .requested)
        XCTAssertEqual(try deliveries(running.jobId).count, 0, "not ended yet: its worker records it")

        let run = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try RunRepository(db).fail(run, message: "blip", kind: .transient, retryIn: 60))
        XCTAssertEqual(try jobs.cancel(id: run.jobId), .cancelled)
        try assertOneEach(run.jobId, "job.cancelled")
        XCTAssertThrowsError(try jobs.cancel(id: run.jobId))
        XCTAssertEqual(try deliveries(run.jobId).count, 2, "a second cancel changes nothing")
    }

    /// A job whose cancel was requested while its run was lost is cancelled by the next claim.
    func testACancelFoundAtTheNextClaimIsRecordedOnce() throws {
        let run = try db.startedRun(sport: .tennis)
        XCTAssertEqual(try JobRepository(db).cancel(id: run.jobId), .requested)
        XCTAssertEqual(try RunRepository(db).start(jobId: run.jobId, attempt: 2, worker: "w2"), .finished(.cancelled))
        XCTAssertEqual(try RunRepository(db).start(jobId: run.jobId, attempt: 3, worker: "w3"), .finished(.cancelled))
        try assertOneEach(run.jobId, "job.cancelled")
    }

    func testAStallThatFailsTheJobIsRecordedOnceAndARequeuedOneNotAtAll() throws {
        let maintenance = MaintenanceRepository(db)
        let requeued = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try maintenance.recordStall(jobId: requeued.jobId, attempt: 1, stalls: 1, verdict: .requeued))
        XCTAssertEqual(try deliveries(requeued.jobId).count, 0)

        let run = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try maintenance.recordStall(jobId: run.jobId, attempt: 1, stalls: 4, verdict: .failed))
        XCTAssertFalse(try maintenance.recordStall(jobId: run.jobId, attempt: 1, stalls: 4, verdict: .failed), "a late repeat")
        try assertOneEach(run.jobId, "job.failed", extra: 1)
    }

    /// A batch's cancel ends its waiting jobs in one statement: each gets its deliveries there, with
    /// a link to its batch; its running job ends later, by its worker.
    func testCancellingABatchRecordsEachWaitingJobOnce() throws {
        let batch = try BatchRepository(db).create(NewBatch(club: club, sport: .tennis, options: .emptyObject, label: nil, dedupeKey: nil)).batch
        let jobs = try (0..<3).map { _ in try db.startedRun(sport: .tennis).jobId }
        try db.query("UPDATE jobs SET batch_id = $1, status = 'queued' WHERE id = ANY(string_to_array($2, ',')::uuid[])",
                     [batch.id, jobs.prefix(2).map(\.pgText).joined(separator: ",")])
        try db.query("UPDATE jobs SET batch_id = $1 WHERE id = $2", [batch.id, jobs[2]])
        let (cancelled, requested) = try BatchRepository(db).cancel(batchId: batch.id)
        XCTAssertEqual(Set(cancelled), Set(jobs.prefix(2)))
        XCTAssertEqual(requested, [jobs[2]])
        for job in jobs.prefix(2) {
            try assertOneEach(job, "job.cancelled")
            let link = try db.query("SELECT data->'links'->>'batch' AS b FROM webhook_deliveries WHERE lower(data->'job'->>'id') = $1 LIMIT 1", [job]).rows.first?["b"]
            XCTAssertEqual(link, "/v1/batches/\(batch.id.pgText)")
        }
        XCTAssertEqual(try deliveries(jobs[2]).count, 0, "still running: its worker records its end")
        XCTAssertEqual(try BatchRepository(db).cancel(batchId: batch.id).cancelled, [])
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM webhook_deliveries").rows[0].int("n"), 4, "a second cancel adds nothing")
    }
}
