import Foundation
import Media
import ObjectStorage
import ReelworkClient
import ReelworkCore
import S3Storage
import Store
import TestSupport
import Threading
import XCTest

/// Uploads in parts (`/v1/uploads`) with videos in the storage folder, the parts sent to the
/// coordinator; `UploadInPartsS3Tests` runs the same tests with a bucket, the parts sent straight
/// to it. Resumable (the parts held survive a coordinator's restart), checked (the joined bytes
/// must have the declared size and SHA-256, else nothing is recorded), cleaned up (abandoned and
/// expired uploads leave nothing in the store).
class UploadInPartsTests: InProcessTestCase {
    /// The store as the coordinator sees it.
    func store() throws -> any PartUploads {
        ObjectStores.make(try ReelworkConfig.fromEnvironment(stack.environment))
    }

    /// What uploads left in the store: staged objects, parts, and the store's open multipart uploads.
    func leftovers() throws -> [String] {
        let store = try store()
        var left = try awaitSync { try await store.list(prefix: ObjectKey.uploadsPrefix) }.map(\.key)
        if let bucket = store as? S3ObjectStore {
            left += try awaitSync { try await bucket.listMultipartUploads(prefix: ObjectKey.uploadsPrefix) }.map { "open upload \($0.key)" }
        }
        return left
    }

