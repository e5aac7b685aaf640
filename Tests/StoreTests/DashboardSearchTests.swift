import Foundation
import ReelworkCore
@testable import Store
import TestSupport
import XCTest

/// The dashboard's text search (`q`, a substring of the file name or of the error, any case) has
/// two ways to find its jobs, chosen by how common the text is: reading the newest jobs in order and
/// testing each, or asking the trigram indexes. Both must give exactly the jobs a plain test of
/// every row gives, page after page, and the counts behind a bulk action's confirmation; and the
/// choice must follow the statistics.
final class DashboardSearchTests: MigratedDatabaseTestCase {
    private static let jobCount = 3000

    override func setUpWithError() throws {
        try super.setUpWithError()
        // Newest last. One name in four has "practice"; "oldblock" is in 300 of the oldest 400
        // jobs only (a common text that the newest jobs do not show); "rare-clip" in one name;
        // every tenth job failed, with "moov atom" in a third of their errors and a LIKE
        // wildcard ("50%_off") in another third.
        try db.execute("""
            INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, original_name, container, codec, width, height,
                                fps, duration_seconds, frame_count, created_at)
            SELECT md5('video' || i)::uuid, 'c', md5('content' || i), 1, 'k',
                   CASE WHEN i = 1234 THEN 'Rare-Clip.mp4'
                        WHEN i % 4 = 0 THEN 'tennis-PRACTICE-' || i || '.mp4'
                        WHEN i < 400 THEN 'oldblock_' || i || '.mov'
                        ELSE 'IMG_' || i || '.MOV' END,
                   'mp4', 'h264', 160, 120, 30, 1, 30, now() - make_interval(secs => \(Self.jobCount) - i)
            FROM generate_series(0, \(Self.jobCount - 1)) AS i;
            INSERT INTO jobs (id, video_id, club, sport, status, attempt, created_at, updated_at, finished_at, last_error, last_error_kind,
                              file_name)
            SELECT md5('job' || i)::uuid, md5('video' || i)::uuid, 'c', 'tennis',
                   CASE WHEN i % 10 = 1 THEN 'failed' WHEN i % 10 = 2 THEN 'cancelled' ELSE 'succeeded' END, 1,
                   now() - make_interval(secs => \(Self.jobCount) - i), now(), now(),
                   CASE WHEN i % 10 = 1 THEN CASE i % 3 WHEN 0 THEN 'decode: truncated file: moov atom not found'
                                                        WHEN 1 THEN 'options: 50%_off is not a lane' ELSE 'pose: no person' END END,
                   CASE WHEN i % 10 = 1 THEN 'invalid_input' END,
                   (SELECT original_name FROM videos WHERE id = md5('video' || i)::uuid)
            FROM generate_series(0, \(Self.jobCount - 1)) AS i;
            ANALYZE videos;
            ANALYZE jobs;
            """)
    }

    private static let texts = ["practice", "oldblock", "rare-clip", "MOOV ATOM", "50%_", "50%x", "no-such-clip", "IMG_29"]

    /// Every job whose file name or error contains `text`, any case, newest first: each row tested
    /// here in Swift, not by the code under test.
    private func everyMatch(_ text: String, statuses: [JobStatus]? = nil) throws -> [UUID] {
        try db.query("""
            SELECT j.id, j.status, j.file_name, j.last_error FROM jobs j ORDER BY j.created_at DESC, j.id DESC
            """).rows.filter { row in
            let fields = [row["file_name"], row["last_error"]].compactMap { $0?.lowercased() }
            return fields.contains { $0.contains(text.lowercased()) }
                && statuses.map { $0.map(\.rawValue).contains(row["status"] ?? "") } ?? true
        }.map { try $0.uuid("id") }
    }

    /// Every page of the search, followed by its cursor, as the jobs page would.
    private func allPages(_ repository: DashboardRepository, _ text: String, _ match: JobSearch.TextMatch) throws -> [UUID] {
        var found: [UUID] = []
        var cursor: UUID?
        repeat {
            let page = try repository.jobs(JobSearch(text: text), limit: 50, after: cursor, text: match)
            found += page.jobs.map(\.job.id)
            cursor = page.more ? page.jobs.last?.job.id : nil
            XCTAssertFalse(page.more && page.jobs.count < 50, "a page with more after it is full")
        } while cursor != nil
        return found
    }

