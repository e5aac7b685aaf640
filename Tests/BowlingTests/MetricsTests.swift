@testable import Bowling
import Foundation
import ReelworkCore
import SportKit
import SportMath
import XCTest

/// Metric formulas on synthetic tracks with known answers.
final class MetricsTests: XCTestCase {
    static let feetPerBoard = 41.5 / 39 / 12

    /// A calibrated track sampled every 1/30 s at `speed` ft/s from `from` to `to` ft, board(d) given.
    static func track(speed: Double = 25, from: Double = 0, to: Double = 60, end: ShotEnd? = nil,
                      board: (Double) -> Double, marker: ((Double) -> Double)? = nil) -> ShotTrack {
        var points = [TrackPoint]()
        var i = 0
        while true {
            let t = Double(i) / 30, d = from + speed * t
            if d > to + 1e-9 { break }
            points.append(TrackPoint(time: t, frameIndex: i, x: 0, y: 0, board: board(d), distanceFt: d, markerAngle: marker?(t)))
            i += 1
        }
        return ShotTrack(points: points, end: end, calibrated: true)
    }

    static func measure(_ track: ShotTrack, hand: Hand = .right, marker: Bool = false) -> ShotMetrics {
        let profile = BallProfile(color: HSVColor(h: 0, s: 50, v: 50), markerColor: marker ? HSVColor(h: 60, s: 50, v: 50) : nil)
        return ShotMetricsCalculator.measure(BallTracks(shots: [track], framesWithBall: track.points.count),
                                             options: BowlingOptions(hand: hand, ballProfile: profile))[0]
    }

    func testSpeeds() throws {
        let m = Self.measure(Self.track(speed: 22, board: { _ in 20 }))
        XCTAssertEqual(try XCTUnwrap(m.launchSpeed), 15, accuracy: 1e-9)   // 22 ft/s = 15 mph
        XCTAssertEqual(try XCTUnwrap(m.impactSpeed), 15, accuracy: 1e-9)
        // Slowing ball: d = 30t − 2t²; launch over 0–15 ft and impact over 45–60 ft are LS slopes.
        var points = [TrackPoint]()
        for i in 0..<200 {
            let t = Double(i) / 60, d = 30 * t - 2 * t * t
            if d > 60 { break }
            points.append(TrackPoint(time: t, frameIndex: i, x: 0, y: 0, board: 20, distanceFt: d))
        }
        let slowing = Self.measure(ShotTrack(points: points, calibrated: true))
        let launch = try XCTUnwrap(slowing.launchSpeed), impact = try XCTUnwrap(slowing.impactSpeed)
        XCTAssertLessThan(impact, launch)
        // Over 0–15 ft (t 0 to ≈0.53 s) the mean speed is ≈ 28.9 ft/s.
        XCTAssertEqual(launch / (3600.0 / 5280), 28.9, accuracy: 0.2)
    }

    func testBoardsBreakpointPocketAngleAndStrike() throws {
        // board(d) = 8 + 0.01 (d − 35)²: foul line 20.25, arrows 12, breakpoint 8 at 35 ft, pocket 14.25.
        let m = Self.measure(Self.track(board: { 8 + 0.01 * ($0 - 35) * ($0 - 35) }))
        XCTAssertEqual(try XCTUnwrap(m.foulLineBoard), 20.25, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(m.arrowBoard), 12, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(m.breakpointBoard), 8, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(m.breakpointDistance), 35, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(m.pocketBoard), 14.25, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(m.pocketOffset), 3.25, accuracy: 0.01)
        // LS slope of a parabola over 50–60 ft = its derivative at 55 ft: 0.4 boards/ft.
        let angle = atan(0.4 * Self.feetPerBoard) * 180 / .pi
        XCTAssertEqual(try XCTUnwrap(m.entryAngle), angle, accuracy: 0.01)
        let expected = 1 - 0.5 * pow(abs(angle - 6) / 10, 2) - 0.5 * pow(3.25 / 5, 2)
        XCTAssertEqual(try XCTUnwrap(m.strikeProbability), expected, accuracy: 0.001)
        XCTAssertEqual(m.trajectory.first?.phase, "skid")
        XCTAssertEqual(m.trajectory.last?.phase, "hook")
    }

