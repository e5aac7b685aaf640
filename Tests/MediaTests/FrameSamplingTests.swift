import Foundation
@testable import Media
import ReelworkCore
import TestSupport
import XCTest

/// Sampled decoding: which frames are handed on, their timestamps, rotation, buffer reuse, and bad input.
final class FrameSamplingTests: FixtureTestCase {

    private struct Sample: Equatable {
        var frameIndex: Int
        var sampleIndex: Int
        var time: Double
        var width: Int
        var height: Int
    }

    private func samples(_ path: String, _ sampling: FrameSampling, threads: Int = 0) throws -> (DecodeReport, [Sample]) {
        var seen: [Sample] = []
        let report = try VideoDecoder(location: path, options: DecodeOptions(threads: threads))
            .decodeAll(sampling: sampling, progress: { _ in }) { frame in
                seen.append(Sample(frameIndex: frame.frameIndex, sampleIndex: frame.sampleIndex, time: frame.time,
                                   width: frame.image.width, height: frame.image.height))
            }
        return (report, seen)
    }

    /// Presentation times of every frame, as ffprobe reads them from the stream.
    private func frameTimes(_ path: String) throws -> [Double] {
        let json = try Tool.ffprobe(["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", path])
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        return try frames.map { try XCTUnwrap(($0["best_effort_timestamp_time"] as? String).flatMap(Double.init)) }
    }

    func testTenPerSecondFromThirtyTakesEveryThirdFrameWithItsTimestamp() throws {
        let path = try fixtures.video("thirty.mp4", Source.testPattern(seconds: 2, rate: "30") + Source.h264)
        let (report, seen) = try samples(path, .fps(10))
        XCTAssertEqual(report.framesDecoded, 60)
        XCTAssertEqual(report.framesSampled, 20)
        XCTAssertEqual(seen.map(\.frameIndex), Array(stride(from: 0, to: 60, by: 3)))
        XCTAssertEqual(seen.map(\.sampleIndex), Array(0..<20))
        for (k, sample) in seen.enumerated() {
            XCTAssertEqual(sample.time, Double(k) / 10, accuracy: 1e-9)
            XCTAssertEqual([sample.width, sample.height], [320, 240])
        }
        XCTAssertEqual(FrameSampling.fps(10).plannedFrames(frameCount: 60, duration: 2), 20)
    }

    /// A variable-frame-rate file is sampled by time: the first frame at or after each tenth of a
    /// second, wherever the frames fall.
    func testVariableFrameRateIsSampledByTimestamp() throws {
        let path = try fixtures.video("vfr.mp4", Source.testPattern(seconds: 3, rate: "30")
            + ["-vf", "select='lt(t\\,1)+not(mod(n\\,3))'", "-fps_mode", "vfr"] + Source.h264)
        let times = try frameTimes(path)
        let start = try XCTUnwrap(times.first)
        var expected: [Int] = []
        var next = 0.0
        for (index, time) in times.enumerated() where time - start + 1e-6 >= next {
            expected.append(index)
            next = ((time - start + 1e-6) * 10).rounded(.down) / 10 + 0.1
        }
        let (report, seen) = try samples(path, .fps(10))
        XCTAssertEqual(report.framesDecoded, times.count)
        XCTAssertEqual(seen.map(\.frameIndex), expected)
        for sample in seen {
            XCTAssertEqual(sample.time, times[sample.frameIndex] - start, accuracy: 1e-6)
        }
        // The first second has 30 frames, the rest 10 per second: 10 + 20 samples either way.
        XCTAssertEqual(seen.count, 30)
    }

    func testEveryNthFrameAndEveryFrame() throws {
        let path = try fixtures.video("fifty.mp4", Source.testPattern() + Source.h264)
        let (_, nth) = try samples(path, .everyNth(4))
        XCTAssertEqual(nth.map(\.frameIndex), Array(stride(from: 0, to: 50, by: 4)))
        XCTAssertEqual(nth.map(\.time), nth.map { Double($0.frameIndex) / 25 })
        let (report, all) = try samples(path, .everyFrame)
        XCTAssertEqual(all.count, 50)
        XCTAssertEqual(report.framesSampled, 50)
        XCTAssertEqual(FrameSampling.everyNth(4).plannedFrames(frameCount: 50, duration: 2), 13)
        // Fewer frames per second than asked for: every frame.
        XCTAssertEqual(try samples(path, .fps(100)).1.count, 50)
    }

    func testSamplingDoesNotChangeTheDecodeReport() throws {
        let path = try fixtures.video("fifty.mp4", Source.testPattern() + Source.h264)
        let plain = try VideoDecoder(location: path).decodeAll { _ in }
        var sampled = try samples(path, .fps(10)).0
        XCTAssertEqual(sampled.framesSampled, 20)
        sampled.framesSampled = 0
        sampled.framesDropped = 0 // FrameSkipPlannerTests
        XCTAssertEqual(sampled, plain)
    }

