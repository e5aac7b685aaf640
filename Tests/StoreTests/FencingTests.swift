import Foundation
import ReelworkCore
import Store
import Tennis
import TestSupport
import XCTest

/// The attempt number fences every write of a run: once another run owns the job, nothing the
/// old one writes changes a stage row, the result, a typed row, the job or its history. Asserted
/// on the rows themselves (a snapshot before and after), not on a count a key already forces.
final class FencingTests: MigratedDatabaseTestCase {
    private func swings(_ contacts: [Double]) -> AnalysisDocument {
        AnalysisDocument(video: nil, stages: [], warnings: [], result: .object(["swings": .array(contacts.enumerated().map { index, contact in
            .object(["swingNumber": .number(Double(index + 1)), "trackId": .number(1), "type": .string("forehand"),
                     "keyFrameTimes": .object(["contact": .number(contact)])])
        })]))
    }

    /// Every row the job owns, as text, in a fixed order.
    private func snapshot(_ job: UUID) throws -> [String] {
        let tables = [("jobs", "id", "id"), ("job_attempts", "job_id", "attempt"), ("job_stages", "job_id", "attempt, position"),
                      ("results", "job_id", "job_id"), ("tennis_swings", "job_id", "attempt, swing_number")]
        return try tables.flatMap { table, key, order in
            try db.query("SELECT row_to_json(t)::text AS row FROM \(table) t WHERE \(key) = $1 ORDER BY \(order)", [job]).rows
                .map { "\(table): \($0["row"] ?? "")" }
        }
    }

    private let plan: [StageName] = [.probe, .decode, .swings, .metrics]

    /// Attempt 1 started its plan; its lease expired, and attempt 2 took the job and started its own.
    private func staleAndOwner() throws -> (stale: ClaimedRun, owner: ClaimedRun) {
        let stages = StageRepository(db)
        let stale = try db.startedRun(sport: .tennis)
        try stages.plan(jobId: stale.jobId, attempt: 1, stages: plan, running: .started(.probe, framesPlanned: nil))
        let owner = try db.startedRun(sport: .tennis, attempt: 2, job: stale.jobId)
        try stages.plan(jobId: owner.jobId, attempt: 2, stages: plan, running: .started(.probe, framesPlanned: nil))
        return (stale, owner)
    }

    func testAStaleRunsLateWritesChangeNothing() throws {
        let stages = StageRepository(db), runs = RunRepository(db)
        let (stale, owner) = try staleAndOwner()

        // Attempt 2 finishes the job, with two swings.
        try stages.record(jobId: owner.jobId, attempt: 2, plan.dropLast().map { .finished($0, status: .succeeded, framesDone: 10) })
        XCTAssertTrue(try runs.complete(owner, document: swings([1.5, 3.0]), facts: nil,
                                        stages: [.finished(.metrics, status: .succeeded, framesDone: nil)]))
        let before = try snapshot(stale.jobId)
        XCTAssertEqual(before.filter { $0.hasPrefix("tennis_swings") }.count, 2)
        XCTAssertEqual(before.filter { $0.hasPrefix("job_stages") }.count, 8)

        // The stale run wakes up and writes everything a run writes, in every order it could.
        try stages.plan(jobId: stale.jobId, attempt: 1, stages: plan, running: .started(.decode, framesPlanned: 90))
        try stages.progress(jobId: stale.jobId, attempt: 1, stage: .decode, framesDone: 45, framesPlanned: 90)
        try stages.record(jobId: stale.jobId, attempt: 1, [.finished(.probe, status: .succeeded, framesDone: nil),
                                                          .started(.decode, framesPlanned: 90)])
        try stages.skipRemaining(jobId: stale.jobId, attempt: 1, reason: "late")
        try runs.heartbeat(stale)
        XCTAssertFalse(try runs.complete(stale, document: swings([9, 9, 9]), facts: nil,
                                         stages: [.finished(.metrics, status: .succeeded, framesDone: nil)]))
        XCTAssertFalse(try runs.fail(stale, message: "late failure", kind: .internal, retryIn: 0))
        XCTAssertFalse(try runs.handBack(stale))
        XCTAssertFalse(try runs.cancelled(stale))
        try runs.lost(stale)

        XCTAssertEqual(try snapshot(stale.jobId), before)
    }

