import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// A phone stores a portrait photo as a landscape JPEG with an EXIF Orientation; FFmpeg's JPEG
/// decoder reports it only on the decoded picture. The probe, the decoder (archery's input) and the
/// still for pictures all turn the photo as a viewer shows it, the way the ffmpeg CLI does.
final class PhotoOrientationTests: FixtureTestCase {
    /// A 320×240 JPEG made by ffmpeg, with an EXIF APP1 segment holding `orientation` put after SOI
    /// (nil: no EXIF at all).
    private func photo(_ name: String, orientation: UInt16?) throws -> String {
        let plain = fixtures.path("plain-\(name)")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", "-q:v", "3", plain])
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: plain))
        guard let orientation else { return try fixtures.write(jpeg, to: name) }
        // TIFF, little-endian: IFD0 at 8 with one entry, Orientation (0x0112) SHORT × 1.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0]
        tiff += [UInt8(orientation & 0xFF), UInt8(orientation >> 8), 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return try fixtures.write(jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2), to: name)
    }

    /// ffmpeg's own decode of the photo, turned by its CLI (autorotate), as RGB24.
    private func ffmpegShows(_ path: String) throws -> [UInt8] {
        [UInt8](try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
    }

    private func firstFrame(_ path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let decoder = try VideoDecoder(location: path)
        var pixels: [UInt8] = []
        _ = try decoder.decodeAll(sampling: .everyFrame, progress: { _ in }, onSample: { frame in
            if pixels.isEmpty { pixels = frame.image.packedPixels() }
        })
        return (decoder.displaySize.width, decoder.displaySize.height, pixels)
    }

    private func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    func testAPortraitPhoneJPEGIsTurnedByItsEXIFOrientation() throws {
        let portrait = try photo("portrait.jpg", orientation: 6)
        XCTAssertEqual(try MediaProbe.probe(portrait).rotation, 90, "EXIF 6: turned 90° clockwise to view")
        let decoded = try firstFrame(portrait)
        XCTAssertEqual([decoded.width, decoded.height], [240, 320], "portrait, as a viewer shows it")
        let shown = try ffmpegShows(portrait)
        let same = meanDifference(decoded.pixels, shown)
        XCTAssertLessThan(same, 2, "turned the way the ffmpeg CLI turns it")
        // The other quarter turn has the same size: it must look clearly different.
        let otherWay = [UInt8](try Tool.run("ffmpeg", ["-v", "error", "-noautorotate", "-i", portrait, "-vf", "transpose=2",
                                                      "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        XCTAssertGreaterThan(meanDifference(decoded.pixels, otherWay), same * 5 + 10, "not turned the wrong way")

        let still = try FrameGrabber(location: portrait).still(atSeconds: 0, maxWidth: 1280)
        XCTAssertEqual([still.width, still.height], [240, 320], "the result picture's still is portrait too")
    }

    func testEveryQuarterTurnIsReadAndAPhotoWithoutOneStaysAsStored() throws {
        for (orientation, clockwise) in [(1, 0), (3, 180), (6, 90), (8, 270)] as [(UInt16, Int)] {
            let path = try photo("o\(orientation).jpg", orientation: orientation)
            XCTAssertEqual(try MediaProbe.probe(path).rotation, clockwise, "EXIF \(orientation)")
            let size = try firstFrame(path)
            XCTAssertEqual([size.width, size.height], clockwise % 180 == 0 ? [320, 240] : [240, 320], "EXIF \(orientation)")
        }
        let plain = try photo("plain.jpg", orientation: nil)
        XCTAssertEqual(try MediaProbe.probe(plain).rotation, 0)
        XCTAssertEqual(try firstFrame(plain).pixels.count, 320 * 240 * 3)
    }
}
