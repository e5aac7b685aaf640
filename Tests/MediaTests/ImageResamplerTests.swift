import Foundation
import Media
import ReelworkCore
import XCTest

/// ImageResampler against a plain, slow, float64 statement of the rule in tools/models/README.md.
final class ImageResamplerTests: XCTestCase {
    /// A deterministic test picture.
    private func picture(width: Int, height: Int) -> [UInt8] {
        (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: ($0 * 7919 + ($0 / 3) * 31) % 251) }
    }

    /// The rule, written out: output pixel o samples s = start + (o + 0.5) · step − 0.5 on both axes.
    private func reference(_ pixels: [UInt8], width: Int, height: Int, outWidth: Int, outHeight: Int,
                           left: Double, top: Double, stepX: Double, stepY: Double, clamp: Bool) -> [[Double]] {
        func value(_ x: Int, _ y: Int, _ c: Int) -> Double {
            if clamp { return Double(pixels[(min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 3 + c]) }
            guard x >= 0, x < width, y >= 0, y < height else { return 0 }
            return Double(pixels[(y * width + x) * 3 + c])
        }
        var out: [[Double]] = []
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                var sx = left + (Double(ox) + 0.5) * stepX - 0.5, sy = top + (Double(oy) + 0.5) * stepY - 0.5
                if clamp { sx = max(sx, 0); sy = max(sy, 0) }
                let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                let fx = sx - Double(x0), fy = sy - Double(y0)
                out.append((0..<3).map { c in
                    let top = value(x0, y0, c) * (1 - fy) + value(x0, y0 + 1, c) * fy
                    let bottom = value(x0 + 1, y0, c) * (1 - fy) + value(x0 + 1, y0 + 1, c) * fy
                    return (top * (1 - fx) + bottom * fx) / 255
                })
            }
        }
        return out
    }

    private func read(_ buffer: [Float], _ index: Int, _ c: Int, count: Int, layout: PixelLayout) -> Double {
        Double(layout == .planar ? buffer[c * count + index] : buffer[index * 3 + c])
    }

    func testResizeFollowsTheRuleInBothLayouts() {
        let (w, h, ow, oh) = (37, 23, 16, 12)
        let pixels = picture(width: w, height: h)
        let expected = reference(pixels, width: w, height: h, outWidth: ow, outHeight: oh, left: 0, top: 0,
                                 stepX: Double(w) / Double(ow), stepY: Double(h) / Double(oh), clamp: true)
        for layout in [PixelLayout.planar, .interleaved] {
            let buffer = FixedBuffer<Float>(count: 3 * ow * oh, repeating: -1)
            RGBImage.withPackedPixels(pixels, width: w, height: h) { image in
                ImageResampler().resize(image, into: buffer, width: ow, height: oh, layout: layout)
            }
            let output = buffer.array
            for index in 0..<(ow * oh) {
                for c in 0..<3 {
                    XCTAssertEqual(read(output, index, c, count: ow * oh, layout: layout), expected[index][c], accuracy: 1e-5, "\(layout) \(index) \(c)")
                }
            }
        }
    }

    func testEnlargingRepeatsTheEdges() {
        let pixels = picture(width: 5, height: 4)
        let buffer = FixedBuffer<Float>(count: 3 * 20 * 16, repeating: -1)
        RGBImage.withPackedPixels(pixels, width: 5, height: 4) { image in
            ImageResampler().resize(image, into: buffer, width: 20, height: 16, layout: .interleaved)
        }
        let output = buffer.array
        let expected = reference(pixels, width: 5, height: 4, outWidth: 20, outHeight: 16, left: 0, top: 0, stepX: 0.25, stepY: 0.25, clamp: true)
        for index in 0..<(20 * 16) {
            for c in 0..<3 { XCTAssertEqual(Double(output[index * 3 + c]), expected[index][c], accuracy: 1e-5) }
        }
        XCTAssertEqual(output[0], Float(pixels[0]) / 255, "the corner pixel repeats")
    }

    /// A crop reaching past every edge is black outside the picture.
    func testCropOutsideThePictureIsBlack() {
        let (w, h) = (30, 20)
        let pixels = picture(width: w, height: h)
        let (left, top, side, size) = (-12.3, -7.6, 45.5, 16)
        var output = [Float](repeating: -1, count: 3 * size * size)
        let buffer = FixedBuffer<Float>(count: 3 * size * size, repeating: -1)
        RGBImage.withPackedPixels(pixels, width: w, height: h) { image in
            ImageResampler().crop(image, left: left, top: top, side: side, into: &output, size: size, layout: .interleaved)
            ImageResampler().crop(image, left: left, top: top, side: side, into: buffer, size: size, layout: .interleaved)
        }
        XCTAssertEqual(buffer.array, output, "an array and an owned buffer get the same crop")
        let step = side / Double(size)
        let expected = reference(pixels, width: w, height: h, outWidth: size, outHeight: size, left: left, top: top,
                                 stepX: step, stepY: step, clamp: false)
        for index in 0..<(size * size) {
            for c in 0..<3 { XCTAssertEqual(Double(output[index * 3 + c]), expected[index][c], accuracy: 1e-5, "\(index) \(c)") }
        }
        XCTAssertEqual(output[0], 0, "top-left of the crop is outside the picture")
        XCTAssertEqual(output[(size * size - 1) * 3], 0, "so is the bottom-right")
    }

    func testLetterboxCentresAndPads() {
        let pixels = picture(width: 200, height: 100)
        let buffer = FixedBuffer<Float>(count: 3 * 64 * 64, repeating: -1)
        let placement = RGBImage.withPackedPixels(pixels, width: 200, height: 100) { image in
            ImageResampler().letterbox(image, into: buffer, width: 64, height: 64, layout: .planar)
        }
        let output = buffer.array
        XCTAssertEqual(placement, LetterboxPlacement(left: 0, top: 16, width: 64, height: 32, sourcePerInputPixel: 200.0 / 64))
        XCTAssertEqual(output[0], 114 / 255, "padding above")
        XCTAssertEqual(output[2 * 64 * 64 - 1], 114 / 255, "padding below (green plane's last pixel)")
        let expected = reference(pixels, width: 200, height: 100, outWidth: 64, outHeight: 32, left: 0, top: 0,
                                 stepX: 200.0 / 64, stepY: 100.0 / 32, clamp: true)
        XCTAssertEqual(Double(output[16 * 64]), expected[0][0], accuracy: 1e-5, "the picture starts at row 16")
    }

    /// Rotated views read the same bytes turned as a player turns them.
    func testRotatedViewsTurnClockwise() {
        // 3 × 2 picture; pixel value = its index, in the red channel.
        let pixels: [UInt8] = (0..<6).flatMap { [UInt8($0), 0, 0] }
        func view(_ rotation: Int) -> [[UInt8]] {
            RGBImage.withPackedPixels(pixels, width: 3, height: 2, rotation: rotation) { image in
                (0..<image.height).map { y in (0..<image.width).map { x in image.pixel(x: x, y: y).red } }
            }
        }
        XCTAssertEqual(view(0), [[0, 1, 2], [3, 4, 5]])
        XCTAssertEqual(view(90), [[3, 0], [4, 1], [5, 2]])
        XCTAssertEqual(view(180), [[5, 4, 3], [2, 1, 0]])
        XCTAssertEqual(view(270), [[2, 5], [1, 4], [0, 3]])
        XCTAssertEqual(RGBImage.withPackedPixels(pixels, width: 3, height: 2, rotation: 90) { $0.packedPixels() }.enumerated()
            .filter { $0.offset % 3 == 0 }.map(\.element), [3, 0, 4, 1, 5, 2])
    }
}