    func testLeftHander() throws {
        // Mirror image: largest board is the breakpoint; pocket 22.5.
        let m = Self.measure(Self.track(board: { 32 - 0.01 * ($0 - 35) * ($0 - 35) }), hand: .left)
        XCTAssertEqual(try XCTUnwrap(m.breakpointBoard), 32, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(m.pocketOffset), abs(25.75 - 22.5), accuracy: 0.01)
        let perfect = Self.measure(Self.track(board: { 22.5 + 0.0 * $0 }), hand: .left)
        XCTAssertEqual(try XCTUnwrap(perfect.pocketOffset), 0, accuracy: 1e-9)
    }

    func testStrikeProbabilityIsOneAtSixDegreesInThePocket() throws {
        let slope = tan(6 * Double.pi / 180) / Self.feetPerBoard
        let m = Self.measure(Self.track(board: { 17.5 + slope * ($0 - 60) }))
        XCTAssertEqual(try XCTUnwrap(m.entryAngle), 6, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(m.strikeProbability), 1, accuracy: 1e-6)
        // Far off: clamped to 0.
        let wide = Self.measure(Self.track(board: { _ in 35 }))
        XCTAssertEqual(wide.strikeProbability, 0)
    }

    func testPocketExtrapolation() throws {
        // board = 10 + 0.2 d, tracked to 56 ft: 4 ft short, extrapolated to 22.
        let short = Self.measure(Self.track(to: 56, board: { 10 + 0.2 * $0 }))
        XCTAssertEqual(try XCTUnwrap(short.pocketBoard), 22, accuracy: 1e-6)
        XCTAssertNotNil(short.entryAngle)
        XCTAssertNil(short.result)
        // 6 ft short: too far to extrapolate.
        let shorter = Self.measure(Self.track(to: 53.9, end: .incomplete, board: { 10 + 0.2 * $0 }))
        XCTAssertNil(shorter.pocketBoard)
        XCTAssertEqual(shorter.unavailable["pocketBoard"], "Ball exited frame before reaching pins")
        XCTAssertEqual(shorter.unavailable["entryAngle"], "Ball exited frame before reaching pins")
        XCTAssertEqual(shorter.unavailable["strikeProbability"], "Incomplete trajectory data")
        XCTAssertNotNil(shorter.launchSpeed)
    }

    func testFoulLineBoardExtrapolatedOnlyAFewFeet() throws {
        XCTAssertEqual(try XCTUnwrap(Self.measure(Self.track(from: 2, board: { 10 + 0.2 * $0 })).foulLineBoard), 10, accuracy: 1e-6)
        XCTAssertNil(Self.measure(Self.track(from: 5, board: { 10 + 0.2 * $0 })).foulLineBoard)
    }

    func testSpeedThresholds() {
        XCTAssertEqual(SpeedValidation(mph: -3), .invalid, "a ball does not roll backwards")
        XCTAssertEqual(SpeedValidation(mph: 0), .invalid)
        XCTAssertEqual(SpeedValidation(mph: 4.99), .tooSlow)
        XCTAssertEqual(SpeedValidation(mph: 5), .valid)
        XCTAssertEqual(SpeedValidation(mph: 29.99), .valid)
        XCTAssertEqual(SpeedValidation(mph: 30), .validFlagged)
        XCTAssertEqual(SpeedValidation(mph: 34.99), .validFlagged)
        XCTAssertEqual(SpeedValidation(mph: 35), .invalid)
        XCTAssertEqual(SpeedValidation(mph: .nan), .invalid)
    }

    func testSpeedThresholdsReachTheResult() throws {
        func shot(mph: Double) -> ShotMetrics {
            Self.measure(Self.track(speed: mph * 5280 / 3600, board: { _ in 17.5 }))
        }
        let slow = shot(mph: 4.99)
        XCTAssertEqual(try XCTUnwrap(slow.launchSpeed), 4.99, accuracy: 1e-6)
        XCTAssertTrue(slow.flags.contains(ShotFlag(code: "launchSpeedTooSlow", message: "Ball appears to have stopped. Was this a gutter ball?")))
        XCTAssertFalse(shot(mph: 5).flags.contains { $0.code == "launchSpeedTooSlow" })
        XCTAssertFalse(shot(mph: 29.99).flags.contains { $0.code == "launchSpeedHigh" })
        XCTAssertTrue(shot(mph: 30).flags.contains { $0.code == "launchSpeedHigh" })
        XCTAssertEqual(try XCTUnwrap(shot(mph: 34.99).launchSpeed), 34.99, accuracy: 1e-6)
        let tooFast = shot(mph: 35)
        XCTAssertNil(tooFast.launchSpeed)
        XCTAssertEqual(tooFast.unavailable["launchSpeed"], "Speed reading seems incorrect. Using estimated values.")
    }

