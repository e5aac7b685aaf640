import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ObjectStorage
import ReelworkCore
@testable import S3Storage
import TestSupport
import XCTest

/// The S3 store against a real S3 server (rclone's `serve s3` on 127.0.0.1), which checks every
/// signature: puts, lookups, listings, presigned reads, and each way a store can refuse.
final class S3ObjectStoreTests: XCTestCase {
    var server: S3TestServer!
    var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        server = try S3TestServer(buckets: ["clips"])
        scratch = try ScratchDirectory(prefix: "s3-store")
    }

    override func tearDown() {
        server?.stop()
        scratch?.remove()
    }

    func store(bucket: String = "clips", secret: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) -> S3ObjectStore {
        S3ObjectStore(settings: S3Settings(endpoint: URL(string: server.endpoint)!, bucket: bucket, pathStyle: true,
                                           accessKeyID: server.accessKeyID, secretAccessKey: secret ?? server.secretAccessKey), now: now)
    }

    /// A file with `text` in it and its SHA-256.
    func file(_ text: String) throws -> (URL, String) {
        let url = scratch.url.appendingPathComponent(UUID().uuidString)
        try Data(text.utf8).write(to: url)
        return (url, SignatureV4.hexSHA256(Data(text.utf8)))
    }

    func get(_ url: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func testPutLookUpListReadAndRemove() async throws {
        let store = store()
        try await store.prepare()
        let (url, hash) = try file("a video's bytes")
        let key = ObjectKey.video(sha256: hash)
        let stored = try await store.put(file: url, sha256: hash, key: key)
        XCTAssertTrue(stored)
        XCTAssertEqual(try Data(contentsOf: server.root.appendingPathComponent("clips/\(key)")), Data("a video's bytes".utf8),
                       "the server holds the bytes under the key")
        let size = try await store.size(of: key)
        XCTAssertEqual(size, 15)
        let storedAgain = try await store.put(file: url, sha256: hash, key: key)
        XCTAssertFalse(storedAgain, "the same key again is not stored twice")
        let listed = try await store.list(prefix: ObjectKey.videosPrefix)
        XCTAssertEqual(listed.map(\.key), [key])
        XCTAssertEqual(listed.first?.bytes, 15)
        // Anyone with the URL reads the object, without credentials, while it is valid.
        let (status, body) = try await get(try store.readLocation(key: key, validFor: 300))
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body, Data("a video's bytes".utf8))
        try await store.remove(key: key)
        let sizeAfterRemove = try await store.size(of: key)
        XCTAssertNil(sizeAfterRemove)
    }

    /// More objects than one listing page holds: each page's continuation is followed.
    func testAListingLongerThanAPageIsFollowed() async throws {
        let folder = server.root.appendingPathComponent("clips/videos/aa")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<25 { try Data("x".utf8).write(to: folder.appendingPathComponent(String(format: "%04d", index))) }
        let listed = try await store().list(prefix: ObjectKey.videosPrefix, pageSize: 10)
        XCTAssertEqual(listed.map(\.key), (0..<25).map { String(format: "videos/aa/%04d", $0) })
    }

    func testAMissingBucketIsNamed() async throws {
        do {
            try await store(bucket: "no-such-bucket").prepare()
            XCTFail("a missing bucket was accepted")
        } catch let error as ObjectStoreError {
            XCTAssertEqual(error.reason, .missingContainer)
            XCTAssertTrue(error.message.contains("bucket no-such-bucket at \(server.endpoint) does not exist"), error.message)
        }
    }

    func testWrongCredentialsAreRefusedByName() async throws {
        let (url, hash) = try file("bytes")
        do {
            _ = try await store(secret: "not-the-secret").put(file: url, sha256: hash, key: ObjectKey.video(sha256: hash))
            XCTFail("a wrong secret was accepted")
        } catch let error as ObjectStoreError {
            XCTAssertEqual(error.reason, .refused)
            XCTAssertTrue(error.message.contains("refused our credentials"), error.message)
            XCTAssertTrue(error.message.contains("AWS_SECRET_ACCESS_KEY"), error.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: server.root.appendingPathComponent("clips/videos").path))
    }

    func testAnExpiredPresignedURLIsRefused() async throws {
        let (url, hash) = try file("old bytes")
        let key = ObjectKey.video(sha256: hash)
        _ = try await store().put(file: url, sha256: hash, key: key)
        let signedLongAgo = store(now: { Date().addingTimeInterval(-3600) })
        let (status, body) = try await get(try signedLongAgo.readLocation(key: key, validFor: 60))
        // AWS answers 403, rclone 400: refused either way, and no bytes.
        XCTAssertTrue([400, 403].contains(status), "an expired URL was answered \(status)")
        XCTAssertNotEqual(body, Data("old bytes".utf8))
        let (fresh, _) = try await get(try store().readLocation(key: key, validFor: 60))
        XCTAssertEqual(fresh, 200)
    }

    func testAStoreThatIsDownIsUnavailable() async throws {
        server.kill()
        do {
            _ = try await store().size(of: "videos/aa/anything")
            XCTFail("a store that is down answered")
        } catch let error as ObjectStoreError {
            XCTAssertEqual(error.reason, .unavailable)
            XCTAssertEqual(error.kind, .transient)
            XCTAssertTrue(error.message.contains("cannot reach the bucket clips at \(server.endpoint)"), error.message)
        }
    }
}
