import Foundation
import ReelworkCore
import Store
import Tennis
import TestSupport
import XCTest

/// `reelwork jobs retry-failed` (`JobRepository.requeueFailed`) queues failed jobs as a fresh
/// start, like a single job's retry: a cancel asked for before the failure is not carried into
/// the new run, which would otherwise be cancelled the moment a worker claimed it.
final class RetryFailedTests: MigratedDatabaseTestCase {
    /// A running job is asked to cancel, and its worker fails it before it sees the request.
    private func failedWhileACancelWasAsked() throws -> ClaimedRun {
        let run = try db.startedRun(sport: .tennis)
        XCTAssertEqual(try JobRepository(db).cancel(id: run.jobId, by: "club north"), .requested)
        XCTAssertTrue(try RunRepository(db).fail(run, message: "decoder gave up", kind: .invalidInput, retryIn: nil))
        let failed = try XCTUnwrap(try JobRepository(db).find(id: run.jobId))
        XCTAssertEqual(failed.status, .failed)
        XCTAssertTrue(failed.cancelRequested, "the setup: the cancel request outlived the failure")
        return run
    }

    func testRetryFailedClearsAnEarlierCancelRequestAndTheJobRunsAgain() throws {
        let run = try failedWhileACancelWasAsked()
        let queued = try JobRepository(db).requeueFailed(club: nil, sport: nil, errorKind: nil, since: nil, until: nil)
        XCTAssertEqual(queued.map(\.jobId), [run.jobId])

        let job = try XCTUnwrap(try JobRepository(db).find(id: run.jobId))
        XCTAssertEqual(job.status, .queued)
        XCTAssertFalse(job.cancelRequested)
        XCTAssertNil(try db.query("SELECT cancelled_by FROM jobs WHERE id = $1", [run.jobId]).rows[0]["cancelled_by"])

        guard case .started(let again) = try RunRepository(db).start(jobId: run.jobId, attempt: 2, worker: "w2") else {
            return XCTFail("the retried job must start, not end as cancelled")
        }
        XCTAssertEqual(again.attempt, 2)
        XCTAssertEqual(again.failures, 0)
    }

    /// The single job's retry already did this; both paths must agree.
    func testASingleRetryDoesTheSame() throws {
        let run = try failedWhileACancelWasAsked()
        XCTAssertNotNil(try JobRepository(db).requeueForRetry(id: run.jobId))
        XCTAssertFalse(try XCTUnwrap(try JobRepository(db).find(id: run.jobId)).cancelRequested)
        guard case .started = try RunRepository(db).start(jobId: run.jobId, attempt: 2, worker: "w2") else {
            return XCTFail("the retried job must start")
        }
    }
}
