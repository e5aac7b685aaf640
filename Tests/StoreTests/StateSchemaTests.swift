import Foundation
import ReelworkCore
import Store
import TestSupport
import XCTest

/// The schema's own lists of states, spelt out by the migrations (history, never edited), name
/// exactly the Swift types' states and groups: a state added to a type without a migration, or a
/// group changed without the partial index that serves it, fails here rather than in production.
final class StateSchemaTests: MigratedDatabaseTestCase {
    private func names(in definition: String) -> Set<String> {
        Set(definition.matches(of: /'([a-z_]+)'/).map { String($0.1) })
    }

    /// The states `table`'s CHECK allows in `column` (PostgreSQL writes `IN (…)` as `= ANY (ARRAY[…])`).
    private func allowed(_ table: String, _ column: String) throws -> Set<String> {
        let listing = try db.query("""
            SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'
            """, [table]).rows.map { try $0.string("def") }.filter { $0.contains("(\(column) = ANY") }
        XCTAssertEqual(listing.count, 1, "one CHECK lists \(table).\(column)'s states")
        return names(in: listing.first ?? "")
    }

    /// The states an index's `WHERE` names.
    private func predicate(_ index: String) throws -> Set<String> {
        let definition = try db.query("SELECT pg_get_indexdef($1::regclass) AS def", [index]).rows[0].string("def")
        let parts = definition.components(separatedBy: " WHERE ")
        XCTAssertEqual(parts.count, 2, "\(index) is partial: \(definition)")
        return names(in: parts.last ?? "")
    }

    private func raw<S: NamedState>(_ states: [S]) -> Set<String> { Set(states.map(\.rawValue)) }

    func testEveryStatusColumnAllowsExactlyItsTypesStates() throws {
        XCTAssertEqual(try allowed("jobs", "status"), raw(JobStatus.allCases))
        XCTAssertEqual(try allowed("job_stages", "status"), raw(StageStatus.allCases))
        XCTAssertEqual(try allowed("job_attempts", "outcome"), raw(AttemptOutcome.allCases))
        XCTAssertEqual(try allowed("webhook_deliveries", "status"), raw(WebhookDeliveryStatus.allCases))
        XCTAssertEqual(try allowed("uploads", "status"), raw(UploadStatus.allCases))
    }

    func testThePartialIndexesNameTheGroupsTheQueriesName() throws {
        XCTAssertEqual(try predicate("jobs_club_waiting"), raw(JobStatus.waiting))
        XCTAssertEqual(try predicate("jobs_batch_open"), raw(JobStatus.open))
        XCTAssertEqual(try predicate("jobs_failed"), raw([JobStatus.failed]))
        XCTAssertEqual(try predicate("webhook_deliveries_due"), raw([WebhookDeliveryStatus.pending]))
        XCTAssertEqual(try predicate("uploads_unfinished"), raw(UploadStatus.unfinished))
        XCTAssertEqual(try predicate("uploads_club_unfinished"), raw(UploadStatus.unfinished))
    }
}