    func testEntryAngleFlagAt25Degrees() throws {
        func shot(degrees: Double) -> ShotMetrics {
            let slope = tan(degrees * .pi / 180) / Self.feetPerBoard
            return Self.measure(Self.track(board: { 17.5 + slope * ($0 - 60) }))
        }
        let at25 = shot(degrees: 25)
        XCTAssertEqual(try XCTUnwrap(at25.entryAngle), 25, accuracy: 1e-6)
        XCTAssertFalse(at25.flags.contains { $0.code == "entryAngleUnusual" })
        XCTAssertTrue(shot(degrees: 25.01).flags.contains(ShotFlag(code: "entryAngleUnusual",
                                                                   message: "Entry angle seems unusual. Please verify camera alignment.")))
    }

    func testEntryAngleNeedsFivePoints() throws {
        let sparse = Self.measure(Self.track(speed: 150, board: { 17.5 + 0.1 * $0 }))  // 5 ft a frame
        XCTAssertNil(sparse.entryAngle)
        XCTAssertEqual(sparse.unavailable["entryAngle"], "Too few tracked points over the last 10 ft")
    }

    func testRevRate() throws {
        // 350 rpm = 350 × 2π / 60 rad/s; 30 fps sightings turn 70° each.
        let omega = 350 * 2 * Double.pi / 60
        let m = Self.measure(Self.track(board: { _ in 17.5 }, marker: { t in (omega * t).truncatingRemainder(dividingBy: 2 * .pi) - .pi }),
                             marker: true)
        XCTAssertEqual(try XCTUnwrap(m.revRate), 350, accuracy: 1e-6)
        XCTAssertEqual(m.revCategory, .tweener)
        // 40° in all: not enough rotation.
        let little = Self.measure(Self.track(board: { _ in 17.5 }, marker: { t in t / 2.4 * 40 * .pi / 180 }), marker: true)
        XCTAssertNil(little.revRate)
        XCTAssertEqual(little.unavailable["revRate"], "Ball rotation couldn't be detected. Try a textured ball.")
        XCTAssertTrue(little.flags.contains(ShotFlag(code: "revRateFailed", message: "Couldn't calculate rev rate for this shot.")))
        // No marker colour configured.
        let none = Self.measure(Self.track(board: { _ in 17.5 }))
        XCTAssertNotNil(none.unavailable["revRate"])
    }

    func testRevRateEstimatorAtTheMinimumRotation() {
        func samples(_ count: Int, degreesEach: Double) -> [(time: Double, angle: Double)] {
            (0..<count).map { i -> (time: Double, angle: Double) in
                let k = Double(i)
                return (k / 30, k * degreesEach * Double.pi / 180)
            }
        }
        let samples45 = samples(10, degreesEach: 5)
        if case .rpm = RevRateEstimator.estimate(samples45) {} else { XCTFail("45° should be enough") }
        let samples44 = samples(9, degreesEach: 5.5)
        XCTAssertEqual(RevRateEstimator.estimate(samples44), .notEnoughRotation)
    }

    /// Far down the lane the marker is seen only now and then: sightings 4 to 7 frames apart (at
    /// 330 rpm, 264° to 462° of turn) must still count every turn, whichever way the ball spins.
    func testRevRateCountsTurnsBetweenSparseSightings() throws {
        let degreesPerFrame = 330.0 * 360 / 60 / 30
        let frames = Array(0..<30) + [34, 38, 45, 49, 56, 60]
        for direction in [1.0, -1.0] {
            let samples = frames.map { frame -> (time: Double, angle: Double) in
                let turned = direction * Double(frame) * degreesPerFrame + 20 * sin(Double(frame))   // ±20° of noise
                return (Double(frame) / 30, (turned.truncatingRemainder(dividingBy: 360) - 180) * .pi / 180)
            }
            guard case .rpm(let rpm) = RevRateEstimator.estimate(samples) else { return XCTFail("no rate") }
            XCTAssertEqual(rpm, 330, accuracy: 10, "direction \(direction)")
        }
    }

