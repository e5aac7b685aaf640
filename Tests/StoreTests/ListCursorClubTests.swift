import Foundation
import ReelworkCore
@testable import Store
import TestSupport
import XCTest

/// A list's `cursor` is looked up within the caller's club only. Club beta's records are older than
/// club alpha's newest ones, so a cursor looked up in every club would page beta on past alpha's
/// id; looked up in beta's club, alpha's id is as unknown as a made-up one: the page is empty
/// (what an unknown cursor has always given), and nothing tells beta that alpha's id exists.
final class ListCursorClubTests: MigratedDatabaseTestCase {
    private let alphaJob = UUID(), alphaBatch = UUID(), alphaWebhook = UUID()
    private let unknown = UUID()

    override func setUpWithError() throws {
        try super.setUpWithError()
        // Beta's three of each an hour ago; alpha's one of each now.
        try db.execute("""
            INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, original_name, container, codec, width, height,
                                fps, duration_seconds, frame_count, created_at)
            SELECT md5('video' || i)::uuid, CASE WHEN i = 0 THEN 'alpha' ELSE 'beta' END, md5('content' || i), 1, 'k', 'clip' || i || '.mp4',
                   'mp4', 'h264', 160, 120, 30, 1, 30, now()
            FROM generate_series(0, 3) AS i;
            INSERT INTO batches (id, club, sport, created_at)
            SELECT md5('batch' || i)::uuid, 'beta', 'tennis', now() - make_interval(mins => 60 + i) FROM generate_series(1, 3) AS i;
            INSERT INTO batches (id, club, sport) VALUES ('\(alphaBatch.pgText)', 'alpha', 'tennis');
            INSERT INTO jobs (id, video_id, club, sport, status, attempt, created_at, updated_at, file_name)
            SELECT md5('job' || i)::uuid, md5('video' || i)::uuid, 'beta', 'tennis', 'succeeded', 1,
                   now() - make_interval(mins => 60 + i), now(), 'clip' || i || '.mp4'
            FROM generate_series(1, 3) AS i;
            INSERT INTO jobs (id, video_id, club, sport, status, attempt, created_at, updated_at, file_name)
            VALUES ('\(alphaJob.pgText)', md5('video0')::uuid, 'alpha', 'tennis', 'succeeded', 1, now(), now(), 'clip0.mp4');
            INSERT INTO webhook_endpoints (id, club, url, events, secret, created_at)
            SELECT md5('hook' || i)::uuid, 'beta', 'https://example.com/' || i, ARRAY['job.succeeded'], 'whsec_c2VjcmV0',
                   now() - make_interval(mins => 60 + i)
            FROM generate_series(1, 3) AS i;
            INSERT INTO webhook_endpoints (id, club, url, events, secret)
            VALUES ('\(alphaWebhook.pgText)', 'alpha', 'https://example.com/a', ARRAY['job.succeeded'], 'whsec_c2VjcmV0');
            """)
    }

    func testJobsAfterAnotherClubsIdAreAnUnknownCursorsEmptyPage() throws {
        let jobs = JobRepository(db)
        XCTAssertEqual(try jobs.list(JobFilter(club: "beta"), limit: 10, cursor: alphaJob).jobs.map(\.id), [])
        XCTAssertEqual(try jobs.list(JobFilter(club: "beta"), limit: 10, cursor: unknown).jobs.map(\.id), [])
        XCTAssertEqual(try jobs.list(JobFilter(), limit: 10, cursor: alphaJob).jobs.count, 3,
                       "an operator (every club) pages on past alpha's id: the fixture can show the difference")
    }

    func testBatchesAfterAnotherClubsIdAreAnUnknownCursorsEmptyPage() throws {
        let batches = BatchRepository(db)
        XCTAssertEqual(try batches.list(club: "beta", limit: 10, cursor: alphaBatch).batches.map(\.id), [])
        XCTAssertEqual(try batches.list(club: "beta", limit: 10, cursor: unknown).batches.map(\.id), [])
        XCTAssertEqual(try batches.list(club: nil, limit: 10, cursor: alphaBatch).batches.count, 3)
    }

    func testWebhooksAfterAnotherClubsIdAreAnUnknownCursorsEmptyPage() throws {
        let webhooks = WebhookRepository(db)
        XCTAssertEqual(try webhooks.list(club: "beta", limit: 10, cursor: alphaWebhook).webhooks.map(\.id), [])
        XCTAssertEqual(try webhooks.list(club: "beta", limit: 10, cursor: unknown).webhooks.map(\.id), [])
        XCTAssertEqual(try webhooks.list(club: nil, limit: 10, cursor: alphaWebhook).webhooks.count, 3)
    }

    func testDashboardJobsAfterAnotherClubsIdAreAnUnknownCursorsEmptyPage() throws {
        let dashboard = DashboardRepository(db)
        for match in [JobSearch.TextMatch.eachRow, .trigramIndexes] {
            let text = match == .eachRow ? "clip" : nil
            XCTAssertEqual(try dashboard.jobs(JobSearch(club: "beta", text: text), limit: 10, after: alphaJob, text: match).jobs.map(\.job.id), [],
                           "\(match)")
            XCTAssertEqual(try dashboard.jobs(JobSearch(club: "beta", text: text), limit: 10, after: unknown, text: match).jobs.map(\.job.id), [],
                           "\(match)")
            XCTAssertEqual(try dashboard.jobs(JobSearch(text: text), limit: 10, after: alphaJob, text: match).jobs.count, 3, "\(match)")
        }
    }
}
