import Foundation
import ReelworkCore
import TestSupport
import XCTest

@testable import Store

/// migrations/0006_club_videos.sql on a database that already has work in it: a video used by
/// two clubs' jobs becomes one record per club, each job pointing at its own club's record.
final class ClubVideosMigrationTests: MigrationTestCase {
    private func migrate(_ db: PGConnection, before name: String? = nil) throws {
        try migrations.apply(to: db, before: name)
    }

    func testAVideoSharedByTwoClubsBecomesOneRecordPerClub() throws {
        let db = try database.connect()
        try migrate(db, before: "0006")
        let shared = UUID(), lonely = UUID()
        for (id, hash) in [(shared, "aaaa"), (lonely, "bbbb")] {
            try db.query("""
                INSERT INTO videos (id, content_hash, size_bytes, storage_key, container, codec, width, height, fps, duration_seconds, frame_count)
                VALUES ($1, $2, 10, $2, 'mp4', 'h264', 16, 16, 30, 1, 30)
                """, [id, hash])
        }
        var jobs: [String: UUID] = [:]
        for (club, video) in [("north", shared), ("south", shared), ("south2", shared)] {
            let id = UUID()
            jobs[club] = id
            try db.query("INSERT INTO jobs (id, video_id, club, sport, status) VALUES ($1, $2, $3, 'tennis', 'queued')", [id, video, club])
        }

        try migrate(db)

        let records = try db.query("SELECT id, club, storage_key FROM videos WHERE content_hash = 'aaaa' ORDER BY club").rows
        XCTAssertEqual(try records.map { try $0.string("club") }, ["north", "south", "south2"])
        XCTAssertEqual(Set(try records.map { try $0.string("storage_key") }), ["aaaa"], "the bytes stay stored once")
        XCTAssertEqual(try records[0].uuid("id"), shared, "the first club keeps the original id")
        for (club, job) in jobs {
            let row = try db.query("SELECT v.club FROM jobs j JOIN videos v ON v.id = j.video_id WHERE j.id = $1", [job]).rows[0]
            XCTAssertEqual(try row.string("club"), club, "job of \(club) points at its own club's record")
        }
        XCTAssertEqual(try db.query("SELECT club FROM videos WHERE id = $1", [lonely]).rows[0].string("club"), "default",
                       "a video no job used belongs to the default club")
        XCTAssertThrowsError(try db.query("""
            INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, container, codec, width, height, fps, duration_seconds, frame_count)
            VALUES ($1, 'north', 'aaaa', 10, 'aaaa', 'mp4', 'h264', 16, 16, 30, 1, 30)
            """, [UUID()]), "one record per club and content")
    }
}
