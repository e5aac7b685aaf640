import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ObjectStorage
import ReelworkCore
import S3Storage
import TestSupport
import XCTest

/// Multipart uploads against a real S3 server (rclone's `serve s3`): parts PUT by presigned URLs
/// with no key of ours, listed, joined, copied; an abandoned upload listed and aborted.
final class S3MultipartTests: XCTestCase {
    var server: S3TestServer!

    override func setUpWithError() throws {
        server = try S3TestServer(buckets: ["clips"])
    }

    override func tearDown() {
        server?.stop()
    }

    var store: S3ObjectStore {
        S3ObjectStore(settings: S3Settings(endpoint: URL(string: server.endpoint)!, bucket: "clips", pathStyle: true,
                                           accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey))
    }

    /// PUTs `body` to a presigned URL as a client would; returns the status.
    func put(_ body: Data, to url: String) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "PUT"
        let (_, response) = try await URLSession.shared.upload(for: request, from: body)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    func testPartsUploadedByPresignedURLsAreJoinedInOrder() async throws {
        let store = self.store
        let key = "uploads/first"
        let id = try await store.createMultipartUpload(key: key)
        let first = Data(repeating: 0x61, count: Int(S3ObjectStore.minimumPartBytes))
        let second = Data("the last part may be small".utf8)
        // The second part first: a client may send them in any order, or again after a crash.
        let secondStatus = try await put(second, to: try store.presignedPartURL(key: key, uploadId: id, number: 2, seconds: 300))
        XCTAssertEqual(secondStatus, 200)
        let firstStatus = try await put(first, to: try store.presignedPartURL(key: key, uploadId: id, number: 1, seconds: 300))
        XCTAssertEqual(firstStatus, 200)
        let parts = try await store.listParts(key: key, uploadId: id)
        XCTAssertEqual(parts.map(\.number), [1, 2])
        XCTAssertEqual(parts.map(\.bytes), [Int64(first.count), Int64(second.count)])
        let open = try await store.listMultipartUploads(prefix: "uploads/")
        XCTAssertEqual(open.map(\.uploadId), [id])

        try await store.completeMultipartUpload(key: key, uploadId: id, parts: parts)
        XCTAssertEqual(try Data(contentsOf: server.root.appendingPathComponent("clips/\(key)")), first + second)
        let stillOpen = try await store.listMultipartUploads(prefix: "uploads/")
        XCTAssertEqual(stillOpen, [])

        let target = ObjectKey.video(sha256: SignatureV4.hexSHA256(first + second))
        try await store.copy(from: key, to: target)
        let copied = try await store.size(of: target)
        XCTAssertEqual(copied, Int64(first.count + second.count))
    }

    func testAnAbandonedUploadIsAborted() async throws {
        let store = self.store
        let id = try await store.createMultipartUpload(key: "uploads/abandoned")
        let status = try await put(Data("half a video".utf8), to: try store.presignedPartURL(key: "uploads/abandoned", uploadId: id, number: 1, seconds: 300))
        XCTAssertEqual(status, 200)
        try await store.abortMultipartUpload(key: "uploads/abandoned", uploadId: id)
        let open = try await store.listMultipartUploads(prefix: "uploads/")
        XCTAssertEqual(open, [])
        do {
            _ = try await store.listParts(key: "uploads/abandoned", uploadId: id)
            XCTFail("an aborted upload still lists parts")
        } catch let error as ObjectStoreError {
            XCTAssertEqual(error.reason, .missingUpload, error.message)
            XCTAssertTrue(error.message.contains("holds no such upload"), error.message)
        }
    }

    /// A part URL is for one part of one upload: another number or upload id is refused.
    func testAPartURLCannotBeBentToAnotherPart() async throws {
        let store = self.store
        let id = try await store.createMultipartUpload(key: "uploads/bent")
        let url = try store.presignedPartURL(key: "uploads/bent", uploadId: id, number: 1, seconds: 300)
        let bent = url.replacingOccurrences(of: "partNumber=1&", with: "partNumber=2&")
        XCTAssertNotEqual(bent, url)
        let status = try await put(Data("x".utf8), to: bent)
        XCTAssertEqual(status, 403)
        XCTAssertThrowsError(try store.presignedPartURL(key: "uploads/bent", uploadId: id, number: 10_001, seconds: 300))
    }
}