    /// A clip of three parts (8 + 8 + the rest, MiB): lossless noise, so it is large and still a video.
    func makeLargeClip(_ name: String = "large.mp4") throws -> (file: URL, size: Int64, sha256: String) {
        let url = stack.directory.appendingPathComponent(name)
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30,noise=alls=100:allf=t+u", "-t", "6",
                         "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", url.path])
        let (size, hash) = try ContentHasher.hash(file: url)
        XCTAssertGreaterThan(size, 2 * UploadPlan.minimumPartBytes, "the clip must have three parts")
        return (url, size, hash)
    }

    func create(_ file: URL, size: Int64, sha256: String, client: CoordinatorClient) throws -> UploadView {
        try awaitSync { try await client.createUpload(CreateUploadRequest(filename: file.lastPathComponent, sizeBytes: size, sha256: sha256)) }
    }

    func send(_ numbers: [Int], of upload: UploadView, file: URL, client: CoordinatorClient) throws {
        let targets = try awaitSync { try await client.uploadPartTargets(upload.id, numbers: numbers) }
        for target in targets.parts { try awaitSync { try await client.sendPart(target, of: file) } }
    }

    func apiError(_ body: () throws -> Void) -> (status: Int, code: String, message: String)? {
        do {
            try body()
        } catch ClientError.api(let status, let code, let message) {
            return (status, code, message)
        } catch {
            XCTFail("not an API error: \(error)")
        }
        return nil
    }

    func testPartsSentInAnyOrderAndTwiceBecomeOneVideo() throws {
        let clip = try makeLargeClip()
        let client = try stack.client()
        let upload = try create(clip.file, size: clip.size, sha256: clip.sha256, client: client)
        XCTAssertEqual(upload.partCount, 3)
        XCTAssertEqual(upload.partBytes, UploadPlan.minimumPartBytes)
        try send([3, 1], of: upload, file: clip.file, client: client)
        try send([1], of: upload, file: clip.file, client: client)
        let halfway = try awaitSync { try await client.upload(upload.id) }
        XCTAssertEqual(halfway.partsReceived, [1, 3])
        XCTAssertEqual(halfway.bytesReceived, clip.size - UploadPlan.minimumPartBytes)

        let early = apiError { _ = try awaitSync { try await client.completeUpload(upload.id) } }
        XCTAssertEqual(early?.status, 409)
        XCTAssertEqual(early?.code, "parts_missing")
        XCTAssertTrue(early?.message.contains("1 of 3 part(s) have not arrived: 2") == true, early?.message ?? "")

        try send([2], of: upload, file: clip.file, client: client)
        let video = try awaitSync { try await client.completeUpload(upload.id) }
        XCTAssertEqual(video.contentHash, clip.sha256)
        XCTAssertEqual(video.sizeBytes, clip.size)
        XCTAssertEqual(video.originalName, "large.mp4")
        XCTAssertEqual(video.facts.width, 320)
        let stored = try store()
        XCTAssertEqual(try awaitSync { try await stored.size(of: ObjectKey.video(sha256: clip.sha256)) }, clip.size)
        XCTAssertEqual(try leftovers(), [], "the parts and the joined object are gone once the video is in place")

        // Asked again (a client whose answer was lost): the same video.
        XCTAssertEqual(try awaitSync { try await client.completeUpload(upload.id) }.id, video.id)
        let done = try awaitSync { try await client.upload(upload.id) }
        XCTAssertEqual(done.status, .completed)
        XCTAssertEqual(done.videoId, video.id)
        XCTAssertEqual(done.bytesReceived, clip.size)
    }

    /// A file smaller than a part is one part (with a bucket, one presigned PUT of the object:
    /// no multipart upload), and is checked the same way.
    func testAFileOfOnePartIsSentAndCheckedTheSameWay() throws {
        let clip = try stack.makeTinyClip()
        let (size, hash) = try ContentHasher.hash(file: clip)
        let client = try stack.client()
        let abandoned = try create(clip, size: size, sha256: hash, client: client)
        XCTAssertEqual(abandoned.partCount, 1)
        try send([1], of: abandoned, file: clip, client: client)
        XCTAssertEqual(try awaitSync { try await client.upload(abandoned.id) }.partsReceived, [1])
        try awaitSync { try await client.abortUpload(abandoned.id) }
        XCTAssertEqual(try leftovers(), [], "an abandoned one-part upload leaves nothing")

        let video = try awaitSync { try await client.uploadInParts(file: clip, sha256: hash, sizeBytes: size, club: nil, resume: nil) }
        XCTAssertEqual(video.contentHash, hash)
        XCTAssertEqual(video.sizeBytes, size)
        XCTAssertEqual(try leftovers(), [])
        let multipart = try stack.db().query("SELECT count(*) AS n FROM uploads WHERE store_upload_id IS NOT NULL").rows[0].int("n")
        XCTAssertEqual(multipart, 0, "no multipart upload for one part")
    }

    /// Where the store keeps `key` on disk (the storage folder; a bucket's folder in the S3 server).
    func storedFile(ofKey key: String) -> URL {
        stack.storageDir.appendingPathComponent(key)
    }

    /// A store that fails while a complete stores the video (a file stands where the video's
    /// folder must go), after the parts were joined, costs that complete only: 503, the upload
    /// stays open with its parts (joined now), and the next complete records it. Rejecting it
    /// would have dropped a good upload on a passing fault; reopening it without its joined bytes
    /// would have answered the next complete that no part arrived.
    func testAStoreFailureWhileCompletingKeepsTheUploadOpenForTheNextComplete() throws {
        let (clip, size, hash) = try makeLargeClip()
        let client = try stack.client()
        let upload = try create(clip, size: size, sha256: hash, client: client)
        try send([1, 2, 3], of: upload, file: clip, client: client)
        let inTheWay = storedFile(ofKey: ObjectKey.video(sha256: hash)).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: inTheWay.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("in the way".utf8).write(to: inTheWay)

        let failed = apiError { _ = try awaitSync { try await client.completeUpload(upload.id) } }
        XCTAssertEqual(failed?.status, 503)
        XCTAssertEqual(failed?.code, "storage_unavailable")
        let after = try awaitSync { try await client.upload(upload.id) }
        XCTAssertEqual(after.status, .open)
        XCTAssertEqual(after.partsReceived, [1, 2, 3], "its parts are still held, joined")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos").rows[0].int("n"), 0)

        try FileManager.default.removeItem(at: inTheWay)
        let video = try awaitSync { try await client.completeUpload(upload.id) }
        XCTAssertEqual(video.contentHash, hash)
        XCTAssertEqual(try awaitSync { try await client.upload(upload.id) }.status, .completed)
        XCTAssertEqual(try leftovers(), [])
    }

    /// The parts a store holds outlive the coordinator: a client resumes with the parts missing.
    func testAnUploadResumesFromItsLastPartAfterTheCoordinatorRestarts() throws {
        let clip = try makeLargeClip()
        let upload = try create(clip.file, size: clip.size, sha256: clip.sha256, client: try stack.client())
        try send([1], of: upload, file: clip.file, client: try stack.client())
        stack.stopCoordinator()
        try stack.startCoordinator()

        let client = try stack.client()
        let heard = LockedValue<(held: Int, parts: Int)?>(nil)
        let starts = LockedValue(0)
        let video = try awaitSync {
            try await client.uploadInParts(file: clip.file, sha256: clip.sha256, sizeBytes: clip.size, club: nil, resume: upload.id,
                                           started: { _ in starts.withLock { $0 += 1 } },
                                           resumed: { held, parts in heard.withLock { $0 = (held, parts) } })
        }
        XCTAssertEqual(heard.withLock { $0?.held }, 1, "part 1 was held, so only parts 2 and 3 were sent")
        XCTAssertEqual(heard.withLock { $0?.parts }, 3)
        XCTAssertEqual(starts.withLock { $0 }, 0, "no new upload was started")
        XCTAssertEqual(video.contentHash, clip.sha256)
        XCTAssertEqual(try awaitSync { try await client.upload(upload.id) }.videoId, video.id)
    }

    /// Parts of other bytes than declared: refused at completion, nothing recorded, nothing left.
    func testBytesThatDoNotMatchTheDeclaredHashAreRefusedAndLeaveNothing() throws {
        let clip = try makeLargeClip()
        let client = try stack.client()
        let claimed = String(repeating: "ab", count: 32)
        let upload = try create(clip.file, size: clip.size, sha256: claimed, client: client)
        try send([1, 2, 3], of: upload, file: clip.file, client: client)
        let refused = apiError { _ = try awaitSync { try await client.completeUpload(upload.id) } }
        XCTAssertEqual(refused?.status, 422)
        XCTAssertEqual(refused?.code, "hash_mismatch")
        XCTAssertTrue(refused?.message.contains(clip.sha256) == true, refused?.message ?? "")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos").rows[0].int("n"), 0, "no video was recorded")
        XCTAssertEqual(try leftovers(), [])
        let store = try store()
        XCTAssertNil(try awaitSync { try await store.size(of: ObjectKey.video(sha256: clip.sha256)) })
        XCTAssertNil(try awaitSync { try await store.size(of: ObjectKey.video(sha256: claimed)) })
        let after = try awaitSync { try await client.upload(upload.id) }
        XCTAssertEqual(after.status, .rejected)
        XCTAssertTrue(after.error?.contains("SHA-256") == true, after.error ?? "")
        XCTAssertEqual(apiError { _ = try awaitSync { try await client.completeUpload(upload.id) } }?.code, "upload_finished")
    }

    /// A part of the wrong length: refused where it arrives (the coordinator) or at completion (a bucket).
    func testAPartOfTheWrongLengthIsNamed() throws {
        let clip = try makeLargeClip()
        let client = try stack.client()
        let upload = try create(clip.file, size: clip.size, sha256: clip.sha256, client: client)
        try send([1, 2], of: upload, file: clip.file, client: client)
        // Part 3 with part 1's bytes: 8 MiB where the rest of the file is expected.
        let target = try awaitSync { try await client.uploadPartTargets(upload.id, numbers: [3]) }.parts[0]
        let wrong = UploadPartTarget(number: 3, url: target.url, offset: 0, bytes: UploadPlan.minimumPartBytes, expiresAt: target.expiresAt)
        if try store().partsComeThroughCoordinator {
            let refused = apiError { try awaitSync { try await client.sendPart(wrong, of: clip.file) } }
            XCTAssertEqual(refused?.status, 400)
            XCTAssertEqual(refused?.code, "part_size")
        } else {
            try awaitSync { try await client.sendPart(wrong, of: clip.file) }
            let refused = apiError { _ = try awaitSync { try await client.completeUpload(upload.id) } }
            XCTAssertEqual(refused?.status, 409)
            XCTAssertEqual(refused?.code, "part_size")
            XCTAssertTrue(refused?.message.contains("part 3 has \(UploadPlan.minimumPartBytes) bytes") == true, refused?.message ?? "")
        }
        XCTAssertEqual(try awaitSync { try await client.upload(upload.id) }.status, .open, "the upload stays open for the right part")
        // S3 replaces a part sent again; rclone's server refuses to ("part 3 has already been streamed
        // to the backend and cannot be replaced with different contents", 501), so there the test ends.
        guard try store().partsComeThroughCoordinator else { return }
        try send([3], of: upload, file: clip.file, client: client)
        XCTAssertEqual(try awaitSync { try await client.completeUpload(upload.id) }.contentHash, clip.sha256)
    }

    func testBadDeclarationsAndPartNumbersAreRefusedWithTheReason() throws {
        let client = try stack.client()
        let hash = String(repeating: "0", count: 64)
        let cases: [(CreateUploadRequest, Int, String)] = [
            (CreateUploadRequest(filename: "a.mp4", sizeBytes: 0, sha256: hash), 400, "sizeBytes"),
            (CreateUploadRequest(filename: "a.mp4", sizeBytes: -5, sha256: hash), 400, "sizeBytes"),
            (CreateUploadRequest(filename: "a.mp4", sizeBytes: 1 << 40, sha256: hash), 413, "larger than the limit"),
            (CreateUploadRequest(filename: "a.mp4", sizeBytes: 10, sha256: "ABC"), 400, "sha256"),
            (CreateUploadRequest(filename: "a\u{0}.mp4", sizeBytes: 10, sha256: hash), 400, "'filename' holds a control character"),
        ]
        for (request, status, words) in cases {
            let refused = apiError { _ = try awaitSync { try await client.createUpload(request) } }
            XCTAssertEqual(refused?.status, status, "\(request)")
            XCTAssertTrue(refused?.message.contains(words) == true, refused?.message ?? "")
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM uploads").rows[0].int("n"), 0, "nothing recorded for a refused upload")

        let upload = try awaitSync { try await client.createUpload(CreateUploadRequest(filename: "b.mp4", sizeBytes: 20 << 20, sha256: hash)) }
        for numbers in [[0], [4], Array(1...101), []] {
            let refused = apiError { _ = try awaitSync { try await client.uploadPartTargets(upload.id, numbers: numbers) } }
            XCTAssertEqual(refused?.status, 400, "\(numbers.prefix(3))")
        }
        let (_, status, _) = try stack.request("PUT", "/v1/uploads/\(upload.id.uuidString.lowercased())/parts/x", key: stack.operatorKey, body: Data([1]))
        XCTAssertEqual(status, 400)

        // Another club's upload answers as a missing one.
        let other = try stack.client(key: try stack.createKey(["--club", "other"]))
        XCTAssertEqual(apiError { _ = try awaitSync { try await other.upload(upload.id) } }?.code, "upload_not_found")
        XCTAssertEqual(apiError { try awaitSync { try await other.abortUpload(upload.id) } }?.code, "upload_not_found")

        // Abandoned: its parts are dropped, and it takes no more.
        try awaitSync { try await client.abortUpload(upload.id) }
        XCTAssertEqual(try leftovers(), [])
        let gone = apiError { _ = try awaitSync { try await client.uploadPartTargets(upload.id, numbers: [1]) } }
        XCTAssertEqual(gone?.status, 410)
        XCTAssertEqual(gone?.code, "upload_gone")
    }

    /// An upload past its expiry is abandoned by the coordinator's sweep (one round at its start):
    /// its parts leave the store.
    func testAnExpiredUploadIsAbandonedAndItsPartsDropped() throws {
        let clip = try makeLargeClip()
        let client = try stack.client()
        let upload = try create(clip.file, size: clip.size, sha256: clip.sha256, client: client)
        try send([1], of: upload, file: clip.file, client: client)
        XCTAssertNotEqual(try leftovers(), [])
        stack.stopCoordinator()
        try stack.db().execute("UPDATE uploads SET expires_at = now() - interval '1 second'")
        try stack.startCoordinator()
        XCTAssertTrue(try stack.waitUntil(timeout: 30) {
            try self.stack.db().query("SELECT status FROM uploads").rows.first?["status"] == UploadStatus.expired.rawValue
        }, "the sweep did not expire the upload")
        // Marked first, then dropped.
        XCTAssertTrue(try stack.waitUntil(timeout: 30) { try self.leftovers().isEmpty }, "the expired upload's parts are still in the store")
        XCTAssertEqual(apiError { _ = try awaitSync { try await client.completeUpload(upload.id) } }?.code, "upload_gone")
    }
}

