import Foundation
import ReelworkCore
import SportKit
import Tennis
import XCTest

/// Seed 004's SegmentMetrics on synthetic tracks whose answers are known from the path.
final class SwingMetricsTests: XCTestCase {
    let peak = 1.53

    /// A forehand whose shoulders turn 30° (image plane) around the forward swing.
    private func turningForehand(hand: Hand = .right) -> SyntheticPlayer {
        var player = SyntheticPlayer(hand: hand, stroke: Strokes.forehand(peak: peak))
        let peak = self.peak
        player.shoulderAngle = { t in 30 * 0.5 * (1 + tanh((t - peak) / 0.15)) }
        return player
    }

    private func analyse(_ player: SyntheticPlayer, track: [PoseFrame]? = nil, options: TennisOptions? = nil) throws -> (SwingCandidate, Swing) {
        let track = track ?? player.track(duration: 3)
        let options = options ?? TennisOptions(dominantHand: player.hand)
        let candidates = SwingDetector.detect(track: track, objects: [], options: options)
        XCTAssertEqual(candidates.count, 1, "\(candidates)")
        let candidate = try XCTUnwrap(candidates.first)
        return (candidate, SwingMetricsCalculator.measure(candidate, track: track, options: options))
    }

    func testMetricsOfAForehandMatchItsPath() throws {
        for hand in Hand.allCases {
            let player = turningForehand(hand: hand)
            let (candidate, swing) = try analyse(player)
            let k = swing.keyFrameTimes
            let m = swing.metrics
            // The body is measured on the sampled frame (10 fps) nearest contact; contact itself
            // may lie between frames (the wrist's fastest moment).
            let atContact = (k.contact * 10).rounded() / 10
            XCTAssertEqual(k.contact, atContact, accuracy: 0.05 + 1e-9)
            XCTAssertEqual(swing.unavailable, [:], "\(hand)")
            XCTAssertEqual(m.peakWristSpeedUnit, .torsoLengthsPerSecond)
            XCTAssertEqual(m.peakWristSpeed ?? 0, candidate.peakSpeed, accuracy: 1e-9)
            // Shoulder line at backswing vs contact.
            XCTAssertEqual(m.shoulderTurn ?? -1, abs(player.shoulderAngle(atContact) - player.shoulderAngle(k.backswing)), accuracy: 1)
            XCTAssertGreaterThan(m.shoulderTurn ?? 0, 5)
            // Wrist height at contact: ankles at −1.8, top of the head at 1.8 (torso lengths).
            XCTAssertEqual(m.contactHeight ?? -1, (player.wrist(atContact).v + 1.8) / 3.6, accuracy: 0.01)
            // Arc of the wrist around the dominant shoulder from contact to recovery.
            func angle(_ t: Double) -> Double {
                let w = player.wristPixel(t), s = player.dominantShoulderPixel(t)
                return atan2(w.y - s.y, w.x - s.x) * 180 / .pi
            }
            var expectedArc = angle(k.recovery) - angle(atContact)
            if expectedArc > 180 { expectedArc -= 360 }
            if expectedArc < -180 { expectedArc += 360 }
            XCTAssertEqual(m.followThrough ?? -1, abs(expectedArc), accuracy: 2)
            XCTAssertGreaterThan(m.followThrough ?? 0, 10)
            XCTAssertEqual(m.trackingQuality, 1)
            // Every frame seen, nothing to review: the confidence of a clean swing.
            XCTAssertEqual(swing.review, [])
            XCTAssertEqual(swing.confidence, 0.98, accuracy: 1e-9)
        }
    }

    func testAServeIsContactedAboveTheHead() throws {
        let (_, swing) = try analyse(SyntheticPlayer(stroke: Strokes.serve(peak: peak)))
        XCTAssertEqual(swing.type, .serve)
        XCTAssertGreaterThan(swing.metrics.contactHeight ?? 0, 0.85)
    }

