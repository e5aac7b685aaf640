import Foundation
import Media
import ReelworkCore
import XCTest

/// LumaMeter and RGBConverter share one libswscale helper: on the same frames they must agree.
final class PixelScalerTests: FixtureTestCase {
    /// A 300 × 200 clip (rows of 300 gray and 900 RGB bytes, stored 320 and 960 apart, so the
    /// stride is not the width) is measured at full size, so each quality sample's mean luma is the mean of
    /// the frame's BT.601 luma (the matrix RGBConverter picks for untagged video), computed here
    /// from the RGB frame. Limited range, and full range marked only in the frame (VP9): a wrong
    /// plane, stride, range or buffer in either user breaks the agreement.
    func testLumaMeterAndRGBConverterAgreeOnTheSameFrames() throws {
        // A third of the brightness: far from mid-grey, where a range applied twice or not at all shows most.
        let dark = "lutrgb=r=val/3:g=val/3:b=val/3"
        let limited = try fixtures.video("scaler-300x200.mp4", Source.testPattern(size: "300x200") + ["-vf", dark] + Source.h264)
        let fullRange = try fixtures.video("scaler-300x200-full-range.webm", Source.testPattern(size: "300x200") +
            ["-vf", "\(dark),scale=out_range=pc,format=yuv420p", "-color_range", "pc", "-c:v", "libvpx-vp9", "-deadline", "realtime"])
        for path in [limited, fullRange] {
            var lumaFromRGB: [(time: Double, luma: Double)] = []
            let report = try VideoDecoder(location: path, options: DecodeOptions(qualitySampleInterval: 0.5))
                .decodeAll(sampling: .everyFrame, progress: { _ in }) { frame in
                    let pixels = frame.image.packedPixels()
                    var sum = 0.0
                    for index in stride(from: 0, to: pixels.count, by: 3) {
                        sum += 0.299 * Double(pixels[index]) + 0.587 * Double(pixels[index + 1]) + 0.114 * Double(pixels[index + 2])
                    }
                    lumaFromRGB.append((frame.time, sum / Double(pixels.count / 3)))
                }
            XCTAssertEqual(report.qualitySamples.count, 4, path)
            for sample in report.qualitySamples {
                let fromRGB = try XCTUnwrap(lumaFromRGB.first { abs($0.time - sample.time) < 1e-6 }?.luma, "\(path) at \(sample.time)")
                // Each path rounds to 8 bits on its own (and RGB clips at 0 and 255): about a level apart at most.
                XCTAssertEqual(sample.meanLuminance, fromRGB, accuracy: 1.5, "\(path) at \(sample.time)")
            }
        }
    }
}