/// The same, with the videos in a bucket of a real S3 server: the parts go to it by presigned
/// URLs, never through the coordinator.
final class UploadInPartsS3Tests: UploadInPartsTests {
    var server: S3TestServer!
    let bucket = "reelwork-uploads"

    /// Clients reach the store by another name than the coordinator does (as from outside a cluster):
    /// every part URL must carry it, and its signature must hold there.
    override var stackSettings: [String: String] {
        server.environment(bucket: bucket).merging(["REELWORK_S3_PUBLIC_ENDPOINT": publicEndpoint]) { $1 }
    }

    var publicEndpoint: String { "http://localhost:\(server.port)" }

    override func storedFile(ofKey key: String) -> URL {
        server.root.appendingPathComponent(bucket).appendingPathComponent(key)
    }

    override func setUpWithError() throws {
        server = try S3TestServer(buckets: [bucket])
        try super.setUpWithError()
    }

    override func tearDown() {
        super.tearDown()
        server?.stop()
    }

    /// A store that keeps uploads in memory (rclone) loses them when it restarts: a part sent to
    /// it then is refused with NoSuchUpload, the upload ends as gone (410, not "try again"), and a
    /// client resuming it starts it again on its own.
    func testAnUploadWhoseStoreLostItsPartsIsStartedAgain() throws {
        let clip = try makeLargeClip()
        let client = try stack.client()
        let upload = try create(clip.file, size: clip.size, sha256: clip.sha256, client: client)
        try send([1], of: upload, file: clip.file, client: client)
        let target = try awaitSync { try await client.uploadPartTargets(upload.id, numbers: [2]) }.parts[0]
        server.kill()
        try server.start()

        let lost = apiError { try awaitSync { try await client.sendPart(target, of: clip.file) } }
        XCTAssertEqual(lost?.status, 404)
        XCTAssertTrue(lost?.message.contains("NoSuchUpload") == true, lost?.message ?? "")
        let gone = apiError { _ = try awaitSync { try await client.upload(upload.id) } }
        XCTAssertEqual(gone?.status, 410)
        XCTAssertEqual(gone?.code, "upload_gone")
        XCTAssertTrue(gone?.message.contains("no longer holds its parts") == true, gone?.message ?? "")

        let started = LockedValue<[UUID]>([])
        let video = try awaitSync {
            try await client.uploadInParts(file: clip.file, sha256: clip.sha256, sizeBytes: clip.size, club: nil, resume: upload.id,
                                           started: { new in started.withLock { $0.append(new.id) } })
        }
        XCTAssertEqual(video.contentHash, clip.sha256)
        XCTAssertEqual(started.withLock { $0.count }, 1, "one new upload")
        XCTAssertNotEqual(started.withLock { $0.first }, upload.id)
        XCTAssertEqual(try awaitSync { try await client.upload(upload.id) }.status, .expired)
    }