    func testPlayerHeightGivesMetresPerSecond() throws {
        let player = SyntheticPlayer(stroke: Strokes.forehand(peak: peak))
        let (candidate, swing) = try analyse(player, options: TennisOptions(dominantHand: .right, playerHeight: 1.8))
        XCTAssertEqual(swing.metrics.peakWristSpeedUnit, .metresPerSecond)
        // torso = 0.288 × height (Drillis & Contini): 1.8 m → 0.518 m per torso length.
        XCTAssertEqual(swing.metrics.peakWristSpeed ?? 0, candidate.peakSpeed * 0.288 * 1.8, accuracy: 1e-9)
        XCTAssertEqual(swing.json()["metrics"]?["peakWristSpeedUnit"], .string("m/s"))
        // A plausible recreational forehand wrist speed, measured at 10 fps.
        XCTAssertTrue((3...15).contains(swing.metrics.peakWristSpeed ?? 0), "\(swing.metrics)")
    }

    func testLowVisibilityFramesLowerTrackingQuality() throws {
        let player = SyntheticPlayer(stroke: Strokes.forehand(peak: peak))
        // An unsure wrist during the take-back, and a frame where the player was not found at all.
        let track = player.track(duration: 3).compactMap { frame -> PoseFrame? in
            if abs(frame.time - 1.2) < 1e-9 { return nil }
            guard abs(frame.time - 1.0) < 1e-9 else { return frame }
            var landmarks = frame.landmarks
            landmarks[16].visibility = 0.2
            return PoseFrame(time: frame.time, landmarks: landmarks)
        }
        let (candidate, swing) = try analyse(player, track: track)
        XCTAssertLessThan(candidate.startTime, 1.0)
        let frames = Int(((candidate.endTime - candidate.startTime) / 0.1).rounded()) + 1
        XCTAssertEqual(swing.metrics.trackingQuality, Double(frames - 2) / Double(frames), accuracy: 1e-9)
        // Both gaps are more than two frames from contact (1.5): nothing to review, full confidence.
        XCTAssertEqual(swing.review, [])
        XCTAssertEqual(swing.confidence, 0.98, accuracy: 1e-9)

        // The wrist unsure two frames either side of contact: confidence drops, and a person is asked to look.
        let blurred = player.track(duration: 3).map { frame -> PoseFrame in
            guard abs(frame.time - 1.3) < 1e-9 || abs(frame.time - 1.7) < 1e-9 else { return frame }
            var landmarks = frame.landmarks
            landmarks[16].visibility = 0.3
            return PoseFrame(time: frame.time, landmarks: landmarks)
        }
        let (_, unsure) = try analyse(player, track: blurred)
        XCTAssertLessThan(unsure.confidence, swing.confidence)
        XCTAssertEqual(unsure.review.map(\.code), ["landmarksMissingAtContact"])
        XCTAssertEqual(unsure.review.first?.message, "the racket wrist is seen in 3 of the 5 frames around contact")
    }

    func testUnmeasurableMetricsAreNullWithAReason() throws {
        let player = SyntheticPlayer(stroke: Strokes.forehand(peak: peak))
        let track = player.track(duration: 3).map { frame -> PoseFrame in
            var landmarks = frame.landmarks
            landmarks[27].visibility = 0.1
            landmarks[28].visibility = 0.1
            return PoseFrame(time: frame.time, landmarks: landmarks)
        }
        let (_, swing) = try analyse(player, track: track)
        XCTAssertNil(swing.metrics.contactHeight)
        XCTAssertEqual(swing.unavailable["contactHeight"], "the ankles are not visible at contact")
        XCTAssertNotNil(swing.metrics.shoulderTurn)
        let json = swing.json()
        XCTAssertEqual(json["metrics"]?["contactHeight"], .null)
        XCTAssertEqual(json["unavailable"]?["contactHeight"], .string("the ankles are not visible at contact"))

        // A candidate for a window where the player is not tracked at all: every metric has a reason.
        let candidate = try XCTUnwrap(SwingDetector.detect(track: player.track(duration: 3), objects: [], options: TennisOptions()).first)
        let lost = SwingMetricsCalculator.measure(candidate, track: [], options: TennisOptions())
        XCTAssertEqual(lost.metrics.trackingQuality, 0)
        XCTAssertEqual(lost.confidence, 0)
        XCTAssertEqual(Set(lost.unavailable.keys), ["peakWristSpeed", "shoulderTurn", "contactHeight", "followThrough"])
    }

