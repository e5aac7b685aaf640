@testable import Bowling
import Foundation
import Media
import ReelworkCore
import SportKit
import XCTest

/// Whole sequences through `BallTracker`, on the flat test calibration (320×240, foul line y 230,
/// 3.5 px/ft, gutters x 100–220).
final class TrackerTests: XCTestCase {
    static let radius = 5.0
    static let feetPerFrame = 0.8   // 24 ft/s at 30 fps = 16.36 mph

    /// The pixel centre of a ball touching the lane at (board, feet).
    static func centre(board: Double, distanceFt: Double, radius: Double = radius) -> (x: Double, y: Double) {
        (220 - (board - 0.5) / 39 * 120, 230 - distanceFt * 3.5 - radius)
    }

    /// Feeds `frames` frames; `ball(i)` gives frame i's ball (board, feet), or nil for none.
    @discardableResult
    static func run(_ tracker: BallTracker, frames: Int, time: (Int) -> Double = { Double($0) / 30 },
                    ball: (Int) -> (board: Double, distanceFt: Double)?) throws -> BallTracks {
        for i in 0..<frames {
            var frame = SyntheticFrame()
            if let b = ball(i) {
                let c = centre(board: b.board, distanceFt: b.distanceFt)
                frame.disc(c.x, c.y, radius)
            }
            try frame.withImage { try tracker.process($0, time: time(i), frameIndex: i) }
        }
        return try tracker.finish()
    }

    static func calibratedTracker(hand: String? = nil, marker: JSONValue? = nil) throws -> BallTracker {
        let options = try TestOptions.parse(hand: hand, marker: marker, calibration: TestOptions.flatCalibration)
        return try BallTracker(options: options, frameWidth: 320, frameHeight: 240, frameRate: 30)
    }

    /// A straight shot down board 20 from 0.5 ft, frames `hidden` without a ball.
    static func straightShot(frame i: Int, hidden: Range<Int> = 0..<0) -> (board: Double, distanceFt: Double)? {
        let d = 0.5 + feetPerFrame * Double(i)
        return hidden.contains(i) || d > 62 ? nil : (20, d)
    }

