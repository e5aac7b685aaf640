import Foundation
import ReelworkCore
import Store
import TestSupport
import XCTest

/// An upload's expiry comes from PostgreSQL's clock, the one the sweep compares it with
/// (`expires_at < now()`), never from the coordinator's (issue 30: PostgreSQL timestamps come from
/// `now()`). A coordinator's clock cannot be skewed here, so the test asks for exactness instead:
/// `created_at` is the row's `now()`, and only an expiry computed in the same statement is exactly
/// the hours after it; one sent by a client would be off by at least the trip to the server.
final class UploadExpiryTests: MigratedDatabaseTestCase {
    private func newUpload() -> NewUpload {
        let id = UUID()
        return NewUpload(id: id, club: "north", originalName: "serve.mp4", sizeBytes: 10 << 20, contentHash: String(repeating: "ab", count: 32),
                         partBytes: 8 << 20, stagingKey: "uploads/\(id.uuidString.lowercased())", storeUploadId: nil)
    }

    func testAnUploadExpiresExactlyItsHoursAfterPostgreSQLsNow() throws {
        for hours in [1, 24, 24 * 365] {
            let upload = newUpload()
            let inserted = try UploadRepository(db).insert(upload, expiresInHours: hours)
            let row = try db.query("""
                SELECT expires_at - created_at = make_interval(hours => $2::int) AS exact, expires_at - created_at AS span, expires_at
                FROM uploads WHERE id = $1
                """, [upload.id, hours]).rows[0]
            XCTAssertTrue(try row.bool("exact"), "\(hours) h: expires_at − created_at is \(row["span"] ?? "?"), not exactly \(hours) hours")
            // The record returned (and so the API's answer) carries the stored expiry, not one of its own.
            XCTAssertEqual(inserted.expiresAt, try row.date("expires_at"), "\(hours) h")
        }
    }

    /// The sweep's side of the same clock: a fresh upload is not expired, and one whose time has
    /// passed by PostgreSQL's clock is.
    func testTheSweepSeesAnUploadExpireByTheSameClock() throws {
        let upload = newUpload()
        _ = try UploadRepository(db).insert(upload, expiresInHours: 1)
        XCTAssertEqual(try UploadRepository(db).expired(limit: 10).map(\.id), [])
        try db.execute("UPDATE uploads SET created_at = created_at - interval '61 minutes', expires_at = expires_at - interval '61 minutes'")
        XCTAssertEqual(try UploadRepository(db).expired(limit: 10).map(\.id), [upload.id])
    }
}
