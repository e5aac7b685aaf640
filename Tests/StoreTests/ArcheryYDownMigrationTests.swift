import Foundation
import ReelworkCore
import TestSupport
import XCTest

@testable import Store

/// migrations/0013_archery_y_down.sql on a database with archery work stored the old way (y up):
/// every stored face coordinate changes sign, nothing else changes.
final class ArcheryYDownMigrationTests: MigrationTestCase {
    func testStoredArcheryCoordinatesTurnYDownAndNothingElseChanges() throws {
        let db = try database.connect()
        try migrations.apply(to: db, before: "0013")
        let video = UUID(), archery = UUID(), tennis = UUID()
        try db.query("""
            INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, container, codec, width, height, fps, duration_seconds, frame_count)
            VALUES ($1, 'c', 'aaaa', 10, 'aaaa', 'mp4', 'h264', 16, 16, 30, 1, 30)
            """, [video])
        for (job, sport) in [(archery, "archery"), (tennis, "tennis")] {
            try db.query("INSERT INTO jobs (id, video_id, club, sport, status) VALUES ($1, $2, 'c', $3, 'succeeded')", [job, video, sport])
        }
        // An arrow above the centre (y up: +0.3), one with no coordinate, the face seen straight on.
        let stored = #"""
            {"arrows": [{"normalizedX": 0.1, "normalizedY": 0.3, "clockPositionDeg": 18.4, "score": 7},
                        {"normalizedX": null, "normalizedY": null, "score": 0}],
             "face": {"homography": [0.01, 0, -5, 0, -0.01, 4, 0, 0, 1], "radius": 100},
             "total": 7, "framesDecoded": 10}
            """#
        try db.query("INSERT INTO results (job_id, attempt, sport, video, result) VALUES ($1, 1, 'archery', '{}', $2::jsonb)", [archery, stored])
        try db.query("""
            INSERT INTO results (job_id, attempt, sport, video, result)
            VALUES ($1, 1, 'tennis', '{}', '{"arrows": [{"normalizedY": 0.5}], "face": {"homography": [1,2,3,4,5,6,7,8,9]}}'::jsonb)
            """, [tennis])
        try db.query("""
            INSERT INTO archery_arrows (job_id, attempt, arrow_number, score, normalized_x, normalized_y, clock_position_deg)
            VALUES ($1, 1, 1, 7, 0.1, 0.3, 18.4), ($1, 1, 2, 0, NULL, NULL, NULL)
            """, [archery])
        try db.query("""
            INSERT INTO archery_confirmations (job_id, version, corrections, confirmed) VALUES ($1, 1,
                '[{"op": "move", "index": 0, "x": 0.1, "y": 0.25}, {"op": "delete", "index": 1}]'::jsonb,
                '{"arrows": [{"normalizedX": 0.1, "normalizedY": 0.25, "clockPositionDeg": 21.8, "score": 8}], "total": 8}'::jsonb)
            """, [archery])

        try migrations.apply(to: db)

        let result = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(
            try db.query("SELECT result::text AS r FROM results WHERE job_id = $1", [archery]).rows[0].string("r").utf8))
        guard case .array(let arrows)? = result["arrows"], case .array(let homography)? = result["face"]?["homography"] else {
            return XCTFail("the result lost its arrows or homography: \(result)")
        }
        XCTAssertEqual(arrows.first?["normalizedY"]?.number, -0.3, "above the centre is −y now")
        XCTAssertEqual(arrows.first?["normalizedX"]?.number, 0.1)
        XCTAssertEqual(arrows.first?["clockPositionDeg"]?.number, 18.4, "the clock position names the same place")
        XCTAssertEqual(arrows.last?["normalizedY"], .null)
        XCTAssertEqual(homography.compactMap(\.number), [0.01, 0, -5, 0, 0.01, -4, 0, 0, 1], "the y row of the homography is negated")
        XCTAssertEqual(result["total"]?.number, 7)
        XCTAssertEqual(result["framesDecoded"]?.number, 10)

        let rows = try db.query("SELECT normalized_y FROM archery_arrows WHERE job_id = $1 ORDER BY arrow_number", [archery]).rows
        XCTAssertEqual(try rows[0].double("normalized_y"), -0.3)
        XCTAssertNil(rows[1]["normalized_y"])

        let confirmation = try db.query("SELECT corrections::text AS c, confirmed::text AS f FROM archery_confirmations WHERE job_id = $1", [archery]).rows[0]
        let corrections = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try confirmation.string("c").utf8))
        let confirmed = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try confirmation.string("f").utf8))
        guard case .array(let steps) = corrections, case .array(let kept)? = confirmed["arrows"] else { return XCTFail("\(corrections) \(confirmed)") }
        XCTAssertEqual(steps.first?["y"]?.number, -0.25)
        XCTAssertEqual(steps.first?["x"]?.number, 0.1)
        XCTAssertEqual(steps.last?["op"], .string("delete"))
        XCTAssertEqual(kept.first?["normalizedY"]?.number, -0.25)
        XCTAssertEqual(confirmed["total"]?.number, 8)

        let other = try db.query("SELECT result::text AS r FROM results WHERE job_id = $1", [tennis]).rows[0].string("r")
        XCTAssertTrue(other.contains(#""normalizedY": 0.5"#), "another sport's result is untouched: \(other)")
    }
}
