import Foundation
import Media
import ReelworkCore
import XCTest
@testable import Bowling

/// Small RGB frames with drawn shapes, and the options that go with them.
struct SyntheticFrame {
    static let lane: (UInt8, UInt8, UInt8) = (200, 160, 110)   // wood: h ≈ 33, s 45, v 78
    static let ball: (UInt8, UInt8, UInt8) = (40, 60, 200)     // blue: h 232.5, s 80, v 78
    static let marker: (UInt8, UInt8, UInt8) = (240, 220, 40)  // yellow: h 54, s 83, v 94
    static let ballHSV = JSONValue.object(["h": .number(232.5), "s": .number(80), "v": .number(78)])
    static let markerHSV = JSONValue.object(["h": .number(54), "s": .number(83), "v": .number(94)])

    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int = 320, height: Int = 240, background: (UInt8, UInt8, UInt8) = lane) {
        (self.width, self.height) = (width, height)
        let key = "\(width)x\(height)/\(background)"
        if let cached = Self.backgrounds[key] {
            pixels = cached
        } else {
            pixels = [UInt8](repeating: 0, count: width * height * 3)
            fillRect(x0: 0, y0: 0, x1: width - 1, y1: height - 1, background)
            Self.backgrounds[key] = pixels
        }
    }

    /// Filled backgrounds by size and colour: filling pixel by pixel is slow in debug builds.
    nonisolated(unsafe) private static var backgrounds: [String: [UInt8]] = [:]

    mutating func set(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = (y * width + x) * 3
        (pixels[i], pixels[i + 1], pixels[i + 2]) = c
    }

    /// Pixels whose centres lie within `r` of (cx, cy).
    mutating func disc(_ cx: Double, _ cy: Double, _ r: Double, _ c: (UInt8, UInt8, UInt8) = ball) {
        for y in Int((cy - r).rounded(.down))...Int((cy + r).rounded(.up)) {
            for x in Int((cx - r).rounded(.down))...Int((cx + r).rounded(.up)) {
                let dx = Double(x) - cx, dy = Double(y) - cy
                if dx * dx + dy * dy <= r * r { set(x, y, c) }
            }
        }
    }

    /// A ball with its marker: a smaller disc centred `markerAngle` radians around, 0.6 r out.
    mutating func ballWithMarker(_ cx: Double, _ cy: Double, _ r: Double, markerAngle: Double) {
        disc(cx, cy, r)
        disc(cx + 0.6 * r * cos(markerAngle), cy + 0.6 * r * sin(markerAngle), 0.3 * r, Self.marker)
    }

    mutating func fillRect(x0: Int, y0: Int, x1: Int, y1: Int, _ c: (UInt8, UInt8, UInt8)) {
        for y in y0...y1 { for x in x0...x1 { set(x, y, c) } }
    }

    func withImage<R>(rotation: Int = 0, _ body: (RGBImage) throws -> R) rethrows -> R {
        try RGBImage.withPackedPixels(pixels, width: width, height: height, rotation: rotation, body)
    }
}

/// Options as a job would send them.
enum TestOptions {
    /// A flat calibration for 320×240 frames: foul line at y 230, 3.5 px per foot (pins at y 20),
    /// gutters at x 100 (left, board 39.5) and 220 (right, board 0.5).
    static let flatCalibration = JSONValue.object([
        "pixelsPerFoot": .number(3.5), "pixelsPerBoard": .number(120.0 / 39), "foulLineY": .number(230),
        "arrowsY": .number(230 - 15 * 3.5), "leftGutterX": .number(100), "rightGutterX": .number(220),
    ])

    static func json(hand: String? = nil, color: JSONValue = SyntheticFrame.ballHSV, marker: JSONValue? = nil,
                     calibration: JSONValue? = nil) -> JSONValue {
        var profile: [String: JSONValue] = ["color": color]
        if let marker { profile["markerColor"] = marker }
        var fields: [String: JSONValue] = ["ballProfile": .object(profile)]
        if let hand { fields["hand"] = .string(hand) }
        if let calibration { fields["calibration"] = calibration }
        return .object(fields)
    }

    static func parse(hand: String? = nil, marker: JSONValue? = nil, calibration: JSONValue? = nil) throws -> BowlingOptions {
        try BowlingOptions.parse(json(hand: hand, marker: marker, calibration: calibration))
    }
}

/// Asserts `body` throws exactly `expected`.
func XCTAssertThrows<T>(_ expected: ReelworkError, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) {
    do {
        _ = try body()
        XCTFail("expected \(expected)", file: file, line: line)
    } catch let error as ReelworkError {
        XCTAssertEqual(error, expected, file: file, line: line)
    } catch {
        XCTFail("unexpected \(error)", file: file, line: line)
    }
}
