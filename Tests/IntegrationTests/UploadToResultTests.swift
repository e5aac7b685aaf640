import Foundation
import ReelworkClient
import ReelworkCore
import Sports
import Store
import Tennis
import TestSupport
import XCTest

/// One clip from upload to results through real PostgreSQL, Redis, FFmpeg and reelwork processes.
final class UploadToResultTests: CoordinatorTestCase {
    func testUploadedClipSucceedsWithFactsMatchingFFprobe() throws {
        try stack.startWorker()
        let clip = try stack.makeClip("clip.mp4", "testsrc2=size=640x360:rate=25", seconds: 3)
        let reference = try Tool.reference(clip.path)
        let client = try stack.client()

        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        XCTAssertEqual(video.sizeBytes, Int64(try FileManager.default.attributesOfItem(atPath: clip.path)[.size] as! Int))
        XCTAssertEqual(video.facts.frameCount, reference.nbFrames)
        XCTAssertEqual(video.facts.durationSeconds, reference.duration, accuracy: 0.01)
        XCTAssertEqual([video.facts.width, video.facts.height], [reference.width, reference.height])

        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis", club: "north")) }
        XCTAssertEqual(job.status, .queued)
        XCTAssertEqual(job.club, "north")
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .succeeded, stack.logTail())
        XCTAssertEqual(done.attempt, 1)