    func testJSONHasTheResultShapeAndRounding() throws {
        let (_, swing) = try analyse(turningForehand())
        let json = swing.json()
        guard case .object(let top) = json else { return XCTFail("not an object: \(json)") }
        XCTAssertEqual(
            Set(top.keys),
            [
                "type", "startTime", "endTime", "confidence", "contactSource", "keyFrameTimes", "metrics", "unavailable",
                "review"
            ])
        XCTAssertEqual(json["type"], .string("forehand"))
        XCTAssertEqual(json["contactSource"], .string("wristPeak"))
        guard case .object(let keyframes)? = json["keyFrameTimes"], case .object(let metrics)? = json["metrics"] else {
            return XCTFail("keyFrameTimes and metrics: \(json)")
        }
        XCTAssertEqual(Set(keyframes.keys), ["preparation", "backswing", "contact", "followThrough", "recovery"])
        XCTAssertEqual(
            Set(metrics.keys), ["peakWristSpeed", "peakWristSpeedUnit", "shoulderTurn", "contactHeight", "followThrough", "trackingQuality"])
        XCTAssertEqual(json["metrics"]?["peakWristSpeedUnit"], .string("torso/s"))
        XCTAssertEqual(json["unavailable"], .object([:]))
        XCTAssertEqual(json["review"], .array([]), "a clean swing has nothing for a person to look at")
        func value(_ v: JSONValue?) -> Double { if case .number(let n)? = v { return n } else { return .nan } }
        let contact = value(json["keyFrameTimes"]?["contact"])
        XCTAssertEqual(contact, (swing.keyFrameTimes.contact * 1000).rounded() / 1000)
        let speed = value(json["metrics"]?["peakWristSpeed"])
        XCTAssertEqual(speed, ((swing.metrics.peakWristSpeed ?? 0) * 100).rounded() / 100)
        XCTAssertEqual(value(json["metrics"]?["shoulderTurn"]), ((swing.metrics.shoulderTurn ?? 0) * 10).rounded() / 10)
        XCTAssertEqual(value(json["metrics"]?["contactHeight"]), ((swing.metrics.contactHeight ?? 0) * 1000).rounded() / 1000)
    }
}

/// A long match: many swings, each measured from the frames around it only.
final class LongTrackTests: XCTestCase {
    func testTenMinutesOfRallyGiveEverySwingWithTheSameMetricsAsAShortClip() throws {
        // A forehand every 3 s for 10 minutes at 10 fps (6000 frames, 200 swings).
        var player = SyntheticPlayer()
        let shots = 200
        for k in 0..<shots {
            let peak = 1.53 + 3 * Double(k)
            // Take back, swing through, walk the wrist back to where it rests.
            player.moves += [
                WristMove(time: peak - 0.45, tau: 0.12, du: 1.1, dv: 0.1),
                WristMove(time: peak, tau: 0.08, du: -2.2, dv: 0.2),
                WristMove(time: peak + 1.2, tau: 0.3, du: 1.1, dv: -0.3)
            ]
        }
        let track = player.track(duration: 3 * Double(shots))
        let options = TennisOptions()
        let started = Date()
        let candidates = SwingDetector.detect(track: track, objects: [], options: options)
        let swings = candidates.map { SwingMetricsCalculator.measure($0, track: track, options: options) }
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(candidates.count, shots)
        XCTAssertEqual(Set(swings.map(\.type)), [.forehand])
        XCTAssertLessThan(seconds, 60, "detect + measure of 6000 frames took \(seconds) s")
        print("10 minutes, \(shots) swings: \(seconds) s")

        // The first swing measured in a short clip of its own is the same swing.
        let short = Array(track.prefix(while: { $0.time <= 3.0 }))
        let alone = SwingDetector.detect(track: short, objects: [], options: options)
        XCTAssertEqual(alone.first, candidates.first)
        if let first = alone.first {
            XCTAssertEqual(SwingMetricsCalculator.measure(first, track: short, options: options), swings.first)
        }
    }
}
