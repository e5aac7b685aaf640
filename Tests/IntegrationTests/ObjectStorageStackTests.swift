import Foundation
import ObjectStorage
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// Reelwork storing its videos in a bucket of a real S3 server (rclone's `serve s3` on 127.0.0.1):
/// the coordinator puts uploads there, a worker that shares no disk with it reads them from the
/// store by a presigned URL, and the coordinator serves no video bytes.
final class ObjectStorageStackTests: XCTestCase {
    var server: S3TestServer!
    var stack: TestStack!
    let bucket = "reelwork-videos"

    override func setUpWithError() throws {
        server = try S3TestServer(buckets: [bucket])
        stack = try TestStack(settings: server.environment(bucket: bucket))
        try stack.startCoordinator()
    }

    override func tearDown() {
        stack?.shutdown()
        server?.stop()
        super.tearDown()
    }

    /// The objects in the bucket, as the server's folder holds them.
    func objectsInBucket() -> [String] {
        let root = server.root.appendingPathComponent(bucket)
        let walker = FileManager.default.enumerator(atPath: root.path)
        return (walker?.allObjects as? [String] ?? []).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    func testAnUploadGoesToTheBucketAndAWorkerWithoutSharedDiskReadsItFromThere() throws {
        let clip = try stack.makeClip("bucket.mp4", "testsrc2=size=320x240:rate=25")
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        XCTAssertEqual(objectsInBucket(), [ObjectKey.video(sha256: video.contentHash)])
        XCTAssertEqual(try Data(contentsOf: server.root.appendingPathComponent("\(bucket)/\(ObjectKey.video(sha256: video.contentHash))")),
                       try Data(contentsOf: clip))
        XCTAssertFalse(FileManager.default.fileExists(atPath: stack.storageDir.appendingPathComponent("videos/\(video.contentHash.prefix(2))").path),
                       "nothing is kept in the coordinator's folder")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stack.storageDir.appendingPathComponent("tmp").path), [],
                       "the spool's file is gone once stored")

