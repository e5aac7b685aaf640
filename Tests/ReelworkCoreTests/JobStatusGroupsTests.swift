import ReelworkCore
import XCTest

/// The job states' groups, named once and taken by the SQL: they split every state exactly.
final class JobStatusGroupsTests: XCTestCase {
    func test_OpenAndTerminalSplitEveryStateAndWaitingIsOpen() {
        XCTAssertEqual(Set(JobStatus.open).union(JobStatus.terminal), Set(JobStatus.allCases))
        XCTAssertTrue(Set(JobStatus.open).isDisjoint(with: JobStatus.terminal))
        XCTAssertTrue(Set(JobStatus.waiting).isSubset(of: JobStatus.open))
        XCTAssertFalse(JobStatus.waiting.contains(.running))
    }

    func test_TheSQLListNamesTheStatesAsStored() {
        XCTAssertEqual(JobStatus.sqlList(JobStatus.waiting), "('queued', 'retry_scheduled')")
        XCTAssertEqual(JobStatus.sqlList(JobStatus.terminal), "('succeeded', 'failed', 'cancelled')")
    }
}