    func testOneStraightShot() throws {
        let tracks = try Self.run(try Self.calibratedTracker(), frames: 90) { Self.straightShot(frame: $0) }
        XCTAssertEqual(tracks.shots.count, 1)
        let shot = try XCTUnwrap(tracks.shots.first)
        XCTAssertNil(shot.end)
        XCTAssertTrue(shot.calibrated)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(shot.points.last?.distanceFt), 60)
        let metrics = try XCTUnwrap(ShotMetricsCalculator.measure(tracks, options: try TestOptions.parse()).first)
        XCTAssertEqual(try XCTUnwrap(metrics.launchSpeed), 24 * 3600 / 5280, accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(metrics.impactSpeed), 24 * 3600 / 5280, accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(metrics.arrowBoard), 20, accuracy: 0.2)
        XCTAssertEqual(try XCTUnwrap(metrics.pocketBoard), 20, accuracy: 0.2)
        XCTAssertEqual(try XCTUnwrap(metrics.entryAngle), 0, accuracy: 0.3)
        XCTAssertEqual(metrics.unavailable["breakpointBoard"], "Ball didn't turn back toward the pocket")
    }

    func testShortGapIsFilledSilently() throws {
        let tracks = try Self.run(try Self.calibratedTracker(), frames: 90) { Self.straightShot(frame: $0, hidden: 20..<24) }
        XCTAssertEqual(tracks.shots.count, 1)
        let shot = try XCTUnwrap(tracks.shots.first)
        XCTAssertEqual(shot.points.filter(\.interpolated).map(\.frameIndex), [20, 21, 22, 23])
        XCTAssertTrue(shot.points.filter(\.interpolated).allSatisfy { $0.confidence < 1 })
        XCTAssertEqual(shot.flags, [])
        XCTAssertNil(shot.end)
        // Interpolated points lie on the path.
        let filled = try XCTUnwrap(shot.points.first { $0.frameIndex == 22 })
        XCTAssertEqual(try XCTUnwrap(filled.distanceFt), 0.5 + 0.8 * 22, accuracy: 0.25)   // < 1 px
    }

    func testMediumGapIsFilledAndFlagged() throws {
        let tracks = try Self.run(try Self.calibratedTracker(), frames: 90) { Self.straightShot(frame: $0, hidden: 20..<28) }
        XCTAssertEqual(tracks.shots.count, 1)
        let shot = try XCTUnwrap(tracks.shots.first)
        XCTAssertEqual(shot.points.filter(\.interpolated).count, 8)
        XCTAssertEqual(shot.flags.map(\.code), ["trackingGap"])
        XCTAssertNil(shot.end)
    }

    func testLongGapEndsTheTrajectory() throws {
        let tracks = try Self.run(try Self.calibratedTracker(), frames: 90) { Self.straightShot(frame: $0, hidden: 20..<32) }
        // The ball found again 26 ft down the lane is the same ball, not a second shot.
        XCTAssertEqual(tracks.shots.count, 1)
        XCTAssertEqual(tracks.shots.first?.end, .incomplete)
        XCTAssertEqual(tracks.shots.first?.points.last?.frameIndex, 19)
        XCTAssertTrue(tracks.shots.first?.points.allSatisfy { !$0.interpolated } ?? false)
    }

    func testSeveralShotsInOneVideo() throws {
        // Shot 1 straight from frame 0; shot 2 hooks, starting at frame 110; shot 3 goes in the gutter.
        let tracks = try Self.run(try Self.calibratedTracker(), frames: 300) { i in
            if i < 90 { return Self.straightShot(frame: i) }
            if i >= 110, i < 200 {
                let d = 0.5 + Self.feetPerFrame * Double(i - 110)
                return d > 62 ? nil : (8 + 0.01 * (d - 35) * (d - 35), d)
            }
            if i >= 220 {
                let d = 0.5 + Self.feetPerFrame * Double(i - 220)
                return (10 - 0.5 * d, d)
            }
            return nil
        }
        XCTAssertEqual(tracks.shots.count, 3)
        guard tracks.shots.count == 3 else { return }
        XCTAssertNil(tracks.shots[0].end)
        XCTAssertNil(tracks.shots[1].end)
        XCTAssertEqual(tracks.shots[2].end, .gutter)
        let metrics = ShotMetricsCalculator.measure(tracks, options: try TestOptions.parse())
        XCTAssertEqual(metrics.map(\.shotNumber), [1, 2, 3])
        XCTAssertEqual(try XCTUnwrap(metrics[1].breakpointBoard), 8, accuracy: 0.3)
        XCTAssertEqual(try XCTUnwrap(metrics[1].breakpointDistance), 35, accuracy: 1.5)
        XCTAssertEqual(metrics[2].strikeProbability, 0)
        XCTAssertEqual(metrics[2].result, .gutter)
        XCTAssertEqual(metrics[2].unavailable["impactSpeed"], "Ball went into the gutter before reaching pins")
        XCTAssertNotNil(metrics[2].launchSpeed)
        XCTAssertEqual(metrics[1].startTime, 110.0 / 30, accuracy: 1e-9)
    }

    func testStillBallColouredObjectDoesNotHoldTheTracker() throws {
        // A bigger still blob sits on the lane from the first frame; the ball rolls past it.
        let tracker = try Self.calibratedTracker()
        for i in 0..<90 {
            var frame = SyntheticFrame()
            frame.disc(120, 60, 7)
            if let b = Self.straightShot(frame: i) {
                let c = Self.centre(board: b.board, distanceFt: b.distanceFt)
                frame.disc(c.x, c.y, Self.radius)
            }
            try frame.withImage { try tracker.process($0, time: Double(i) / 30, frameIndex: i) }
        }
        let tracks = try tracker.finish()
        XCTAssertEqual(tracks.shots.count, 1)
        XCTAssertNil(tracks.shots.first?.end)
        XCTAssertLessThan(try XCTUnwrap(tracks.shots.first?.points.first?.distanceFt), 5)
    }

    func testBackwardTimestampsFallBackToFrameIndex() throws {
        // Timestamps run from 100 s, then jump back at frame 30: every point is re-timed as frame / fps.
        let tracks = try Self.run(try Self.calibratedTracker(), frames: 90, time: { $0 < 30 ? 100 + Double($0) / 30 : 5 }) {
            Self.straightShot(frame: $0)
        }
        let shot = try XCTUnwrap(tracks.shots.first)
        for point in shot.points { XCTAssertEqual(point.time, Double(point.frameIndex) / 30, accuracy: 1e-9) }
    }

    func testRevRateFromTheMarker() throws {
        let options = try TestOptions.parse(marker: SyntheticFrame.markerHSV, calibration: TestOptions.flatCalibration)
        let tracker = try BallTracker(options: options, frameWidth: 320, frameHeight: 240, frameRate: 30)
        let radius = 9.0
        for i in 0..<90 {
            var frame = SyntheticFrame()
            let d = 0.5 + Self.feetPerFrame * Double(i)
            if d <= 62 {
                let c = Self.centre(board: 20, distanceFt: d, radius: radius)
                frame.ballWithMarker(c.x, c.y, radius, markerAngle: Double(i) * 70 * .pi / 180)   // 70° a frame = 350 rpm
            }
            try frame.withImage { try tracker.process($0, time: Double(i) / 30, frameIndex: i) }
        }
        let tracks = try tracker.finish()
        let metrics = try XCTUnwrap(ShotMetricsCalculator.measure(tracks, options: options).first)
        XCTAssertEqual(try XCTUnwrap(metrics.revRate), 350, accuracy: 5)
        XCTAssertEqual(metrics.revCategory, .tweener)
    }

    func testUncalibratedShotIsInPixels() throws {
        let options = try TestOptions.parse()
        let tracker = try BallTracker(options: options, frameWidth: 320, frameHeight: 240, frameRate: 30)
        for i in 0..<40 {
            var frame = SyntheticFrame()
            frame.disc(160, 220 - 5 * Double(i), 6)
            try frame.withImage { try tracker.process($0, time: Double(i) / 30, frameIndex: i) }
        }
        let tracks = try tracker.finish()
        XCTAssertEqual(tracks.shots.count, 1)
        let metrics = try XCTUnwrap(ShotMetricsCalculator.measure(tracks, options: options).first)
        XCTAssertNil(metrics.launchSpeed)
        XCTAssertEqual(metrics.unavailable["launchSpeed"], "Complete lane calibration to measure speed")
        XCTAssertEqual(metrics.unavailable["entryAngle"], "Complete lane calibration to measure entry angle")
        XCTAssertEqual(metrics.unavailable["pocketBoard"], "Complete lane calibration to measure board positions")
        XCTAssertEqual(metrics.unavailable["strikeProbability"], "Complete lane calibration to estimate strike probability")
        XCTAssertNil(metrics.result)
        XCTAssertEqual(try XCTUnwrap(metrics.trajectory.first).y, 226, accuracy: 0.5)   // contact point: centre + radius
        XCTAssertNil(metrics.trajectory.first?.board)
        guard case .object(let json) = metrics.json(), case .array(let points)? = json["trajectory"],
              case .object(let first)? = points.first else { return XCTFail("json shape") }
        XCTAssertEqual(first["board"], .null)
        XCTAssertEqual(json["launchSpeed"], .null)
    }

    func testNoBallNeedsAPerson() throws {
        let tracker = try Self.calibratedTracker()
        XCTAssertThrows(.needsPerson("Ball not detected. Please ensure the ball is visible and consider recalibrating ball color.")) {
            try Self.run(tracker, frames: 5) { _ in nil }
        }
    }

    func testLaneInTheBallColourNeedsAPerson() throws {
        let tracker = try Self.calibratedTracker()
        let frame = SyntheticFrame(background: SyntheticFrame.ball)
        XCTAssertThrows(.needsPerson("Ball color is difficult to distinguish. Try using a ball with more contrast to the lane.")) {
            try frame.withImage { try tracker.process($0, time: 0, frameIndex: 0) }
        }
    }
}