        // A worker on another machine: its storage folder does not exist.
        try stack.startWorker(extraEnvironment: ["REELWORK_STORAGE_DIR": stack.directory.appendingPathComponent("worker-disk").path])
        let sentBefore = try server.bytesWritten()
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis")) }
        let finished = try stack.waitForTerminal(job.id)
        XCTAssertEqual(finished.status, .succeeded, stack.logTail())
        let document = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(document.result["framesDecoded"], .number(50))
        // Read once per attempt: the worker copies the video and probes and decodes the copy
        // (reading it in place, the probe and the decode each read it, with seeks, some 2.5 times
        // its size). An attempt handed back on a loaded machine reads it again.
        let sent = try server.bytesWritten() - sentBefore
        XCTAssertGreaterThanOrEqual(sent, video.sizeBytes)
        XCTAssertLessThan(Double(sent), Double(video.sizeBytes) * Double(finished.attempt) * 1.2 + 20_000,
                          "the store sent \(sent) bytes for a \(video.sizeBytes)-byte video in \(finished.attempt) attempt(s): \(stack.logTail())")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stack.directory.appendingPathComponent("worker-disk/copies").path), [],
                       "the run's copy is removed when it ends")

        // The worker read from the store: the coordinator's content route was never asked.
        let (metrics, status, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/metrics")!, key: stack.operatorKey)
        XCTAssertEqual(status, 200)
        let contentLines = String(decoding: metrics, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix(MetricName.httpRequestDuration) && $0.contains("/content") }
        XCTAssertEqual(contentLines, [], "the coordinator served video content")
    }

    /// A client asking the coordinator for the bytes is sent to the store: a redirect to a
    /// presigned URL, which reads the file without any key of ours.
    func testTheContentRouteRedirectsToAPresignedURL() throws {
        let clip = try stack.makeClip("redirect.mp4", "testsrc2=size=320x240:rate=25")
        let video = try awaitSync { try await self.stack.client().uploadVideo(file: clip) }
        let url = "\(stack.coordinatorURL)/v1/videos/\(video.id.uuidString.lowercased())/content"
        let answer = String(decoding: try Tool.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
                                                                     "-H", "Authorization: Bearer \(stack.operatorKey)", url]), as: UTF8.self)
        let parts = answer.split(separator: " ", maxSplits: 1).map(String.init)
        XCTAssertEqual(parts.first, "307", answer)
        let location = try XCTUnwrap(parts.last)
        XCTAssertTrue(location.hasPrefix("\(server.endpoint)/\(bucket)/videos/"), location)
        XCTAssertTrue(location.contains("X-Amz-Signature="), location)
        let fetched = stack.directory.appendingPathComponent("fetched.mp4")
        _ = try Tool.run("/usr/bin/curl", ["-sf", "-o", fetched.path, location])
        XCTAssertEqual(try Data(contentsOf: fetched), try Data(contentsOf: clip))
    }

    /// `reelwork storage check` lists the bucket: an object no row points to is an orphan, which
    /// `--remove-orphans` removes, and the video's own object stays.
    func testStorageCheckFindsAndRemovesOrphansInTheBucket() throws {
        let clip = try stack.makeClip("kept.mp4", "testsrc2=size=320x240:rate=25")
        let video = try awaitSync { try await self.stack.client().uploadVideo(file: clip) }
        let clean = try stack.run(["storage", "check"])
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertTrue(clean.output.contains("storage bucket \(bucket) at \(server.endpoint): 0 orphaned object(s)"), clean.output)

        let orphanKey = ObjectKey.video(sha256: String(repeating: "0", count: 64))
        let orphan = server.root.appendingPathComponent("\(bucket)/\(orphanKey)")
        try FileManager.default.createDirectory(at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("left by a crash".utf8).write(to: orphan)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: orphan.path)
        let found = try stack.run(["storage", "check"])
        XCTAssertEqual(found.status, 1, found.output)
        XCTAssertTrue(found.stdout.contains("orphan   \(orphanKey)  15 bytes"), found.output)

        let removed = try stack.run(["storage", "check", "--remove-orphans"])
        XCTAssertTrue(removed.stdout.contains("removed  \(orphanKey)"), removed.output)
        XCTAssertEqual(objectsInBucket(), [ObjectKey.video(sha256: video.contentHash)])
        XCTAssertEqual(try stack.run(["storage", "check"]).status, 0)
    }

    /// Parts of an upload that ended without them being dropped (the store failed at that moment)
    /// are found and removed; those of an open upload are left alone.
    func testStorageCheckFindsAndRemovesAbandonedUploads() throws {
        let client = try stack.client()
        let clip = try stack.makeClip("parts.mp4", "testsrc2=size=320x240:rate=25")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: clip.path)[.size] as? NSNumber).int64Value
        let hash = String(repeating: "7", count: 64)
        let uploads = try (0..<2).map { _ in try awaitSync { try await client.createUpload(CreateUploadRequest(filename: "parts.mp4", sizeBytes: size, sha256: hash)) } }
        for upload in uploads {
            let part = try awaitSync { try await client.uploadPartTargets(upload.id, numbers: [1]) }.parts[0]
            try awaitSync { try await client.sendPart(part, of: clip) }
        }
        XCTAssertEqual(try stack.run(["storage", "check"]).status, 0, "open uploads are not abandoned")
        // The first one expired, but its parts are still in the store.
        try stack.db().execute("UPDATE uploads SET status = 'expired' WHERE id = '\(uploads[0].id.uuidString.lowercased())'")
        let key = ObjectKey.upload(id: uploads[0].id)
        let found = try stack.run(["storage", "check"])
        XCTAssertEqual(found.status, 1, found.output)
        XCTAssertTrue(found.stdout.contains("abandoned \(key)  parts of an upload that is expired"), found.output)
        XCTAssertFalse(found.stdout.contains(ObjectKey.upload(id: uploads[1].id)), found.output)

        let removed = try stack.run(["storage", "check", "--remove-orphans"])
        XCTAssertTrue(removed.stdout.contains("removed  \(key)"), removed.output)
        let clean = try stack.run(["storage", "check"])
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertTrue(clean.output.contains("0 abandoned upload(s)"), clean.output)
        XCTAssertEqual(try awaitSync { try await client.upload(uploads[1].id) }.partsReceived, [1], "the open upload keeps its part")
    }

    /// A bucket that does not exist, or credentials the store refuses, stop a coordinator's start
    /// and the storage check with the reason; nothing else is touched.
    func testAMissingBucketOrWrongCredentialsAreNamed() throws {
        let missing = try stack.run(["storage", "check"], extraEnvironment: ["REELWORK_S3_BUCKET": "no-such-bucket"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.output.contains("bucket no-such-bucket at \(server.endpoint) does not exist"), missing.output)
        let refused = try stack.run(["storage", "check"], extraEnvironment: ["AWS_SECRET_ACCESS_KEY": "wrong"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.output.contains("refused our credentials"), refused.output)

        stack.stopCoordinator()
        let coordinator = try stack.spawn(["coordinator"], name: "coordinator-no-bucket", extraEnvironment: ["REELWORK_S3_BUCKET": "no-such-bucket"])
        coordinator.waitUntilExit()
        XCTAssertNotEqual(coordinator.terminationStatus, 0)
        let log = try String(contentsOf: stack.directory.appendingPathComponent("coordinator-no-bucket.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("bucket no-such-bucket at \(server.endpoint) does not exist"), log)
    }

    /// The store down while a job waits: the worker says so once, naming the store and what to
    /// do, claims nothing it could only hand back, spends none of the job's attempts, and runs it
    /// once the store is back.
    func testAStoreThatGoesDownDelaysJobsAndFailsNone() throws {
        let clip = try stack.makeClip("outage.mp4", "testsrc2=size=320x240:rate=25")
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        server.kill()
        try stack.startWorker(extraEnvironment: ["REELWORK_STORAGE_DIR": stack.directory.appendingPathComponent("worker-disk").path])
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis")) }
        XCTAssertTrue(stack.waitUntil(timeout: 30) { self.stack.workerLog(0).contains("[store unreachable] cannot reach the object store at \(self.server.endpoint)") },
                      "the worker never named the store:\n\(stack.logTail())")
        let waiting = try awaitSync { try await client.job(job.id) }
        XCTAssertEqual(waiting.status, .queued, "a job no worker could read stays queued")
        XCTAssertEqual(waiting.attempt, 0)
        try server.start()
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .succeeded, stack.logTail())
        XCTAssertEqual(done.attempt, 1, "no attempt was spent while the store was down")
        XCTAssertTrue(stack.waitUntil(timeout: 10) { self.stack.workerLog(0).contains("[store recovered]") }, stack.logTail())
    }

}

/// A slow store: copying the video takes longer than the stage timeout, and the run is not taken
/// for stuck, because the copy says it is alive chunk by chunk.
final class SlowObjectStoreTests: XCTestCase {
    func testACopySlowerThanTheStageTimeoutIsNotStalled() throws {
        let server = try S3TestServer(buckets: ["slow"], rcloneFlags: ["--bwlimit", "400k"])
        defer { server.stop() }
        // The diagnostic pipeline with its probe: the copy is the only slow part (a model's first
        // load would be silent for longer than this timeout too).
        let stack = try TestStack(settings: server.environment(bucket: "slow").merging(["REELWORK_STAGE_TIMEOUT_SECONDS": "1",
                                                                                         "REELWORK_DIAGNOSTICS": "1"]) { $1 })
        defer { stack.shutdown() }
        try stack.startCoordinator()
        // About 1.5 MB: some four seconds at 400 KiB/s, four stage timeouts.
        let clip = stack.directory.appendingPathComponent("slow.mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-t", "3", "-c:v", "libx264", "-b:v", "4M", "-pix_fmt", "yuv420p", clip.path])
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        XCTAssertGreaterThan(video.sizeBytes, 1_000_000)
        try stack.startWorker(extraEnvironment: ["REELWORK_STORAGE_DIR": stack.directory.appendingPathComponent("worker-disk").path])
        let started = Date()
        let probeFirst: JSONValue = .object(["noop": .object(["probe": .bool(true)])])
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis", options: probeFirst)) }
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .succeeded, stack.logTail())
        XCTAssertEqual(done.attempt, 1, "the first attempt was taken for stuck: \(stack.logTail(lines: 60))")
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 2, "the store was not slow: the test shows nothing")
    }
}
