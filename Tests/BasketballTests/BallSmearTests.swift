@testable import Basketball
import XCTest

/// A blob's box and area give back the disc and the sweep that made it.
final class BallSmearTests: XCTestCase {
    func testAStillBallIsADiscWithNoSweep() throws {
        let smear = try XCTUnwrap(BallSmear(boxWidth: 20, boxHeight: 20, area: Double.pi * 100))
        XCTAssertEqual(smear.diameter, 20, accuracy: 0.01)
        XCTAssertEqual(smear.sweep, 0, accuracy: 0.1)
    }

    func testASidewaysSmearIsABallWideAndItsSweepLong() throws {
        // A 10 px ball swept 20 px to the side: a 30 × 10 box.
        let smear = try XCTUnwrap(BallSmear(boxWidth: 30, boxHeight: 10, area: 10 * 20 + Double.pi * 25))
        XCTAssertEqual(smear.diameter, 10, accuracy: 0.01)
        XCTAssertEqual(smear.sweep, 20, accuracy: 0.05)
    }

    func testADiagonalSmear() throws {
        // A 10 px ball swept 20 px at 45°: the box is 20/√2 + 10 on each side.
        let side = 20 / 2.0.squareRoot() + 10
        let smear = try XCTUnwrap(BallSmear(boxWidth: side, boxHeight: side, area: 10 * 20 + Double.pi * 25))
        XCTAssertEqual(smear.diameter, 10, accuracy: 0.01)
        XCTAssertEqual(smear.sweep, 20, accuracy: 0.05)
    }

    func testWhatNoBallCanMakeIsRefused() {
        XCTAssertNil(BallSmear(boxWidth: 20, boxHeight: 20, area: 400), "a full square is fuller than any capsule")
        XCTAssertNil(BallSmear(boxWidth: 100, boxHeight: 10, area: 10 * 90 + Double.pi * 25), "a stripe nine balls long")
        XCTAssertNil(BallSmear(boxWidth: 0, boxHeight: 10, area: 5))
        XCTAssertNil(BallSmear(boxWidth: 10, boxHeight: 10, area: .nan))
    }

    /// A ball smeared sideways to two and a half times its width (no round blob) is still found as
    /// the ball, a ball wide, at the smear's middle.
    func testTheBlobFinderTakesASmearedBallForTheBall() throws {
        let (width, height) = (320, 180)
        var pixels = [UInt8](repeating: 90, count: width * height * 3)
        // A 30 px rim: the ball is 0.26 rim widths in radius, about 8 px; swept 24 px sideways.
        let radius = 7.8, from = 100.0, to = 124.0, y = 90.0
        for py in 0..<height {
            for px in 0..<width {
                let x = min(max(Double(px), from), to)
                guard (Double(px) - x) * (Double(px) - x) + (Double(py) - y) * (Double(py) - y) <= radius * radius else { continue }
                let i = (py * width + px) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (230, 110, 35)
            }
        }
        let frame = try XCTUnwrap(PackedRGBFrame(width: width, height: height, pixels: pixels))
        let finder = BallBlobFinder(width: width, height: height, color: BasketballOptions.defaultBallColor, hueTolerance: 15, frameRate: 30)
        finder.setRim(RimLine(left: FramePoint(x: 200, y: 40), right: FramePoint(x: 230, y: 40)))
        finder.find(in: frame)
        let ball = try XCTUnwrap(finder.candidates.first, "the smear was not taken for a ball")
        XCTAssertEqual(finder.candidates.count, 1)
        XCTAssertEqual(ball.x, (from + to) / 2, accuracy: 1.5)
        XCTAssertEqual(ball.y, y, accuracy: 1.5)
        XCTAssertEqual(ball.radius, radius, accuracy: 1.5)
    }
}
