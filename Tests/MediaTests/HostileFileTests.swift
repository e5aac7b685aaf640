import FuzzSupport
import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// Files made to hurt: sizes near Int64.max, damaged real files by the thousand, a picture larger
/// than the limit, a server that never answers. Every one must end in a MediaError (or a clean
/// result) in bounded time: a trap here would end this test process, so reaching the asserts is
/// itself part of the proof.
final class HostileFileTests: FixtureTestCase {

    /// The upload that stopped the coordinator: `offset + boxSize` overflowed in the container check.
    func testABoxSizedNearInt64MaxIsATruncatedVideoNotATrap() throws {
        // The ftyp box takes the first 32 bytes: any size past Int64.max - 32 overflows the sum.
        for size in [UInt64(Int64.max), UInt64(Int64.max) - 8, UInt64(Int64.max) - 31] {
            let data = DamagedFiles.hugeBoxSize(size: size)
            XCTAssertEqual(data.count, 100)
            let path = try fixtures.write(data, to: "huge-box-\(size).mp4")
            assertMediaError(.invalidInput, containing: ["truncated video: the file ends at byte 100 but its 'mdat' box declares a size of \(size) bytes"]) {
                try MediaProbe.probe(path, verifyPackets: true)
            }
            assertMediaError(.invalidInput, containing: ["truncated video"]) { try VideoDecoder(location: path) }
        }
        // Just below the overflow, the sum is still a byte position.
        let below = try fixtures.write(DamagedFiles.hugeBoxSize(size: UInt64(Int64.max) - 32), to: "huge-box-below.mp4")
        assertMediaError(.invalidInput, containing: ["declares data up to byte \(Int64.max)"]) { try MediaProbe.probe(below) }
        // UInt64.max reads as a negative Int64: not a box structure at all.
        let path = try fixtures.write(DamagedFiles.hugeBoxSize(size: .max), to: "huge-box-max.mp4")
        assertMediaError(.invalidInput, containing: ["not a video file"]) { try MediaProbe.probe(path) }
    }

