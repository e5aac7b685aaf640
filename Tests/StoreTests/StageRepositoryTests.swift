import Archery
import Foundation
import ReelworkCore
import Store
import Tennis
import TestSupport
import XCTest

/// Stage rows: the plan goes in with its first stage running, several events are one statement,
/// the run's result carries its last stages' finishes, and a run that lost the job writes nothing.
final class StageRepositoryTests: MigratedDatabaseTestCase {
    private func rows(_ run: ClaimedRun) throws -> [PGRow] {
        try db.query("""
            SELECT name, position, status, progress, frames_planned, frames_done, error, error_kind,
                   started_at IS NOT NULL AS started, finished_at IS NOT NULL AS finished
            FROM job_stages WHERE job_id = $1 AND attempt = $2 ORDER BY position
            """, [run.jobId, run.attempt]).rows
    }

    private let plan: [StageName] = [.probe, .decode, .objects, .swings]

    func testThePlanGoesInWithItsFirstStageRunning() throws {
        let run = try db.startedRun(sport: .tennis)
        try StageRepository(db).plan(jobId: run.jobId, attempt: run.attempt, stages: plan, running: .started(.probe, framesPlanned: 12))
        let stages = try rows(run)
        XCTAssertEqual(stages.map { $0["name"] }, ["probe", "decode", "objects", "swings"])
        XCTAssertEqual(stages.map { $0["position"] }, ["0", "1", "2", "3"])
        XCTAssertEqual(stages.map { $0["status"] }, ["running", "pending", "pending", "pending"])
        XCTAssertEqual(stages[0]["frames_planned"], "12")
        XCTAssertEqual(try stages[0].bool("started"), true)
        XCTAssertEqual(try stages[1].bool("started"), false)

        // Without a running stage every row is pending.
        let other = try db.startedRun(sport: .tennis)
        try StageRepository(db).plan(jobId: other.jobId, attempt: other.attempt, stages: plan)
        XCTAssertEqual(try rows(other).map { $0["status"] }, ["pending", "pending", "pending", "pending"])
    }

    func testOneStatementFinishesAStageAndStartsTheNext() throws {
        let run = try db.startedRun(sport: .tennis)
        let stages = StageRepository(db)
        try stages.plan(jobId: run.jobId, attempt: run.attempt, stages: plan, running: .started(.probe, framesPlanned: nil))
        try stages.record(jobId: run.jobId, attempt: run.attempt, [
            .finished(.probe, status: .succeeded, framesDone: 3),
            .started(.decode, framesPlanned: 90),
        ])
        var written = try rows(run)
        XCTAssertEqual(written.map { $0["status"] }, ["succeeded", "running", "pending", "pending"])
        XCTAssertEqual(try written[0].double("progress"), 1)
        XCTAssertEqual(written[0]["frames_done"], "3")
        XCTAssertEqual(try written[0].bool("finished"), true)
        XCTAssertEqual(written[1]["frames_planned"], "90")
        XCTAssertEqual(try written[1].double("progress"), 0)
        XCTAssertEqual(try written[1].bool("finished"), false)

        try stages.progress(jobId: run.jobId, attempt: run.attempt, stage: .decode, framesDone: 45, framesPlanned: 90)
        try stages.record(jobId: run.jobId, attempt: run.attempt, [
            .finished(.decode, status: .failed, framesDone: nil, error: "decode: corrupt \"packet\", at 1.5 s", errorKind: .invalidInput),
        ])
        try stages.skipRemaining(jobId: run.jobId, attempt: run.attempt, reason: "not run: decode failed")
        written = try rows(run)
        XCTAssertEqual(written.map { $0["status"] }, ["succeeded", "failed", "skipped", "skipped"])
        XCTAssertEqual(written[1]["frames_done"], "45", "a failure without a count keeps the last progress")
        XCTAssertEqual(try written[1].double("progress"), 0.5)
        XCTAssertEqual(written[1]["error"], "decode: corrupt \"packet\", at 1.5 s")
        XCTAssertEqual(written[1]["error_kind"], "invalid_input")
        XCTAssertEqual(written[2]["error"], "not run: decode failed")
    }

    func testTheResultCarriesTheLastStagesFinishes() throws {
        let run = try db.startedRun(sport: .archery)
        let stages = StageRepository(db)
        try stages.plan(jobId: run.jobId, attempt: run.attempt, stages: [.probe, .decode], running: .started(.probe, framesPlanned: nil))
        try stages.record(jobId: run.jobId, attempt: run.attempt, [.finished(.probe, status: .succeeded, framesDone: nil),
                                                                   .started(.decode, framesPlanned: 90)])
        let document = AnalysisDocument(video: nil, stages: [], warnings: [], result: .object([:]))
        XCTAssertTrue(try RunRepository(db).complete(run, document: document, facts: nil,
                                                     stages: [.finished(.decode, status: .succeeded, framesDone: 90)]))
        let written = try rows(run)
        XCTAssertEqual(written.map { $0["status"] }, ["succeeded", "succeeded"])
        XCTAssertEqual(written[1]["frames_done"], "90")
        XCTAssertEqual(try db.query("SELECT status FROM jobs WHERE id = $1", [run.jobId]).rows[0]["status"], "succeeded")
    }

    func testARunThatLostTheJobWritesNoStages() throws {
        let lost = try db.startedRun(sport: .tennis)
        let stages = StageRepository(db)
        try stages.plan(jobId: lost.jobId, attempt: lost.attempt, stages: plan, running: .started(.probe, framesPlanned: nil))
        // The lease expired and attempt 2 took over (closing attempt 1's open stages).
        let owner = try db.startedRun(sport: .tennis, attempt: 2, job: lost.jobId)
        try stages.plan(jobId: owner.jobId, attempt: owner.attempt, stages: plan, running: .started(.probe, framesPlanned: nil))
        let before = try rows(lost).map { "\($0["status"] ?? "")/\($0["error"] ?? "")" }
        XCTAssertEqual(before, Array(repeating: "failed/run interrupted", count: plan.count))

        try stages.record(jobId: lost.jobId, attempt: lost.attempt, [.finished(.probe, status: .succeeded, framesDone: 1),
                                                                     .started(.decode, framesPlanned: 90)])
        try stages.plan(jobId: lost.jobId, attempt: 3, stages: plan, running: .started(.probe, framesPlanned: nil))
        let document = AnalysisDocument(video: nil, stages: [], warnings: [], result: .object([:]))
        XCTAssertFalse(try RunRepository(db).complete(lost, document: document, facts: nil,
                                                      stages: [.finished(.decode, status: .succeeded, framesDone: 90)]))
        XCTAssertEqual(try rows(lost).map { "\($0["status"] ?? "")/\($0["error"] ?? "")" }, before, "the lost run changed none of its rows")
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM job_stages WHERE attempt = 3").rows[0].int("n"), 0,
                       "nor planned an attempt it does not own")
        XCTAssertEqual(try rows(owner).map { $0["status"] }, ["running", "pending", "pending", "pending"], "the owner's rows are untouched")
    }
}
