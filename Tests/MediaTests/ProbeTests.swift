import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// MediaProbe and VideoDecoder facts and frame counts, checked against ffprobe.
final class ProbeTests: FixtureTestCase {

    private func constantRate() throws -> String {
        try fixtures.video("cfr.mp4", Source.testPattern() + Source.h264)
    }

    /// Compares every fact with ffprobe's answer for the same file.
    private func assertFactsMatchFFprobe(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let facts = try MediaProbe.probe(path)
        let reference = try Tool.reference(path)
        XCTAssertEqual(facts.width, reference.width, file: file, line: line)
        XCTAssertEqual(facts.height, reference.height, file: file, line: line)
        XCTAssertEqual(facts.codec, reference.codec, file: file, line: line)
        XCTAssertEqual(facts.fps, reference.avgFrameRate, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(facts.durationSeconds, reference.duration, accuracy: 0.01, file: file, line: line)
        if let declared = reference.nbFrames {
            XCTAssertEqual(facts.frameCount, declared, file: file, line: line)
        } else {
            XCTAssertEqual(facts.frameCount, Int((reference.duration * reference.avgFrameRate).rounded()), file: file, line: line)
        }
        // The decoder reports the same facts as the probe.
        XCTAssertEqual(try VideoDecoder(location: path).facts, facts, file: file, line: line)
    }

    private func assertDecodedCountMatchesFFprobe(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try VideoDecoder(location: path).decodeAll { _ in }
        XCTAssertEqual(report.framesDecoded, try Tool.reference(path).decodedFrames, file: file, line: line)
        XCTAssertEqual(report.damagedPackets, 0, file: file, line: line)
    }

    func testConstantRateH264MatchesFFprobe() throws {
        let path = try constantRate()
        try assertFactsMatchFFprobe(path)
        try assertDecodedCountMatchesFFprobe(path)
        let facts = try MediaProbe.probe(path)
        XCTAssertEqual(facts.frameCount, 50)
        XCTAssertEqual(facts.codec, "h264")
        XCTAssertEqual(facts.container, "mov,mp4,m4a,3gp,3g2,mj2")
        XCTAssertEqual(facts.rotation, 0)
    }

    func testNTSCRateMatchesFFprobe() throws {
        let path = try fixtures.video("ntsc.mp4", Source.testPattern(seconds: 3, rate: "30000/1001") + Source.h264)
        try assertFactsMatchFFprobe(path)
        try assertDecodedCountMatchesFFprobe(path)
        XCTAssertEqual(try MediaProbe.probe(path).fps, 30000.0 / 1001.0, accuracy: 1e-6)
    }

    /// 30 fps for the first second, then every third frame (10 fps).
    private func variableRate() throws -> String {
        try fixtures.video("vfr.mp4", Source.testPattern(seconds: 3, rate: "30")
            + ["-vf", "select='lt(t\\,1)+not(mod(n\\,3))'", "-fps_mode", "vfr"] + Source.h264)
    }

    func testVariableFrameRateMatchesFFprobe() throws {
        let path = try variableRate()
        try assertFactsMatchFFprobe(path)
        try assertDecodedCountMatchesFFprobe(path)
    }

    /// Sample times come from each frame's timestamp, not from frame index ÷ average fps
    /// (which for this clip would give times that are no frame's time).
    func testVariableFrameRateSampleTimesAreFrameTimestamps() throws {
        let path = try variableRate()
        let json = try Tool.ffprobe(["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", path])
        let frameTimes = try XCTUnwrap(json["frames"] as? [[String: Any]])
            .compactMap { ($0["best_effort_timestamp_time"] as? String).flatMap(Double.init) }
        let samples = try VideoDecoder(location: path).decodeAll { _ in }.qualitySamples
        XCTAssertEqual(samples.count, 6) // 0, 0.5, 1.0, 1.5, 2.0, 2.5 in a 2.93 s clip
        for sample in samples {
            XCTAssertTrue(frameTimes.contains { abs($0 - sample.time) < 1e-6 }, "\(sample.time) is no frame's time")
        }
        XCTAssertEqual(samples.map(\.time), samples.map(\.time).sorted())
    }

    /// Matroska declares no frame count: it is derived from duration × fps.
    func testMatroskaWithoutDeclaredFrameCount() throws {
        let path = try fixtures.video("cfr.mkv", Source.testPattern() + Source.h264)
        XCTAssertNil(try Tool.reference(path).nbFrames)
        try assertFactsMatchFFprobe(path)
        try assertDecodedCountMatchesFFprobe(path)
        XCTAssertEqual(try MediaProbe.probe(path).container, "matroska,webm")
    }

    /// ffmpeg 5.1 writes `rotate=90` as a display matrix that rotates the picture 90°
    /// counterclockwise (ffprobe's side-data "rotation: 90", av_display_rotation_get's sign),
    /// so players, ffmpeg's own autorotate included, turn it 270° clockwise.
    func testRotationIsClockwiseDegreesFromTheDisplayMatrix() throws {
        // A white square in the top-left corner of a black picture shows which way ffmpeg turns it.
        let marked = try fixtures.video("marked.mp4", ["-f", "lavfi", "-i",
            "color=black:size=320x240:rate=25,drawbox=x=0:y=0:w=60:h=60:color=white:t=fill", "-t", "1"] + Source.h264)
        let rotated = try fixtures.video("rotated.mp4", ["-i", marked, "-c", "copy", "-metadata:s:v", "rotate=90"])
        XCTAssertEqual(try Tool.reference(rotated).sideDataRotation, 90)
        XCTAssertEqual(try MediaProbe.probe(rotated).rotation, 270)
        try assertFactsMatchFFprobe(rotated)

        // After ffmpeg's autorotate (240×320) the square is bottom-left: a 270° clockwise turn.
        let gray = try Tool.run("ffmpeg", ["-v", "error", "-i", rotated, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        XCTAssertEqual(gray.count, 240 * 320)
        XCTAssertGreaterThan(gray[(320 - 10) * 240 + 10], 200, "bottom-left is the marker")
        XCTAssertLessThan(gray[10 * 240 + 10], 50, "top-left is black")

        let upsideDown = try fixtures.video("rotated180.mp4", ["-i", marked, "-c", "copy", "-metadata:s:v", "rotate=180"])
        XCTAssertEqual(try MediaProbe.probe(upsideDown).rotation, 180)
        let quarter = try fixtures.video("rotated270.mp4", ["-i", marked, "-c", "copy", "-metadata:s:v", "rotate=270"])
        XCTAssertEqual(try Tool.reference(quarter).sideDataRotation, -90)
        XCTAssertEqual(try MediaProbe.probe(quarter).rotation, 90)
    }

    /// Verification of a complete file passes (no false "truncated" reports) and returns the same facts.
    func testVerifyPacketsAcceptsCompleteFiles() throws {
        let faststart = try fixtures.video("faststart.mp4", Source.testPattern() + Source.h264 + ["-movflags", "+faststart"])
        let withAudio = try fixtures.video("with-audio.mp4", Source.testPattern()
            + ["-f", "lavfi", "-i", "sine=frequency=440", "-t", "2"] + Source.h264 + ["-c:a", "aac"])
        for path in [try constantRate(), faststart, try variableRate(), withAudio] {
            XCTAssertEqual(try MediaProbe.probe(path, verifyPackets: true), try MediaProbe.probe(path), path)
        }
        // The audio stream is ignored for the facts and the decode.
        XCTAssertEqual(try MediaProbe.probe(withAudio).frameCount, 50)
        XCTAssertEqual(try VideoDecoder(location: withAudio).decodeAll { _ in }.framesDecoded, 50)
    }
}
