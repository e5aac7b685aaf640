import Foundation
import ObjectStorage
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// `reelwork storage check` with uploads of several parts, on either backend: one past its expiry
/// that no coordinator swept (none runs) is reported and its parts removed; a live one keeps its parts.
final class AbandonedUploadCheckTests: XCTestCase {
    func testTheCheckRemovesAnExpiredUploadsPartsInABucket() throws {
        let server = try S3TestServer(buckets: ["parts"])
        defer { server.stop() }
        try checkRemovesOnlyTheExpiredUpload(settings: server.environment(bucket: "parts"))
    }

    func testTheCheckRemovesAnExpiredUploadsPartsInAFolder() throws {
        try checkRemovesOnlyTheExpiredUpload(settings: [:])
    }

    private func checkRemovesOnlyTheExpiredUpload(settings: [String: String]) throws {
        let stack = try TestStack(settings: settings)
        defer { stack.shutdown() }
        try stack.startCoordinator()
        let client = try stack.client()
        // Two parts (8 MiB and 1,000 bytes); the bytes are never joined, so they need not be a video.
        let file = stack.directory.appendingPathComponent("two-parts.bin")
        try Data((0..<(UploadPlan.minimumPartBytes + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: file)
        let request = CreateUploadRequest(filename: "two-parts.bin", sizeBytes: UploadPlan.minimumPartBytes + 1000, sha256: String(repeating: "7", count: 64))
        let (expired, live) = try awaitSync {
            let uploads = [try await client.createUpload(request), try await client.createUpload(request)]
            for upload in uploads {
                for part in try await client.uploadPartTargets(upload.id, numbers: [1, 2]).parts { try await client.sendPart(part, of: file) }
            }
            return (uploads[0], uploads[1])
        }
        XCTAssertEqual(expired.partCount, 2)
        XCTAssertEqual(try awaitSync { try await client.upload(expired.id) }.partsReceived, [1, 2])
        XCTAssertEqual(try stack.run(["storage", "check"]).status, 0, "open uploads are not abandoned")

        // No coordinator runs to sweep it when its time passes.
        stack.stopCoordinator()
        try stack.db().execute("UPDATE uploads SET expires_at = now() - interval '1 minute' WHERE id = '\(expired.id.uuidString.lowercased())'")
        let expiredKey = ObjectKey.upload(id: expired.id), liveKey = ObjectKey.upload(id: live.id)
        let found = try stack.run(["storage", "check"])
        XCTAssertEqual(found.status, 1, found.output)
        XCTAssertTrue(found.stdout.contains("abandoned \(expiredKey)  parts of an upload that is open past its expiry"), found.output)
        XCTAssertFalse(found.stdout.contains(liveKey), found.output)

        let removed = try stack.run(["storage", "check", "--remove-orphans"])
        XCTAssertEqual(removed.status, 0, removed.output)
        XCTAssertTrue(removed.stdout.contains("removed  \(expiredKey)"), removed.output)
        XCTAssertEqual(try stack.db().query("SELECT status FROM uploads WHERE id = '\(expired.id.uuidString.lowercased())'").rows[0].string("status"),
                       UploadStatus.expired.rawValue, "the check ends the upload before dropping its parts")
        let clean = try stack.run(["storage", "check"])
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertTrue(clean.output.contains("0 abandoned upload(s)"), clean.output)

        try stack.startCoordinator()
        XCTAssertEqual(try awaitSync { try await client.upload(live.id) }.partsReceived, [1, 2], "the live upload keeps its parts")
    }
}
