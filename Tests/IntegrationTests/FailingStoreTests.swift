import Foundation
import ObjectStorage
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A bucket whose store answers 500 to everything but the coordinator's start-up check: every
/// route that asks the store answers 503 `storage_unavailable` naming the store and its answer,
/// and PostgreSQL records nothing (no upload, no video, an open upload still open).
final class FailingStoreTests: BrokenStoreTestCase {
    override var behaviour: Behaviour { .answers500 }

    /// `(status, code, message)` of a request to the coordinator with the operator's key.
    private func ask(_ method: String, _ path: String, body: Data? = nil) throws -> (Int, String, String) {
        let (data, status, _) = try HTTP.request(method, URL(string: "\(stack.coordinatorURL)\(path)")!, key: stack.operatorKey, body: body)
        let error = HTTP.apiError(data)
        return (status, error?.code ?? "", error?.message ?? String(decoding: data, as: UTF8.self))
    }

    private func assertNamesTheStore(_ answer: (Int, String, String), _ route: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(answer.0, 503, "\(route): \(answer)", file: file, line: line)
        XCTAssertEqual(answer.1, "storage_unavailable", "\(route): \(answer)", file: file, line: line)
        XCTAssertTrue(answer.2.contains("bucket \(bucket) at \(endpoint)") && answer.2.contains("HTTP 500"),
                      "\(route) does not name the store and its answer: \(answer.2)", file: file, line: line)
    }

    func testStartingAnUploadRecordsNothing() throws {
        // Two parts: the store begins a multipart upload at once (one part is a plain PUT, asked of no store until complete).
        let body = try ReelworkJSON.encoder.encode(CreateUploadRequest(filename: "a.mp4", sizeBytes: UploadPlan.minimumPartBytes + 1,
                                                                      sha256: String(repeating: "a", count: 64)))
        assertNamesTheStore(try ask("POST", "/v1/uploads", body: body), "POST /v1/uploads")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM uploads").rows[0].int("n"), 0, "an upload the store never began was recorded")
    }

    func testAnOpenUploadStaysOpenAndNoVideoIsRecorded() throws {
        // An upload begun while the store still answered.
        let id = UUID().uuidString.lowercased()
        try stack.db().execute("""
            INSERT INTO uploads (id, club, size_bytes, content_hash, part_bytes, staging_key, store_upload_id, expires_at)
            VALUES ('\(id)', 'default', \(UploadPlan.minimumPartBytes + 1), '\(String(repeating: "b", count: 64))', \(UploadPlan.minimumPartBytes), '\(ObjectKey.upload(id: UUID(uuidString: id)!))',
                    'store-upload-1', now() + interval '1 hour')
            """)
        assertNamesTheStore(try ask("GET", "/v1/uploads/\(id)"), "GET /v1/uploads/{id}")
        assertNamesTheStore(try ask("POST", "/v1/uploads/\(id)/complete"), "POST /v1/uploads/{id}/complete")
        // Part URLs are signed by the coordinator alone: the store is not asked.
        let parts = try ask("POST", "/v1/uploads/\(id)/parts", body: Data(#"{"numbers":[1]}"#.utf8))
        XCTAssertEqual(parts.0, 200, "\(parts)")
        let db = try stack.db()
        XCTAssertEqual(try db.query("SELECT status FROM uploads WHERE id = '\(id)'").rows[0].string("status"), UploadStatus.open.rawValue,
                       "a complete the store failed leaves the upload open, to complete again")
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM videos").rows[0].int("n"), 0)
    }

    func testAVideoSentWholeIsNotRecorded() throws {
        let clip = try stack.makeTinyClip()
        assertNamesTheStore(try ask("POST", "/v1/videos?filename=tiny.mp4", body: try Data(contentsOf: clip)), "POST /v1/videos")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos").rows[0].int("n"), 0, "a video the store did not keep was recorded")
    }
}