    func testBothWaysListExactlyTheMatchingJobsNewestFirstPageAfterPage() throws {
        // A scan limit below the jobs' number, so a text the newest jobs lack ("oldblock") has the
        // row-by-row way give up and hand over to the indexes.
        let repository = DashboardRepository(db, textScanLimit: 500)
        for text in Self.texts {
            let expected = try everyMatch(text)
            XCTAssertEqual(try allPages(repository, text, .eachRow), expected, "row by row: \(text)")
            XCTAssertEqual(try allPages(repository, text, .trigramIndexes), expected, "trigram indexes: \(text)")
        }
        XCTAssertEqual(try everyMatch("oldblock").count, 300)
        XCTAssertEqual(try everyMatch("50%_").count, 100, "the wildcards of LIKE match themselves")
        XCTAssertEqual(try everyMatch("50%x").count, 0)
    }

    func testBothWaysCountTheSameJobsUpToTheLimit() throws {
        let repository = DashboardRepository(db)
        for text in Self.texts {
            let matching = try everyMatch(text, statuses: DashboardRepository.retryable).count
            for match in [JobSearch.TextMatch.eachRow, .trigramIndexes] {
                XCTAssertEqual(try repository.count(JobSearch(text: text), statuses: DashboardRepository.retryable, upTo: nil, text: match),
                               matching, "\(match): \(text)")
                XCTAssertEqual(try repository.count(JobSearch(text: text), statuses: DashboardRepository.retryable, upTo: 40, text: match),
                               min(matching, 41), "\(match), counting to 41: \(text)")
            }
        }
    }

    func testACommonTextIsReadRowByRowAndARareOneThroughTheIndexes() throws {
        let repository = DashboardRepository(db)
        XCTAssertEqual(try repository.textMatch("%practice%", rowsWanted: 51), .eachRow)
        XCTAssertEqual(try repository.textMatch("%rare-clip%", rowsWanted: 51), .trigramIndexes)
        XCTAssertEqual(try repository.textMatch("%no-such-clip%", rowsWanted: 51), .trigramIndexes)
        // Every match of a common text (a bulk action): row by row once the indexes would list more
        // than the scan limit.
        XCTAssertEqual(try DashboardRepository(db, textScanLimit: 100).textMatch("%practice%", rowsWanted: nil), .eachRow)
        XCTAssertEqual(try repository.textMatch("%practice%", rowsWanted: nil), .trigramIndexes)
    }

    /// Two copies of one clip under other names are one video: each job is found by its own name,
    /// never by the name the bytes were first uploaded under.
    func testAJobIsFoundByItsOwnNameNotItsVideos() throws {
        let anna = UUID(), ben = UUID()
        try db.query("""
            INSERT INTO jobs (id, video_id, club, sport, status, attempt, file_name)
            VALUES ($1, md5('video' || 1234)::uuid, 'c', 'tennis', 'succeeded', 1, 'tue-forehand-anna.mp4'),
                   ($2, md5('video' || 1234)::uuid, 'c', 'tennis', 'succeeded', 1, 'tue-rally-ben.mp4')
            """, [anna, ben])
        let repository = DashboardRepository(db)
        for match in [JobSearch.TextMatch.eachRow, .trigramIndexes] {
            XCTAssertEqual(try repository.jobs(JobSearch(text: "anna"), limit: 50, after: nil, text: match).jobs.map(\.job.id), [anna], "\(match)")
            XCTAssertEqual(try repository.jobs(JobSearch(text: "ben"), limit: 50, after: nil, text: match).jobs.map(\.fileName), ["tue-rally-ben.mp4"])
            XCTAssertFalse(try repository.jobs(JobSearch(text: "rare-clip"), limit: 50, after: nil, text: match).jobs.map(\.job.id).contains(anna),
                           "the video's first name is not this job's")
        }
    }

    func testABulkRetryByTextChangesExactlyTheMatchingFailedAndCancelledJobs() throws {
        let expected = Set(try everyMatch("practice", statuses: DashboardRepository.retryable))
        let retried = try DashboardRepository(db, textScanLimit: 100).retry(JobSearch(text: "practice"))
        XCTAssertEqual(Set(retried.map(\.jobId)), expected)
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM jobs WHERE status = 'queued'").rows[0].int("n"), expected.count)
    }
}