    /// With the store down, an upload of one part still starts (nothing is asked of the store until
    /// its part goes there), a larger one is refused with the reason and nothing recorded, and
    /// asking after an upload says the store failed.
    func testWithTheStoreDownNothingIsHalfRecorded() throws {
        let client = try stack.client()
        let hash = String(repeating: "5", count: 64)
        server.kill()
        defer { try? server.start() }
        let small = try awaitSync { try await client.createUpload(CreateUploadRequest(filename: "small.mp4", sizeBytes: 1000, sha256: hash)) }
        XCTAssertEqual(small.status, .open)
        XCTAssertEqual(small.partsReceived, [])
        let large = apiError { _ = try awaitSync { try await client.createUpload(CreateUploadRequest(filename: "large.mp4", sizeBytes: 20 << 20, sha256: hash)) } }
        XCTAssertEqual(large?.status, 503)
        XCTAssertEqual(large?.code, "storage_unavailable")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM uploads").rows[0].int("n"), 1, "the refused upload left no row")
        let asked = apiError { _ = try awaitSync { try await client.upload(small.id) } }
        XCTAssertEqual(asked?.status, 503)
        XCTAssertTrue(asked?.message.contains("cannot reach the bucket") == true, asked?.message ?? "")
    }

    /// The part URLs point at the store and carry its signature; the coordinator's own part route refuses.
    func testPartsGoStraightToTheBucket() throws {
        let client = try stack.client()
        let upload = try awaitSync { try await client.createUpload(CreateUploadRequest(filename: "c.mp4", sizeBytes: 20 << 20,
                                                                                       sha256: String(repeating: "1", count: 64))) }
        let target = try awaitSync { try await client.uploadPartTargets(upload.id, numbers: [2]) }.parts[0]
        XCTAssertTrue(target.url.hasPrefix(publicEndpoint + "/" + bucket + "/uploads/"), target.url)
        XCTAssertTrue(target.url.contains("X-Amz-Signature="), target.url)
        XCTAssertEqual(target.offset, UploadPlan.minimumPartBytes)
        let (_, status, _) = try stack.request("PUT", "/v1/uploads/\(upload.id.uuidString.lowercased())/parts/1", key: stack.operatorKey,
                                               body: Data(count: 16))
        XCTAssertEqual(status, 409)
    }
}