    /// Every sampled frame is converted into the same buffer: nothing is allocated per frame.
    func testSampledFramesReuseOneRGBBuffer() throws {
        let path = try fixtures.video("fifty.mp4", Source.testPattern() + Source.h264)
        var origins = Set<UnsafePointer<UInt8>>()
        _ = try VideoDecoder(location: path).decodeAll(sampling: .everyFrame, progress: { _ in }) { frame in
            origins.insert(frame.image.origin)
        }
        XCTAssertEqual(origins.count, 1)
    }

    /// The picture comes out as a player shows it: compared with ffmpeg's own autorotated output.
    func testRotationIsAppliedToSampledFrames() throws {
        let marked = try fixtures.video("marked.mp4", ["-f", "lavfi", "-i",
            "color=black:size=320x240:rate=25,drawbox=x=0:y=0:w=60:h=60:color=white:t=fill,drawbox=x=300:y=0:w=20:h=240:color=red:t=fill",
            "-t", "1"] + Source.h264)
        for rotate in ["90", "180", "270"] {
            let rotated = try fixtures.video("rotated\(rotate).mp4", ["-i", marked, "-c", "copy", "-metadata:s:v", "rotate=\(rotate)"])
            let reference = try Tool.run("ffmpeg", ["-v", "error", "-i", rotated, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            var pixels: [UInt8] = []
            var size = (0, 0)
            _ = try VideoDecoder(location: rotated).decodeAll(sampling: .everyNth(1000), progress: { _ in }) { frame in
                pixels = frame.image.packedPixels()
                size = (frame.image.width, frame.image.height)
            }
            let facts = try MediaProbe.probe(rotated)
            let turned = facts.rotation == 90 || facts.rotation == 270
            XCTAssertEqual([size.0, size.1], turned ? [240, 320] : [320, 240], "rotate=\(rotate)")
            XCTAssertEqual(pixels.count, reference.count)
            let differences = zip(pixels, reference).map { abs(Int($0) - Int($1)) }
            let mean = Double(differences.reduce(0, +)) / Double(differences.count)
            // Same orientation: only colour-conversion rounding differs (a turned picture would differ by ~100).
            XCTAssertLessThan(mean, 2, "rotate=\(rotate): mean difference \(mean)")
        }
    }

    func testADamagedPacketIsSkippedAndSamplingGoesOn() throws {
        let source = try fixtures.video("mjpeg.mov", Source.testPattern(seconds: 1) + ["-c:v", "mjpeg", "-q:v", "5"])
        let json = try Tool.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=pos,size", source])
        let packet = try XCTUnwrap((json["packets"] as? [[String: Any]])?[5])
        let position = try XCTUnwrap((packet["pos"] as? String).flatMap { Int($0) })
        let size = try XCTUnwrap((packet["size"] as? String).flatMap { Int($0) })
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        bytes.replaceSubrange(position..<(position + size), with: Data(count: size))
        let path = try fixtures.write(bytes, to: "mjpeg-damaged.mov")

        let (report, seen) = try samples(path, .everyFrame)
        XCTAssertEqual(report.damagedPackets, 1)
        XCTAssertEqual(seen.count, 24)
        XCTAssertFalse(seen.contains { abs($0.time - 0.2) < 1e-6 }, "frame 5 (0.2 s) is the damaged one")
        XCTAssertTrue(seen.contains { abs($0.time - 0.24) < 1e-6 })
    }

    func testAnUndecodableStreamFailsAsInvalidInput() throws {
        let source = try fixtures.video("mjpeg.mov", Source.testPattern(seconds: 1) + ["-c:v", "mjpeg", "-q:v", "5"])
        let json = try Tool.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=pos,size", source])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        for packet in try XCTUnwrap(json["packets"] as? [[String: Any]]) {
            let position = try XCTUnwrap((packet["pos"] as? String).flatMap { Int($0) })
            let size = try XCTUnwrap((packet["size"] as? String).flatMap { Int($0) })
            bytes.replaceSubrange(position..<(position + size), with: Data(count: size))
        }
        let path = try fixtures.write(bytes, to: "mjpeg-all-damaged.mov")
        var called = false
        assertMediaError(.invalidInput, containing: ["no frame could be decoded"]) {
            try VideoDecoder(location: path).decodeAll(sampling: .fps(10), progress: { _ in }) { _ in called = true }
        }
        XCTAssertFalse(called)
    }

    private struct Stop: Error {}

    func testAnErrorFromTheCallbackStopsDecoding() throws {
        let path = try fixtures.video("fifty.mp4", Source.testPattern() + Source.h264)
        var calls = 0
        XCTAssertThrowsError(try VideoDecoder(location: path).decodeAll(sampling: .everyFrame, progress: { _ in }) { _ in
            calls += 1
            if calls == 3 { throw Stop() }
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(calls, 3)
    }
}