    func testRevCategories() {
        XCTAssertEqual(RevCategory(rpm: 299), .stroker)
        XCTAssertEqual(RevCategory(rpm: 299.99), .stroker)
        XCTAssertEqual(RevCategory(rpm: 300), .tweener)
        XCTAssertEqual(RevCategory(rpm: 399), .tweener)
        XCTAssertEqual(RevCategory(rpm: 400), .cranker)
    }

    func testGutterAndUncalibratedReasons() throws {
        let gutter = Self.measure(Self.track(to: 20, end: .gutter, board: { 10 - 0.5 * $0 }))
        XCTAssertEqual(gutter.strikeProbability, 0)
        XCTAssertEqual(gutter.result, .gutter)
        XCTAssertNil(gutter.pocketBoard)
        let points = (0..<20).map { TrackPoint(time: Double($0) / 30, frameIndex: $0, x: 160, y: 220 - 5 * Double($0)) }
        let m = Self.measure(ShotTrack(points: points, calibrated: false))
        for name in ["launchSpeed", "impactSpeed", "foulLineBoard", "arrowBoard", "breakpointBoard", "breakpointDistance",
                     "pocketBoard", "pocketOffset", "entryAngle", "strikeProbability", "revRate", "revCategory"] {
            XCTAssertNotNil(m.unavailable[name], name)
        }
    }

    func testEveryNullMetricHasAReason() throws {
        let tracks = [Self.track(board: { 8 + 0.01 * ($0 - 35) * ($0 - 35) }), Self.track(to: 30, end: .incomplete, board: { _ in 20 }),
                      Self.track(to: 20, end: .gutter, board: { 10 - 0.5 * $0 })]
        let keys = ["launchSpeed", "impactSpeed", "foulLineBoard", "arrowBoard", "breakpointBoard", "breakpointDistance", "pocketBoard",
                    "pocketOffset", "entryAngle", "revRate", "revCategory", "strikeProbability"]
        for track in tracks {
            guard case .object(let json) = Self.measure(track).json(), case .object(let reasons)? = json["unavailable"] else {
                return XCTFail("json shape")
            }
            for key in keys where json[key] == .null { XCTAssertNotNil(reasons[key], key) }
            XCTAssertNotNil(json["confidence"])
            XCTAssertNotNil(json["trajectory"])
        }
    }

    func testJSONRounding() throws {
        var metrics = ShotMetrics(shotNumber: 2, startTime: 1.23456, endTime: 3.5)
        metrics.launchSpeed = 16.3636
        metrics.trajectory = [TrajectoryPoint(t: 0.0333333, x: 160.04, y: 12.96, board: 20.005, distanceFt: nil, phase: "skid", interpolated: true)]
        guard case .object(let json) = metrics.json(), case .array(let points)? = json["trajectory"], case .object(let p)? = points.first else {
            return XCTFail("json shape")
        }
        let keys = ["shotNumber", "startTime", "endTime", "launchSpeed", "impactSpeed", "foulLineBoard", "arrowBoard",
                    "breakpointBoard", "breakpointDistance", "pocketBoard", "pocketOffset", "entryAngle", "revRate", "revCategory",
                    "strikeProbability", "result", "confidence", "flags", "unavailable", "trajectory"]
        XCTAssertEqual(Set(json.keys), Set(keys))
        XCTAssertEqual(Set(p.keys), ["t", "x", "y", "board", "distanceFt", "phase", "interpolated"])
        XCTAssertEqual(json["startTime"], .number(1.235))
        XCTAssertEqual(json["launchSpeed"], .number(16.36))
        XCTAssertEqual(json["result"], .null)
        XCTAssertEqual(p["t"], .number(0.033))
        XCTAssertEqual(p["x"], .number(160))
        XCTAssertEqual(p["y"], .number(13))
        XCTAssertEqual(p["distanceFt"], .null)
        XCTAssertEqual(p["interpolated"], .bool(true))
    }
}