/// A club may keep only so many uploads open: one runaway client cannot fill the store or the
/// table for the others.
final class OpenUploadsQuotaTests: InProcessTestCase {
    override var stackSettings: [String: String] { ["REELWORK_MAX_OPEN_UPLOADS_PER_CLUB": "3"] }

    func testAClubAtItsOpenUploadsIsRefusedUntilOneEnds() throws {
        let alpha = try stack.client(key: try stack.createKey(["--club", "alpha"]))
        let beta = try stack.client(key: try stack.createKey(["--club", "beta"]))
        let declared = CreateUploadRequest(filename: "a.mp4", sizeBytes: 1000, sha256: String(repeating: "3", count: 64))
        let open = try (0..<3).map { _ in try awaitSync { try await alpha.createUpload(declared) } }
        do {
            _ = try awaitSync { try await alpha.createUpload(declared) }
            XCTFail("a fourth open upload was started")
        } catch ClientError.api(let status, let code, let message) {
            XCTAssertEqual(status, 429)
            XCTAssertEqual(code, "quota_exceeded")
            XCTAssertTrue(message.contains("club alpha has 3 uploads open") && message.contains("REELWORK_MAX_OPEN_UPLOADS_PER_CLUB"), message)
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM uploads").rows[0].int("n"), 3, "the refused one left no row")
        XCTAssertEqual(try awaitSync { try await beta.createUpload(declared) }.status, .open, "another club is not held back")
        try awaitSync { try await alpha.abortUpload(open[0].id) }
        XCTAssertEqual(try awaitSync { try await alpha.createUpload(declared) }.status, .open, "an abandoned upload frees its place")
    }
}
