import ReelworkCore
import XCTest

/// The job and stage states' groups, named once and taken by the SQL, the Lua, the dashboard and
/// the CLI: they split every state exactly, and their SQL is what the statements expect.
final class JobStatusGroupsTests: XCTestCase {
    func testWaitingRunningAndTerminalSplitEveryJobStateExactlyOnce() {
        let grouped = JobStatus.waiting + [.running] + JobStatus.terminal
        XCTAssertEqual(grouped.count, JobStatus.allCases.count, "a state in two groups")
        XCTAssertEqual(Set(grouped), Set(JobStatus.allCases), "a state in no group")
        XCTAssertEqual(JobStatus.open, JobStatus.waiting + [.running])
        XCTAssertEqual(JobStatus.terminal, JobStatus.allCases.filter(\.isTerminal))
    }

    func testARetryTakesTheEndedJobsWithoutAResult() {
        XCTAssertEqual(Set(JobStatus.retryable), Set(JobStatus.terminal).subtracting([.succeeded]))
    }

    func testUnfinishedStagesAreTheOnesNotFinished() {
        XCTAssertEqual(StageStatus.unfinished, [.pending, .running])
        XCTAssertTrue(StageStatus.unfinished.allSatisfy { !$0.isFinished })
        XCTAssertTrue(Set(StageStatus.allCases).subtracting(StageStatus.unfinished).allSatisfy(\.isFinished))
    }

    func testAStallVerdictLeavesTheJobWaitingOrEnded() {
        XCTAssertTrue(JobStatus.waiting.contains(StallVerdict.requeued.jobStatus))
        XCTAssertEqual(StallVerdict.failed.jobStatus, .failed)
        XCTAssertEqual(StallVerdict.cancelled.jobStatus, .cancelled)
    }

    /// The text the statements are written with (`migrations/` holds the same lists in the
    /// partial indexes `jobs_club_waiting` and `jobs_batch_open`).
    func testTheSQLNamesTheStatesAsStored() {
        XCTAssertEqual(JobStatus.running.sql, "'running'")
        XCTAssertEqual(JobStatus.retryScheduled.sql, "'retry_scheduled'")
        XCTAssertEqual(JobStatus.waiting.sql, "('queued', 'retry_scheduled')")
        XCTAssertEqual(JobStatus.open.sql, "('queued', 'retry_scheduled', 'running')")
        XCTAssertEqual(JobStatus.terminal.sql, "('succeeded', 'failed', 'cancelled')")
        XCTAssertEqual(StageStatus.unfinished.sql, "('pending', 'running')")
        XCTAssertEqual(StallVerdict.failed.lua, "'failed'")
    }

    /// Quoting a name without escaping is safe only while names are plain: a state named `it's`
    /// would break every statement that names it.
    func testEveryStateNameIsPlainSoItsQuotedFormIsALiteral() {
        let names = JobStatus.allCases.map(\.rawValue) + StageStatus.allCases.map(\.rawValue)
            + WebhookDeliveryStatus.allCases.map(\.rawValue) + AttemptOutcome.allCases.map(\.rawValue)
            + StallVerdict.allCases.map(\.rawValue)
        for name in names {
            XCTAssertNotNil(name.wholeMatch(of: /[a-z_]+/), name)
        }
    }
}
