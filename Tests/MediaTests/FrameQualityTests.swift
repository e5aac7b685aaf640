import Foundation
import Media
import ReelworkCore
import XCTest

/// Quality samples from real decodes, fed to ReelworkCore's FrameQuality rules.
final class FrameQualityTests: FixtureTestCase {

    private func samples(_ path: String, interval: Double = 0.5) throws -> [FrameQualitySample] {
        try VideoDecoder(location: path, options: DecodeOptions(qualitySampleInterval: interval)).decodeAll { _ in }.qualitySamples
    }

    func testNormalClipHasNoWarnings() throws {
        let path = try fixtures.video("normal.mp4", Source.testPattern() + Source.h264)
        let samples = try samples(path)
        // 25 fps: the first frame at or after 0, 0.5, 1.0 and 1.5 s.
        XCTAssertEqual(samples.map(\.time), [0, 0.52, 1.0, 1.52].map { $0 }, accuracy: 1e-9)
        for sample in samples {
            XCTAssertTrue((40...250).contains(sample.meanLuminance), "\(sample)")
            XCTAssertGreaterThanOrEqual(sample.variance, 100, "\(sample)")
        }
        XCTAssertEqual(FrameQuality.warnings(for: samples), [])
    }

    func testBlackClipIsLensBlocked() throws {
        let samples = try samples(try fixtures.video("black.mp4", Source.color("black") + Source.h264))
        XCTAssertEqual(samples.count, 4)
        for sample in samples {
            // Limited-range black (16) is expanded to full-range 0.
            XCTAssertLessThan(sample.meanLuminance, 2, "\(sample)")
            XCTAssertLessThan(sample.variance, 1, "\(sample)")
        }
        XCTAssertEqual(FrameQuality.warnings(for: samples).map(\.code), ["lens_blocked"])
    }

    func testDarkTexturedClipIsTooDark() throws {
        // Luma squeezed to a quarter of its range: dark, but the pattern is still visible.
        let path = try fixtures.video("dark.mp4", Source.testPattern() + ["-vf", "lutyuv=y='16+(val-16)*0.25'"] + Source.h264)
        let samples = try samples(path)
        XCTAssertEqual(samples.count, 4)
        for sample in samples {
            XCTAssertLessThan(sample.meanLuminance, 40, "\(sample)")
            XCTAssertGreaterThanOrEqual(sample.variance, 100, "\(sample)")
        }
        let warnings = FrameQuality.warnings(for: samples)
        XCTAssertEqual(warnings.map(\.code), ["too_dark"])
        XCTAssertEqual(warnings.first?.frames, 4)
        XCTAssertEqual(warnings.first?.firstTime, 0)
    }

    func testWhiteClipIsOverexposed() throws {
        let samples = try samples(try fixtures.video("white.mp4", Source.color("white") + Source.h264))
        for sample in samples {
            // Limited-range white (235) is expanded to 255; unexpanded it would not pass 250.
            XCTAssertGreaterThan(sample.meanLuminance, 250, "\(sample)")
        }
        XCTAssertEqual(FrameQuality.warnings(for: samples).map(\.code), ["overexposed"])
    }

    /// Full-range video is measured as it is; limited-range video is expanded to 0–255.
    func testLumaRangeFollowsTheFrame() throws {
        let fullRange = ["-vf", "scale=out_range=pc,format=yuv420p", "-color_range", "pc"]
        // VP9 marks full range only in the frame's color_range (pix_fmt stays yuv420p).
        let vp9 = try fixtures.video("full-range.webm", Source.color("0x1e1e1e", seconds: 1) + fullRange + ["-c:v", "libvpx-vp9", "-deadline", "realtime"])
        // H.264's decoder reports full range as the yuvj420p pixel format.
        let h264 = try fixtures.video("full-range.mp4", Source.color("0x1e1e1e", seconds: 1) + fullRange + ["-c:v", "libx264"])
        let limited = try fixtures.video("limited-range.mp4", Source.color("0x1e1e1e", seconds: 1) + Source.h264)
        for path in [vp9, h264, limited] {
            let samples = try samples(path)
            XCTAssertEqual(samples.count, 2, path)
            // 0x1e = 30 in RGB is luma 30 at full range, whichever way the file stores it.
            for sample in samples { XCTAssertEqual(sample.meanLuminance, 30, accuracy: 1.5, path) }
        }
    }

    /// A 1280×720 frame is measured at 320×180; its statistics stay those of the picture.
    func testLargeFramesAreMeasuredDownscaled() throws {
        let small = try samples(try fixtures.video("gray-small.mp4", ["-f", "lavfi", "-i", "color=0x808080:size=320x180:rate=25", "-t", "1"] + Source.h264))
        let large = try samples(try fixtures.video("gray-large.mp4", ["-f", "lavfi", "-i", "color=0x808080:size=1280x720:rate=25", "-t", "1"] + Source.h264))
        XCTAssertEqual(large.count, 2)
        XCTAssertEqual(large.first?.meanLuminance ?? 0, small.first?.meanLuminance ?? -1, accuracy: 1)
        XCTAssertEqual(large.first?.meanLuminance ?? 0, 128, accuracy: 3)
    }

    func testSampleIntervalDecidesHowManyFramesAreMeasured() throws {
        let path = try fixtures.video("normal.mp4", Source.testPattern() + Source.h264)
        XCTAssertEqual(try samples(path, interval: 1).map(\.time), [0, 1])
        XCTAssertEqual(try samples(path, interval: 0).count, 50) // every frame
    }
}

private func XCTAssertEqual(_ actual: [Double], _ expected: [Double], accuracy: Double,
                            file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.count, expected.count, "\(actual) vs \(expected)", file: file, line: line)
    for (a, e) in zip(actual, expected) {
        XCTAssertEqual(a, e, accuracy: accuracy, "\(actual) vs \(expected)", file: file, line: line)
    }
}