    /// The window that matters most: the new run is still running when the old one finishes.
    func testAStaleRunCannotEndAJobWhileItsNewOwnerRunsIt() throws {
        let stages = StageRepository(db), runs = RunRepository(db)
        let (stale, owner) = try staleAndOwner()
        let before = try snapshot(stale.jobId)

        for end in [{ try runs.complete(stale, document: self.swings([9]), facts: nil) },
                    { try runs.fail(stale, message: "late", kind: .transient, retryIn: 0) },
                    { try runs.fail(stale, message: "late", kind: .invalidInput, retryIn: nil) },
                    { try runs.handBack(stale) }, { try runs.cancelled(stale) }] {
            XCTAssertFalse(try end(), "a stale run must not end the job")
        }
        try stages.progress(jobId: stale.jobId, attempt: 1, stage: .probe, framesDone: 1, framesPlanned: 2)
        try stages.record(jobId: stale.jobId, attempt: 1, [.finished(.probe, status: .failed, framesDone: nil, error: "late")])
        try stages.skipRemaining(jobId: stale.jobId, attempt: 1, reason: "late")
        try runs.heartbeat(stale)
        XCTAssertEqual(try snapshot(stale.jobId), before)

        XCTAssertTrue(try runs.complete(owner, document: swings([1]), facts: nil), "the owner still can")
    }

    func testAResultLargerThanTheLimitOrThatJSONCannotHoldIsRefusedAndNothingIsWritten() throws {
        let run = try db.startedRun(sport: .tennis)
        let before = try snapshot(run.jobId)
        XCTAssertThrowsError(try RunRepository(db).complete(run, document: swings([1, 2]), facts: nil, maxResultBytes: 10)) { error in
            XCTAssertEqual((error as? ReelworkError)?.kind, .invalidInput)
            XCTAssertTrue("\(error)".contains("more than the limit of 10 (REELWORK_MAX_RESULT_BYTES)"), "\(error)")
        }
        let nan = AnalysisDocument(video: nil, stages: [], warnings: [], result: .object(["x": .number(.nan)]))
        XCTAssertThrowsError(try RunRepository(db).complete(run, document: nan, facts: nil), "never stored as null")
        XCTAssertEqual(try snapshot(run.jobId), before)
    }

    func testARetryKeepsWhenItWasDueAndADecodedCountReplacesTheVideosEstimate() throws {
        let run = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try RunRepository(db).fail(run, message: "m", kind: .transient, retryIn: 42))
        // Due 42 s after PostgreSQL's now(), on the attempt's record and the job's alike: the
        // worker's clock stamps neither.
        let due = try XCTUnwrap(db.query("""
            SELECT EXTRACT(EPOCH FROM a.retry_at - a.finished_at)::float8 AS after_end,
                   EXTRACT(EPOCH FROM j.next_attempt_at - a.retry_at)::float8 AS apart
            FROM job_attempts a JOIN jobs j ON j.id = a.job_id WHERE a.job_id = $1
            """, [run.jobId]).rows.first)
        XCTAssertEqual(try due.double("after_end"), 42, accuracy: 0.001)
        XCTAssertEqual(try due.double("apart"), 0, accuracy: 0.001)

        let second = try db.startedRun(sport: .tennis, attempt: 2, job: run.jobId)
        let counted = VideoFacts(durationSeconds: 3, frameCount: 88, frameCountSource: .decoded, fps: 30, width: 1280, height: 720,
                                 codec: "h264", rotation: 0, container: "mpegts")
        XCTAssertTrue(try RunRepository(db).complete(second, document: swings([]), facts: counted))
        let video = try XCTUnwrap(VideoRepository(db).find(id: second.videoId, club: nil)).video
        XCTAssertEqual(video.facts.frameCount, 88)
        XCTAssertEqual(video.facts.frameCountSource, .decoded)
    }
}
