import Foundation
import ReelworkCore
import XCTest
@testable import Bowling

/// A hooking shot rendered through a pinhole camera (a sphere drawn as the disc it projects to),
/// measured through the whole module with a four-point calibration from the same camera.
final class PerspectiveShotTests: XCTestCase {
    static let camera = PinholeCamera(heightFt: 5, behindFt: 14, pitchDeg: 5, focal: 1500, cx: 320, cy: 60)
    static let ballRadiusFt = 4.25 / 12
    /// Breakpoint board 8 at 40 ft; board 17.9 at the foul line, 10.5 at the pins.
    static func board(_ d: Double) -> Double { 8 + 0.00625 * (d - 40) * (d - 40) }

    /// Where the camera sees the ball's centre, and its radius in pixels.
    static func ballInImage(board: Double, distanceFt d: Double) -> (x: Double, y: Double, radius: Double) {
        let c = camera, phi = c.pitchDeg * .pi / 180
        let x = (20 - board) * 41.5 / 39 / 12 - c.lateralFt
        let dy = ballRadiusFt - c.heightFt, dz = d + c.behindFt
        let zc = -dy * sin(phi) + dz * cos(phi), yc = dy * cos(phi) + dz * sin(phi)
        return (c.cx + c.focal * x / zc, c.cy - c.focal * yc / zc, c.focal * ballRadiusFt / zc)
    }

    func testHookingShotThroughAPinholeCamera() throws {
        let options = try TestOptions.parse(calibration: Self.camera.lanePoints())
        let tracker = try BallTracker(options: options, frameWidth: 640, frameHeight: 480, frameRate: 60)
        let speed = 25.0   // ft/s = 17.05 mph
        for i in 0..<170 {
            var frame = SyntheticFrame(width: 640, height: 480)
            let d = 0.5 + speed * Double(i) / 60
            if d <= 62 {
                let ball = Self.ballInImage(board: Self.board(d), distanceFt: d)
                frame.disc(ball.x, ball.y, ball.radius)
            }
            try frame.withImage { try tracker.process($0, time: Double(i) / 60, frameIndex: i) }
        }
        let tracks = try tracker.finish()
        XCTAssertEqual(tracks.shots.count, 1)
        let m = try XCTUnwrap(ShotMetricsCalculator.measure(tracks, options: options).first)
        XCTAssertNil(m.result)
        XCTAssertEqual(try XCTUnwrap(m.launchSpeed), speed * 3600 / 5280, accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(m.impactSpeed), speed * 3600 / 5280, accuracy: 0.5)
        XCTAssertEqual(try XCTUnwrap(m.foulLineBoard), Self.board(0), accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(m.arrowBoard), Self.board(15), accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(m.breakpointBoard), 8, accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(m.breakpointDistance), 40, accuracy: 2)
        XCTAssertEqual(try XCTUnwrap(m.pocketBoard), Self.board(60), accuracy: 0.4)
        // LS slope of the parabola over 50–60 ft is its slope at 55 ft: 0.1875 boards/ft.
        XCTAssertEqual(try XCTUnwrap(m.entryAngle), atan(0.1875 * 41.5 / 39 / 12) * 180 / .pi, accuracy: 0.3)
    }
}