    /// Thousands of damaged real files through probe (as upload runs it) and a full decode (as a
    /// job and `analyze` run it). Counts what each got, for the record.
    func testThousandsOfDamagedFilesEachEndInAnErrorOrAResult() throws {
        let small = Source.testPattern(seconds: 1, rate: "10", size: "160x120")
        let sources: [(String, [String])] = [
            ("small-index-at-end.mp4", small + Source.h264),
            ("small-faststart.mp4", small + Source.h264 + ["-movflags", "+faststart"]),
            ("small-fragmented.mp4", small + Source.h264 + ["-movflags", "frag_keyframe+empty_moov"]),
        ]
        var outcomes: [String: Int] = [:]
        var slowest = (seconds: 0.0, label: "")
        let guards = MediaGuards(maxPixels: InputLimits().maxPixels)
        for (index, (name, arguments)) in sources.enumerated() {
            let original = try Data(contentsOf: URL(fileURLWithPath: try fixtures.video(name, arguments)))
            for damaged in DamagedFiles.cases(of: original, name: name, count: 500, seed: UInt64(index + 1)) {
                let path = try fixtures.write(damaged.data, to: "case.mp4")
                let started = Date()
                let outcome: String
                do {
                    _ = try MediaProbe.probe(path, verifyPackets: true, guards: guards)
                    let report = try VideoDecoder(location: path, options: DecodeOptions(threads: 1, guards: guards)).decodeAll { _ in }
                    outcome = report.damagedPackets > 0 ? "decoded, damaged packets skipped" : "decoded"
                } catch let error as MediaError {
                    XCTAssertFalse(error.message.isEmpty, damaged.label)
                    XCTAssertNotEqual(error.kind, .transient, "\(damaged.label): a local file is never a network failure")
                    outcome = "refused: \(error.kind.rawValue)"
                } catch {
                    XCTFail("\(damaged.label): not a MediaError: \(error)")
                    outcome = "other error"
                }
                let seconds = Date().timeIntervalSince(started)
                if seconds > slowest.seconds { slowest = (seconds, damaged.label) }
                outcomes[outcome, default: 0] += 1
            }
        }
        let total = outcomes.values.reduce(0, +)
        print("damaged files: \(total) cases: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")); slowest \(String(format: "%.2f", slowest.seconds)) s (\(slowest.label))")
        XCTAssertGreaterThanOrEqual(total, 1500)
        XCTAssertLessThan(slowest.seconds, 10, "every case ends in bounded time: \(slowest.label)")
        XCTAssertGreaterThan(outcomes.filter { $0.key.hasPrefix("refused") }.values.reduce(0, +), 400, "much of the damage is caught")
    }

    /// A stream with no frames, an audio-only file and a file whose only "video" is a cover image.
    func testContainersWithoutAPlayableVideoStreamAreRefused() throws {
        let noFrames = try fixtures.video("no-frames.mp4", Source.testPattern() + Source.h264 + ["-frames:v", "0"])
        assertMediaError(.invalidInput, containing: []) {
            _ = try MediaProbe.probe(noFrames, verifyPackets: true)
            return try VideoDecoder(location: noFrames).decodeAll { _ in }
        }
        let audio = try fixtures.video("audio.m4a", ["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac"])
        assertMediaError(.invalidInput, containing: ["no video stream (found: audio)"]) { try MediaProbe.probe(audio) }
    }

    /// A picture past the 8K limit: the decoders that probe and decode it refuse the frame
    /// (FFmpeg's max_pixels), so neither allocates for it; the facts still say its size for the
    /// limit check to refuse. Without the guard the same frame decodes.
    func testAPictureLargerThanTheLimitIsNeverDecoded() throws {
        let large = try fixtures.video("8192x4608.avi", ["-f", "lavfi", "-i", "color=black:size=8192x4608:rate=1", "-frames:v", "1",
                                                         "-c:v", "mjpeg", "-q:v", "31"])
        let guards = MediaGuards(maxPixels: InputLimits().maxPixels)
        let facts = try MediaProbe.probe(large, guards: guards)
        XCTAssertEqual([facts.width, facts.height], [8192, 4608])
        XCTAssertThrowsError(try InputLimits().check(facts)) { error in
            XCTAssertTrue("\(error)".contains("the picture is 8192×4608, larger than the limit of 7680×4320 (REELWORK_MAX_FRAME_SIZE)"), "\(error)")
        }
        assertMediaError(.invalidInput, containing: ["no frame could be decoded"]) {
            try VideoDecoder(location: large, options: DecodeOptions(guards: guards)).decodeAll { _ in }
        }
        XCTAssertEqual(try VideoDecoder(location: large).decodeAll { _ in }.framesDecoded, 1, "the guard, not the file, refused it")

        // A few kilobytes claiming 16K (15360×8640): the header's size is what the check sees.
        let small = try Data(contentsOf: URL(fileURLWithPath: try fixtures.video("16x16.avi", ["-f", "lavfi", "-i", "color=black:size=16x16:rate=1",
                                                                                               "-frames:v", "1", "-c:v", "mjpeg"])))
        let claiming = try fixtures.write(try DamagedFiles.claimingPictureSize(small, width: 15360, height: 8640), to: "16k.avi")
        let claimed = try MediaProbe.probe(claiming, verifyPackets: true, guards: guards)
        XCTAssertEqual([claimed.width, claimed.height], [15360, 8640])
        XCTAssertThrowsError(try InputLimits().check(claimed))
    }

    /// A server that accepts the connection and never answers: without a stop check the read
    /// would wait for the 30 s network timeout; with one, it ends when the run is told to stop.
    func testAStopRequestEndsAReadThatWouldHangOnASilentServer() throws {
        let silent = try SilentListener()
        let url = "http://127.0.0.1:\(silent.port)/clip.mp4"
        let stopAt = Date().addingTimeInterval(0.5)
        let guards = MediaGuards(shouldStop: { Date() >= stopAt })
        let started = Date()
        XCTAssertThrowsError(try MediaProbe.probe(url, guards: guards)) { error in
            XCTAssertTrue("\(error)".contains("Immediate exit requested"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "stopped, not timed out")
        XCTAssertThrowsError(try VideoDecoder(location: url, options: DecodeOptions(guards: MediaGuards(shouldStop: { true }))))
    }

    /// Frame counts of containers that store none are estimates, and say so.
    func testContainersWithoutAFrameCountGiveAnEstimateMarkedAsOne() throws {
        let ts = try fixtures.video("clip.ts", Source.testPattern(seconds: 2) + Source.h264 + ["-f", "mpegts"])
        let facts = try MediaProbe.probe(ts)
        XCTAssertEqual(facts.frameCountSource, .estimate)
        let mp4 = try fixtures.video("counted.mp4", Source.testPattern(seconds: 2) + Source.h264)
        XCTAssertEqual(try MediaProbe.probe(mp4).frameCountSource, .container)
        XCTAssertEqual(try MediaProbe.probe(mp4).frameCount, 50)
    }

    /// Timestamps near Int64's ends: the decoder's time arithmetic must not overflow.
    func testExtremeTimestampsDecodeWithoutATrap() throws {
        let clip = try fixtures.video("far-future.mkv", Source.testPattern(seconds: 1) + Source.h264
                                      + ["-output_ts_offset", "9000000000000"])
        let report = try VideoDecoder(location: clip).decodeAll(sampling: .fps(10), progress: { _ in }, onSample: { frame in
            XCTAssertTrue(frame.time.isFinite)
        })
        XCTAssertEqual(report.framesDecoded, 25)
    }
}
