import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// Stills for result pictures: the frame shown at a time (found by seeking to the key frame before
/// it and decoding forward), scaled, turned as a player shows it, and encoded as PNG.
final class FrameGrabberTests: FixtureTestCase {
    /// ffmpeg's own decode of `path` at `seconds`, as RGB24 at `size`, after the PNG round trip.
    func reference(_ path: String, at seconds: Double, size: String) throws -> [UInt8] {
        [UInt8](try Tool.run("ffmpeg", ["-v", "error", "-ss", String(seconds), "-i", path, "-frames:v", "1",
                                        "-s", size, "-sws_flags", "area", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
    }

    /// The still's pixels, decoded from its PNG by ffmpeg (an independent PNG reader).
    func pixels(of still: StillFrame) throws -> [UInt8] {
        let file = fixtures.path("still-\(UUID().uuidString.prefix(8)).png")
        try Data(still.png).write(to: URL(fileURLWithPath: file))
        return [UInt8](try Tool.run("ffmpeg", ["-v", "error", "-i", file, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
    }

    func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    func testTheStillIsTheFrameShownAtThatTimeEvenFarFromAKeyFrame() throws {
        // One key frame every 40 frames (1.6 s): 1.2 s is reached by decoding forward from 0.
        let path = try fixtures.video("gop40.mp4", Source.testPattern(seconds: 4) + Source.h264 + ["-g", "40", "-bf", "2"])
        // One grabber, back and forth in time: each seek starts the decoder afresh.
        let grabber = try FrameGrabber(location: path)
        for seconds in [1.2, 3.52, 0.0, 2.0] {
            let still = try grabber.still(atSeconds: seconds, maxWidth: 1280)
            XCTAssertEqual([still.width, still.height], [320, 240], "never scaled up")
            XCTAssertEqual(still.time, seconds, accuracy: 0.02, "the frame at \(seconds) s")
            XCTAssertEqual(Array(still.png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG file")
            let shown = try pixels(of: still)
            let right = meanDifference(shown, try reference(path, at: seconds, size: "320x240"))
            let neighbour = meanDifference(shown, try reference(path, at: seconds + 0.4, size: "320x240"))
            XCTAssertLessThan(right, 2, "\(seconds) s: only colour rounding differs from ffmpeg's frame")
            XCTAssertGreaterThan(neighbour, right * 3, "\(seconds) s: another frame would look different")
        }
    }

    func testAStillIsScaledToTheWidthAskedForAndTurnedAsAPlayerShowsIt() throws {
        let path = try fixtures.video("wide.mp4", Source.testPattern(seconds: 1) + Source.h264)
        let small = try FrameGrabber(location: path).still(atSeconds: 0.5, maxWidth: 80)
        XCTAssertEqual([small.width, small.height], [80, 60])
        XCTAssertLessThan(meanDifference(try pixels(of: small), try reference(path, at: 0.5, size: "80x60")), 6)

        let rotated = try fixtures.video("turned90.mp4", ["-i", path, "-c", "copy", "-metadata:s:v", "rotate=90"])
        let turned = try FrameGrabber(location: rotated).still(atSeconds: 0.5, maxWidth: 120)
        XCTAssertEqual([turned.width, turned.height], [120, 160], "a portrait clip stays portrait")
        func ffmpeg(_ filter: String) throws -> [UInt8] {
            [UInt8](try Tool.run("ffmpeg", ["-v", "error", "-ss", "0.5", "-i", rotated, "-frames:v", "1", "-vf", filter,
                                            "-sws_flags", "area", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        }
        let shown = try pixels(of: turned)
        let upright = meanDifference(shown, try ffmpeg("scale=120:160"))
        let upsideDown = meanDifference(shown, try ffmpeg("scale=120:160,hflip,vflip"))
        // Scaling before or after turning rounds differently; a picture turned the wrong way differs far more.
        XCTAssertLessThan(upright, 10, "turned the way ffmpeg turns it")
        XCTAssertGreaterThan(upsideDown, upright * 3, "not upside down")
    }

    /// A photo is a one-frame video (an archery end): named `.jpg` or `.png`, FFmpeg's image2
    /// demuxer reads it, and reads nothing after a seek, so a fresh grabber does not seek to the start.
    func testAPhotoNamedAsOneIsItsOwnFrame() throws {
        for name in ["photo.jpg", "photo.png"] {
            let path = fixtures.path(name)
            try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", path])
            let still = try FrameGrabber(location: path).still(atSeconds: 0, maxWidth: 1280)
            XCTAssertEqual([still.width, still.height], [320, 240], name)
            XCTAssertEqual(still.time, 0, name)
        }
    }

    func testATimePastTheEndShowsTheLastFrameAndABrokenFileSaysSo() throws {
        let path = try fixtures.video("short.mp4", Source.testPattern(seconds: 1) + Source.h264)
        let last = try FrameGrabber(location: path).still(atSeconds: 30, maxWidth: 320)
        XCTAssertEqual(last.time, 0.96, accuracy: 0.001, "the last of 25 frames")
        XCTAssertEqual(try FrameGrabber(location: path).still(atSeconds: .nan, maxWidth: 320).time, 0, "a time that is not a number means the start")
        let garbage = try fixtures.write(pseudoRandomBytes(count: 4096), to: "garbage.mp4")
        XCTAssertThrowsError(try FrameGrabber(location: garbage).still(atSeconds: 0, maxWidth: 100)) { error in
            XCTAssertEqual((error as? MediaError)?.kind, .invalidInput, "\(error)")
        }
    }
}