        let doc = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(doc.video?.frameCount, reference.nbFrames)
        XCTAssertEqual(doc.video?.width, reference.width)
        XCTAssertEqual(doc.video?.height, reference.height)
        XCTAssertEqual(doc.video?.codec, reference.codec)
        XCTAssertEqual(doc.video?.durationSeconds ?? 0, reference.duration, accuracy: 0.01)
        XCTAssertEqual(doc.result["framesDecoded"], .number(Double(reference.decodedFrames)))
        XCTAssertEqual(doc.stages.map(\.name), StageName.plan(for: .tennis).map(\.rawValue))
        XCTAssertTrue(doc.stages.allSatisfy { $0.status == .succeeded })
        XCTAssertEqual(doc.warnings, [], "a bright test pattern must not warn")
    }

    /// MPEG-TS stores no frame count: the upload's figure is an estimate and says so; once a job
    /// decoded the stream, the video and the result carry the decoder's count.
    func testAFrameCountTheContainerDoesNotStoreIsAnEstimateUntilTheDecoderCountsIt() throws {
        try stack.startWorker()
        let clip = stack.directory.appendingPathComponent("clip.ts")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2.05", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                         "-f", "mpegts", clip.path])
        let decoded = try Tool.reference(clip.path).decodedFrames
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        XCTAssertEqual(video.facts.frameCountSource, .estimate)

        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis")) }
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded, stack.logTail())
        let document = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(document.video?.frameCount, decoded)
        XCTAssertEqual(document.video?.frameCountSource, .decoded)
        let counted = try awaitSync { try await client.video(video.id) }
        XCTAssertEqual(counted.facts.frameCount, decoded, "the video's record now holds the fact")
        XCTAssertEqual(counted.facts.frameCountSource, .decoded)
    }

    func testSameBytesUploadedTwiceGiveTheSameVideo() throws {
        let clip = try stack.makeClip("twice.mp4", "testsrc2=size=320x240:rate=25")
        let client = try stack.client()
        let first = try awaitSync { try await client.uploadVideo(file: clip) }
        let second = try awaitSync { try await client.uploadVideo(file: clip) }
        XCTAssertEqual(first.id, second.id)
        XCTAssertEqual(first.contentHash, try sha256sum(clip))
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos").rows[0]["n"], "1")
        XCTAssertEqual(try storedFiles().count, 1)
    }

    func testEveryStageRowHasTimingsAndJobsShowPrintsThem() throws {
        try stack.startWorker()
        let clip = try stack.makeClip("show.mp4", "testsrc2=size=320x240:rate=25")
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis")) }
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded)

        let rows = try stack.db().query("SELECT name, status, started_at, finished_at, frames_done FROM job_stages WHERE job_id = $1 ORDER BY position", [job.id]).rows
        let planned = StageName.plan(for: .tennis).map(\.rawValue)
        XCTAssertEqual(rows.map { $0["name"] }, planned)
        XCTAssertEqual(Array(planned.prefix(2)), ["probe", "decode"])
        for row in rows {
            XCTAssertEqual(row["status"], "succeeded")
            let started = try row.date("started_at"), finished = try row.date("finished_at")
            XCTAssertLessThanOrEqual(started, finished)
        }
        XCTAssertEqual(rows[1]["frames_done"], "50")

        let shown = try stack.run(["jobs", "show", job.id.uuidString.lowercased()])
        XCTAssertEqual(shown.status, 0, shown.output)
        XCTAssertTrue(shown.stdout.contains("status    succeeded"), shown.stdout)
        XCTAssertNotNil(shown.stdout.range(of: #"probe\s+succeeded\s+100%"#, options: .regularExpression), shown.stdout)
        XCTAssertNotNil(shown.stdout.range(of: #"decode\s+succeeded\s+100%\s+50/50\s+\S+\s+\d+\.\d+s"#, options: .regularExpression), shown.stdout)

        let json = try stack.run(["jobs", "show", job.id.uuidString.lowercased(), "--format", "json"])
        let decoded = try ReelworkJSON.decoder.decode(JobView.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(decoded.stages.map(\.status), Array(repeating: .succeeded, count: planned.count))
        XCTAssertTrue(decoded.stages.allSatisfy { ($0.durationSeconds ?? -1) >= 0 })
    }

    func testWorkerStreamsTheVideoFromTheCoordinatorOverHTTP() throws {
        // A worker on another machine has no shared storage: it reads /v1/videos/{id}/content with ranges.
        try stack.startWorker(extraEnvironment: ["REELWORK_VIDEO_SOURCE": "http",
                                                 "REELWORK_STORAGE_DIR": stack.directory.appendingPathComponent("worker-disk").path])
        let clip = try stack.makeClip("remote.mp4", "testsrc2=size=320x240:rate=25")
        let client = try stack.client()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        let job = try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: "tennis")) }
        let done = try stack.waitForTerminal(job.id)
        XCTAssertEqual(done.status, .succeeded, stack.logTail())
        let doc = try awaitSync { try await client.results(job.id) }
        XCTAssertEqual(doc.result["framesDecoded"], .number(50))
    }

    func testContentEndpointServesByteRanges() throws {
        let clip = try stack.makeClip("range.mp4", "testsrc2=size=320x240:rate=25")
        let bytes = try Data(contentsOf: clip)
        let video = try awaitSync { try await self.stack.client().uploadVideo(file: clip) }
        let url = URL(string: "\(stack.coordinatorURL)/v1/videos/\(video.id.uuidString.lowercased())/content")!

        let (part, partStatus, partHeaders) = try HTTP.get(url, key: stack.operatorKey, headers: ["Range": "bytes=100-199"])
        XCTAssertEqual(partStatus, 206)
        XCTAssertEqual(part, bytes[100...199])
        XCTAssertEqual(partHeaders["Content-Range"], "bytes 100-199/\(bytes.count)")

        let (tail, _, _) = try HTTP.get(url, key: stack.operatorKey, headers: ["Range": "bytes=-10"])
        XCTAssertEqual(tail, bytes.suffix(10))
        let (whole, wholeStatus, _) = try HTTP.get(url, key: stack.operatorKey)
        XCTAssertEqual(wholeStatus, 200)
        XCTAssertEqual(whole, bytes)
        let (_, badStatus, badHeaders) = try HTTP.get(url, key: stack.operatorKey, headers: ["Range": "bytes=\(bytes.count + 5)-"])
        XCTAssertEqual(badStatus, 416)
        XCTAssertEqual(badHeaders["Content-Range"], "bytes */\(bytes.count)")
    }

    func storedFiles() throws -> [String] {
        let videos = stack.storageDir.appendingPathComponent("videos")
        let enumerator = FileManager.default.enumerator(at: videos, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }.map(\.path)
    }

    func sha256sum(_ url: URL) throws -> String {
        String(String(decoding: try Tool.run("sha256sum", [url.path]), as: UTF8.self).prefix(64))
    }
}
