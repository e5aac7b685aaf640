import Foundation
import ReelworkCore
import TestSupport
import XCTest

@testable import Media

/// Frames no sample needs are left undecoded (`FrameSkipPlanner`): what the decoder hands on and
/// reports must be exactly what it was with every frame decoded.
final class FrameSkipPlannerTests: FixtureTestCase {
    private struct Sample: Equatable {
        var frameIndex: Int
        var sampleIndex: Int
        var time: Double
        /// A hash of the RGB pixels: the same frame, not just the same number. The standard
        /// library's hasher (seeded once a process, so comparable within a run) runs optimised; a
        /// byte loop in this unoptimised test module took most of the suite's time.
        var pixels: Int
    }

    private func decode(
        _ path: String, _ sampling: FrameSampling, dropping: Bool, threads: Int,
        interval: Double = 0.5
    ) throws -> (DecodeReport, [Sample], [Int]) {
        var seen: [Sample] = []
        var progress: [Int] = []
        let options = DecodeOptions(threads: threads, qualitySampleInterval: interval, dropsUnsampledFrames: dropping)
        let report = try VideoDecoder(location: path, options: options)
            .decodeAll(
                sampling: sampling, progress: { progress.append($0) },
                onSample: { frame in
                    var hasher = Hasher()
                    frame.image.packedPixels().withUnsafeBytes { hasher.combine(bytes: $0) }
                    let digest = hasher.finalize()
                    seen.append(Sample(frameIndex: frame.frameIndex, sampleIndex: frame.sampleIndex, time: frame.time, pixels: digest))
                })
        return (report, seen, progress)
    }

    /// Encodes with and without B-frames (phones often make none), H.264 and HEVC, constant and
    /// variable frame rate: each sampled at rates that do and do not divide the frame rate.
    private func encodes() throws -> [(name: String, path: String, nonReference: Bool)] {
        let source = Source.testPattern(seconds: 3, rate: "30")
        return [
            ("x264 default (3 B-frames, pyramid)", try fixtures.video("bframes.mp4", source + Source.h264), true),
            ("x264 B-frames, no pyramid", try fixtures.video("bflat.mp4", source + Source.h264 + ["-x264-params", "b-pyramid=none"]), true),
            ("x264 no B-frames", try fixtures.video("nobframes.mp4", source + Source.h264 + ["-bf", "0"]), false),
            (
                "x265 default",
                try fixtures.video("hevc.mp4", source + ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error"]), true
            ),
            (
                "x264 variable frame rate",
                try fixtures.video(
                    "vfr.mp4",
                    Source.testPattern(seconds: 3, rate: "30")
                        + ["-vf", "select='lt(t\\,1)+not(mod(n\\,2))'", "-fps_mode", "vfr"] + Source.h264), true
            )
        ]
    }

    func testTheSameFramesAreHandedOnWithAndWithoutDroppingFrames() throws {
        for encode in try encodes() {
            for rate in [10.0, 7.0, 12.5] {
                for threads in [1, 0] {
                    let label = "\(encode.name), \(rate) fps, \(threads) decoder threads"
                    let (allReport, all, allProgress) = try decode(encode.path, .fps(rate), dropping: false, threads: threads)
                    let (report, kept, progress) = try decode(encode.path, .fps(rate), dropping: true, threads: threads)
                    XCTAssertEqual(kept, all, label)
                    XCTAssertEqual(allReport.framesDropped, 0, label)
                    var same = report
                    same.framesDropped = 0
                    XCTAssertEqual(same, allReport, "frame count, quality samples, damage: \(label)")
                    XCTAssertEqual(progress.last, allProgress.last, label)
                    print("\(label): \(report.framesDropped) of \(report.framesDecoded) frames dropped")
                    if encode.nonReference {
                        // Many unsampled frames of these encodes are B-frames nothing refers to.
                        XCTAssertGreaterThan(report.framesDropped, allReport.framesDecoded / 6, label)
                    } else {
                        XCTAssertEqual(report.framesDropped, 0, "every frame is a reference: \(label)")
                    }
                }
            }
        }
    }

    /// Every frame a quality sample (interval 0) or every frame handed on: nothing can be dropped.
    func testNothingIsDroppedWhenEveryFrameIsNeeded() throws {
        let path = try fixtures.video("bframes.mp4", Source.testPattern(seconds: 3, rate: "30") + Source.h264)
        XCTAssertEqual(try decode(path, .fps(10), dropping: true, threads: 0, interval: 0).0.framesDropped, 0)
        XCTAssertEqual(try decode(path, .fps(30), dropping: true, threads: 0).0.framesDropped, 0)
        XCTAssertEqual(try decode(path, .everyNth(3), dropping: true, threads: 0).0.framesDropped, 0)
        XCTAssertEqual(try decode(path, .everyFrame, dropping: true, threads: 0).0.framesDropped, 0)
    }

    /// The planner alone: a frame is droppable only after an earlier frame of the same slot, in
    /// whatever order the packets come; dropped frames are counted before the next frame out.
    func testAFrameIsDroppedOnlyAfterAnEarlierFrameOfItsSlot() {
        // Timestamps in seconds × 30 (a 30 fps stream), slots of 1/10 s: 0–2, 3–5, 6–8, …
        var planner = FrameSkipPlanner(slots: [{ Int(($0 * 10).rounded(.down)) }], seconds: { Double($0) / 30 }, enabled: true)
        // Decode order of I0 P3 B1 B2 P6 B4 B5: B1 and B2 follow 0 in slot 0; B4 comes before 5.
        let order: [Int64] = [0, 3, 1, 2, 6, 4, 5]
        XCTAssertEqual(order.map { planner.mayDrop(pts: $0) }, [false, false, true, true, false, true, true])
        XCTAssertEqual(planner.frameOut(pts: 0, timestamp: 0), 0)
        XCTAssertEqual(planner.frameOut(pts: 3, timestamp: 3), 2, "1 and 2 were dropped")
        XCTAssertEqual(planner.frameOut(pts: 6, timestamp: 6), 2)
        XCTAssertEqual(planner.finish(), 0)
        XCTAssertEqual(planner.dropped, 4)
        // A frame out with a timestamp other than its packet's stops the dropping.
        XCTAssertEqual(planner.frameOut(pts: 9, timestamp: 10), 0)
        XCTAssertFalse(planner.mayDrop(pts: 10))
    }
}
