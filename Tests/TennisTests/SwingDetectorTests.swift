import ReelworkCore
import Tennis
import XCTest

/// Swing candidates, type, contact and keyframes on synthetic pose tracks with a known speed profile.
final class SwingDetectorTests: XCTestCase {
    let right = TennisOptions(dominantHand: .right)
    let left = TennisOptions(dominantHand: .left)
    /// Not on a sample time, so "within one frame" is a real tolerance.
    let peak = 1.53

    private func detect(_ player: SyntheticPlayer, duration: Double = 3, fps: Double = 10, objects: [ObjectFrame] = [],
                        options: TennisOptions? = nil) -> [SwingCandidate] {
        SwingDetector.detect(track: player.track(duration: duration, fps: fps), objects: objects, options: options ?? TennisOptions(dominantHand: player.hand))
    }

    private func assertOrderedInWindow(_ swing: SwingCandidate, file: StaticString = #filePath, line: UInt = #line) {
        let k = swing.keyFrameTimes.ordered
        XCTAssertEqual(k, k.sorted(), "keyframes in order: \(swing.keyFrameTimes)", file: file, line: line)
        XCTAssertEqual(swing.startTime, swing.keyFrameTimes.preparation, file: file, line: line)
        XCTAssertEqual(swing.endTime, swing.keyFrameTimes.recovery, file: file, line: line)
        XCTAssertLessThan(swing.startTime, swing.endTime, file: file, line: line)
        for t in k { XCTAssertTrue((swing.startTime...swing.endTime).contains(t), "\(t) in the window", file: file, line: line) }
    }

    func testAForehandIsOneSwingWithContactAtTheSpeedPeak() throws {
        let swings = detect(SyntheticPlayer(stroke: Strokes.forehand(peak: peak)))
        XCTAssertEqual(swings.count, 1, "\(swings)")
        let swing = try XCTUnwrap(swings.first)
        XCTAssertEqual(swing.type, .forehand)
        XCTAssertEqual(swing.contactSource, .wristPeak)
        XCTAssertEqual(swing.keyFrameTimes.contact, peak, accuracy: 0.1 + 1e-9, "within one frame of the peak")
        XCTAssertEqual(swing.keyFrameTimes.contact, swing.peakTime, accuracy: 0.05 + 1e-9, "between the peak sample's neighbours, at most half a step away")
        XCTAssertGreaterThan(swing.peakSpeed, SwingTuning.peakThreshold)
        assertOrderedInWindow(swing)
        // Backswing: where the take-back turns into the forward swing, ≈ 0.22 s before the peak.
        XCTAssertEqual(swing.keyFrameTimes.backswing, peak - 0.22, accuracy: 0.12)
        // The window holds the take-back (0.45 s before the peak) and stops when the wrist is still.
        XCTAssertLessThanOrEqual(swing.startTime, peak - 0.45)
        XCTAssertGreaterThanOrEqual(swing.startTime, peak - 1.0 - 1e-9)
        XCTAssertGreaterThan(swing.keyFrameTimes.followThrough, swing.keyFrameTimes.contact)
        XCTAssertLessThanOrEqual(swing.endTime, peak + 1.0)
        XCTAssertGreaterThan(swing.prominence, 0.75)
    }

    func testAForehandAt30FpsIsFoundAtTheSamePeak() throws {
        let swings = detect(SyntheticPlayer(stroke: Strokes.forehand(peak: peak)), fps: 30)
        XCTAssertEqual(swings.count, 1, "\(swings)")
        let swing = try XCTUnwrap(swings.first)
        XCTAssertEqual(swing.type, .forehand)
        XCTAssertEqual(swing.keyFrameTimes.contact, peak, accuracy: 1.0 / 30 + 1e-9)
        assertOrderedInWindow(swing)
        XCTAssertLessThan(swing.keyFrameTimes.backswing, swing.keyFrameTimes.contact)
        // The forward move's speed (∝ sech²((t − peak) / 0.08)) halves 0.07 s after the peak; the
        // wrist is still moving then, so follow-through comes before recovery.
        XCTAssertEqual(swing.keyFrameTimes.followThrough, peak + 0.07, accuracy: 0.05)
        XCTAssertLessThan(swing.keyFrameTimes.followThrough, swing.keyFrameTimes.recovery)
    }

    func testContactAtTheWristPeakLiesBetweenSamplesNearTheFastestMoment() throws {
        // The sample nearest the fastest moment is up to half a step off it (50 ms at 10 fps, 21 ms
        // at 24): the speed's peak between samples is nearer.
        for fps in [10.0, 24.0] {
            let step = 1 / fps
            for offset in stride(from: 0.1, through: 0.9, by: 0.2) {
                let fastest = (Double(Int(1.5 * fps)) + offset) * step
                let swing = try XCTUnwrap(detect(SyntheticPlayer(stroke: Strokes.forehand(peak: fastest)), fps: fps).first)
                let nearestSample = (offset < 0.5 ? offset : 1 - offset) * step
                let error = abs(swing.keyFrameTimes.contact - fastest)
                XCTAssertLessThanOrEqual(error, 0.2 * step, "\(fps) fps, fastest at \(fastest) s: contact \(swing.keyFrameTimes.contact)")
                if nearestSample > 0.2 * step { XCTAssertLessThan(error, nearestSample, "nearer than the nearest sample") }
                assertOrderedInWindow(swing)
            }
        }
    }

    func testAForehandFilmedFromTheFrontIsStillAForehand() throws {
        let swings = detect(SyntheticPlayer(facingAway: false, stroke: Strokes.forehand(peak: peak)))
        XCTAssertEqual(swings.map(\.type), [.forehand])
    }

    func testASideOnPlayerIsReadFromTheHipsWhenTheShoulderOrderIsLost() throws {
        // Shoulders turned just past vertical in the image: their x order is flipped but they are
        // only 0.02 torso lengths apart, so it says nothing; the hips still show the facing.
        for stroke in [Strokes.forehand(peak: peak), Strokes.backhand(peak: peak)] {
            var player = SyntheticPlayer(stroke: stroke)
            player.shoulderAngle = { _ in 92 }
            let expected: SwingType = stroke.rest.u > 0 ? .forehand : .backhand
            XCTAssertEqual(detect(player).map(\.type), [expected])
        }
    }

    func testWristCrossingToTheOtherSideIsABackhand() throws {
        for facingAway in [true, false] {
            let swings = detect(SyntheticPlayer(facingAway: facingAway, stroke: Strokes.backhand(peak: peak)))
            XCTAssertEqual(swings.map(\.type), [.backhand], "facing away: \(facingAway)")
            XCTAssertEqual(swings.first?.keyFrameTimes.contact ?? 0, peak, accuracy: 0.1 + 1e-9)
        }
    }

    func testWristAboveTheHeadAtContactIsAServe() throws {
        let swings = detect(SyntheticPlayer(stroke: Strokes.serve(peak: peak)))
        XCTAssertEqual(swings.map(\.type), [.serve])
        XCTAssertEqual(swings.first?.keyFrameTimes.contact ?? 0, peak, accuracy: 0.1 + 1e-9)
    }

    func testALeftHandersForehandNeedsTheLeftHandOption() throws {
        let player = SyntheticPlayer(hand: .left, stroke: Strokes.forehand(peak: peak))
        let swings = detect(player, options: left)
        XCTAssertEqual(swings.map(\.type), [.forehand])
        XCTAssertEqual(swings.first?.keyFrameTimes.contact ?? 0, peak, accuracy: 0.1 + 1e-9)
        // Read as a right-hander, the (still) right wrist makes no swing.
        XCTAssertEqual(detect(player, options: right).count, 0)
        // And a left-hander's backhand is on their right.
        XCTAssertEqual(detect(SyntheticPlayer(hand: .left, stroke: Strokes.backhand(peak: peak)), options: left).map(\.type), [.backhand])
    }

    func testTwoSwingsOneSecondApartAreTwo() throws {
        var player = SyntheticPlayer(stroke: Strokes.forehand(peak: 1.2))
        player.moves.append(WristMove(time: 2.2, tau: 0.08, du: 2.2, dv: -0.2))
        let swings = detect(player, duration: 3.5)
        XCTAssertEqual(swings.count, 2, "\(swings)")
        XCTAssertEqual(swings.map(\.peakTime), [1.2, 2.2], "peaks on the sampled frames")
        if swings.count == 2 {
            XCTAssertLessThanOrEqual(swings[0].endTime, swings[1].startTime, "windows do not overlap")
            for swing in swings { assertOrderedInWindow(swing) }
        }
    }

    func testTwoPeaksCloserThanTheSeparationAreOneSwingAtTheHigherPeak() throws {
        var player = SyntheticPlayer(stroke: Strokes.forehand(peak: 1.2))
        // A weaker second peak 0.4 s later (still above the threshold on its own).
        player.moves.append(WristMove(time: 1.6, tau: 0.08, du: 1.7, dv: 0))
        let speeds = detect(SyntheticPlayer(rest: (-0.3, 0.4), moves: [WristMove(time: 1.6, tau: 0.08, du: 1.7, dv: 0)]))
        XCTAssertEqual(speeds.count, 1, "the second move alone is a swing")
        let swings = detect(player)
        XCTAssertEqual(swings.count, 1, "\(swings)")
        XCTAssertEqual(swings.first?.peakTime ?? 0, 1.2, accuracy: 1e-9)
    }

    func testNoMotionAndSmallJitterMakeNoSwings() {
        XCTAssertEqual(detect(SyntheticPlayer()).count, 0)
        // ±2 px of jitter on every landmark at 30 fps (pose noise), torso 60 px.
        let track = jittered(SyntheticPlayer().track(duration: 3, fps: 30), pixels: 2)
        XCTAssertEqual(SwingDetector.detect(track: track, objects: [], options: right).count, 0)
        XCTAssertEqual(SwingDetector.detect(track: [], objects: [], options: right).count, 0)
    }

    /// Uniform jitter of ± `pixels` on every landmark (a fixed pseudo-random sequence).
    private func jittered(_ track: [PoseFrame], pixels: Double) -> [PoseFrame] {
        var seed: UInt64 = 7
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double((seed >> 33) % 10_000) / 10_000 * 2 - 1) * pixels
        }
        return track.map { frame in
            PoseFrame(time: frame.time, landmarks: frame.landmarks.map { Landmark(x: $0.x + next(), y: $0.y + next(), visibility: $0.visibility) })
        }
    }

    func testPoseJitterAtAHighSamplingRateIsSmoothedAway() throws {
        // ±6 px on a 60 px torso (±0.1 torso, BlazePose's jitter on a small player) at 60 fps:
        // differenced raw, one frame apart, it would read as up to ~8 torso lengths/s.
        let still = jittered(SyntheticPlayer().track(duration: 4, fps: 60), pixels: 6)
        XCTAssertEqual(SwingDetector.detect(track: still, objects: [], options: right).count, 0)
        // A real forehand in the same jitter is still found, at its peak.
        let swing = jittered(SyntheticPlayer(stroke: Strokes.forehand(peak: peak)).track(duration: 4, fps: 60), pixels: 6)
        let swings = SwingDetector.detect(track: swing, objects: [], options: right)
        XCTAssertEqual(swings.map(\.type), [.forehand])
        XCTAssertEqual(swings.first?.keyFrameTimes.contact ?? 0, peak, accuracy: 0.05)
    }

    func testLowVisibilityGlitchesMakeNoSwings() {
        // A still player whose wrist (or shoulder) jumps across the frame in every third frame,
        // flagged with low visibility, as BlazePose does when it loses a limb.
        let player = SyntheticPlayer()
        let track = player.track(duration: 3).enumerated().map { k, frame -> PoseFrame in
            var landmarks = frame.landmarks
            if k % 3 == 1 { landmarks[16] = Landmark(x: 600, y: 20, visibility: 0.1) }
            if k % 3 == 2 { landmarks[11] = Landmark(x: 10, y: 300, visibility: 0.2) }
            return PoseFrame(time: frame.time, landmarks: landmarks)
        }
        XCTAssertEqual(SwingDetector.detect(track: track, objects: [], options: right).count, 0)
        // The same glitches with full visibility are (fake) motion: the visibility is what protects.
        let trusted = track.map { frame in
            PoseFrame(time: frame.time, landmarks: frame.landmarks.map { Landmark(x: $0.x, y: $0.y, visibility: 0.99) })
        }
        XCTAssertGreaterThan(SwingDetector.detect(track: trusted, objects: [], options: right).count, 0)
    }

    func testSpeedIsInTorsoLengthsWhateverTheCameraDistance() throws {
        let near = try XCTUnwrap(detect(SyntheticPlayer(torso: 100, hipX: 320, hipY: 300, stroke: Strokes.forehand(peak: peak))).first)
        let far = try XCTUnwrap(detect(SyntheticPlayer(torso: 50, hipX: 200, hipY: 150, stroke: Strokes.forehand(peak: peak))).first)
        XCTAssertEqual(far.peakSpeed, near.peakSpeed, accuracy: near.peakSpeed * 0.03)
        XCTAssertEqual(far.keyFrameTimes, near.keyFrameTimes)
        // 2.2 torso lengths along tanh with τ = 0.08 s, central difference over ±0.1 s around 1.5 s.
        let p = SyntheticPlayer(stroke: Strokes.forehand(peak: peak))
        let (a, b) = (p.wrist(1.4), p.wrist(1.6))
        let expected = hypot(b.u - a.u, b.v - a.v) / 0.2
        XCTAssertEqual(near.peakSpeed, expected, accuracy: expected * 0.03)
    }

    /// Object frames for every sampled time: a racket by the wrist, the ball far away except at `hit`.
    private func objects(_ player: SyntheticPlayer, duration: Double, hit: Double?, ballOffset: Double = 0) -> [ObjectFrame] {
        sampleTimes(duration: duration, fps: 10).map { t in
            let w = player.wristPixel(t)
            let racket = Box(x1: w.x - 20, y1: w.y - 60, x2: w.x + 20, y2: w.y - 5, confidence: 0.6)
            let centre = (x: (racket.x1 + racket.x2) / 2, y: (racket.y1 + racket.y2) / 2)
            let ball: (x: Double, y: Double) = hit.map { abs(t - $0) < 1e-9 } == true ? (centre.x + ballOffset, centre.y) : (20, 20)
            return ObjectFrame(time: t, balls: [Box(x1: ball.x - 4, y1: ball.y - 4, x2: ball.x + 4, y2: ball.y + 4, confidence: 0.5)],
                               rackets: [racket])
        }
    }

    func testContactIsTheRacketBallClosestApproachWhenBothAreSeen() throws {
        let player = SyntheticPlayer(stroke: Strokes.forehand(peak: peak))
        let hit = 1.6  // one frame after the wrist's fastest sampled frame (1.5)
        let swing = try XCTUnwrap(detect(player, objects: objects(player, duration: 3, hit: hit)).first)
        XCTAssertEqual(swing.peakTime, 1.5, accuracy: 1e-9)
        XCTAssertEqual(swing.keyFrameTimes.contact, hit, accuracy: 1e-9)
        XCTAssertEqual(swing.contactSource, .racketBall)
        assertOrderedInWindow(swing)
        XCTAssertGreaterThan(swing.keyFrameTimes.followThrough, hit)

        // A ball that never comes within reach of the racket leaves contact at the wrist's fastest
        // moment (between the samples at 1.5 and 1.6).
        let missed = try XCTUnwrap(detect(player, objects: objects(player, duration: 3, hit: hit, ballOffset: 200)).first)
        XCTAssertEqual(missed.keyFrameTimes.contact, peak, accuracy: 0.01)
        XCTAssertEqual(missed.contactSource, .wristPeak)
        // A hit outside the swing's window is ignored too.
        let elsewhere = try XCTUnwrap(detect(player, objects: objects(player, duration: 3, hit: 0.1)).first)
        XCTAssertEqual(elsewhere.contactSource, .wristPeak)
    }

    /// With people followed by their landmarks the detector sees about one sample a second: a ball
    /// by the racket on the one frame of the window it saw is not the closest approach.
    func testObjectsSeenOnFewOfTheWindowsSamplesDoNotDecideContact() throws {
        let player = SyntheticPlayer(stroke: Strokes.forehand(peak: peak))
        let hit = 1.2  // before the wrist's fastest sampled frame (1.5), inside the window
        let all = objects(player, duration: 3, hit: hit)
        let dense = try XCTUnwrap(detect(player, objects: all).first)
        XCTAssertEqual(dense.keyFrameTimes.contact, hit, accuracy: 1e-9, "seen on every sample: the closest approach")
        let onceASecond = all.filter { frame in [0.2, hit, 2.2].contains { abs(frame.time - $0) < 1e-9 } }
        let sparse = try XCTUnwrap(detect(player, objects: onceASecond).first)
        XCTAssertEqual(sparse.contactSource, .wristPeak)
        XCTAssertEqual(sparse.keyFrameTimes.contact, peak, accuracy: 0.01)
    }

    func testIdenticalInputGivesIdenticalOutput() {
        var player = SyntheticPlayer(stroke: Strokes.forehand(peak: 1.2))
        player.moves.append(WristMove(time: 2.4, tau: 0.08, du: 2.2, dv: -0.2))
        let track = player.track(duration: 3.5, fps: 24)
        let first = SwingDetector.detect(track: track, objects: [], options: right)
        let second = SwingDetector.detect(track: track, objects: [], options: right)
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.count, 2)
        let json = { (c: [SwingCandidate]) in c.map { SwingMetricsCalculator.measure($0, track: track, options: self.right).json().jsonString() } }
        XCTAssertEqual(json(first), json(second))
    }

    func testUnevenAndOutOfOrderTimesAreHandled() throws {
        // Frames at a jittery ~12 fps, with a duplicate time: still one forehand at the peak.
        let player = SyntheticPlayer(stroke: Strokes.forehand(peak: peak))
        var times = stride(from: 0.0, through: 3.0, by: 1.0 / 12).enumerated().map { k, t in t + (k % 2 == 0 ? 0.01 : -0.01) }
        times.insert(times[10], at: 11)
        let track = times.map { PoseFrame(time: $0, landmarks: player.landmarks(at: $0)) }
        let swings = SwingDetector.detect(track: track, objects: [], options: right)
        XCTAssertEqual(swings.map(\.type), [.forehand])
        XCTAssertEqual(swings.first?.keyFrameTimes.contact ?? 0, peak, accuracy: 0.1)
    }
}

/// Frame times come from the file's timestamps: huge offsets and gaps must not trap anywhere in
/// the swing stages, and what they produce must still be JSON.
final class ExtremeTimesTests: XCTestCase {
    func testHugeTimestampsAndGapsGoThroughDetectionAndMetrics() throws {
        let player = SyntheticPlayer(stroke: Strokes.forehand(peak: 1.53))
        let options = TennisOptions(dominantHand: player.hand)
        // (how the times are changed, whether the swing can still be seen)
        let variants: [(String, (Double) -> Double, Bool)] = [
            ("offset by 1e9 s", { $0 + 1e9 }, true), ("offset by 1e12 s", { $0 + 1e12 }, true),
            ("stretched a trillion times (no speed left)", { $0 * 1e12 }, false),
            ("offset near the largest double (times collapse)", { $0 * 1e300 + 1e307 }, false),
        ]
        let frames = player.track(duration: 3, fps: 10)
        for (label, retime, visible) in variants {
            let track = frames.map { PoseFrame(time: retime($0.time), landmarks: $0.landmarks) }
            if visible { XCTAssertEqual(SwingDetector.detect(track: track, objects: [], options: options).count, 1, label) }
            for swing in SwingDetector.detect(track: track, objects: [], options: options) {
                let measured = SwingMetricsCalculator.measure(swing, track: track, options: options)
                XCTAssertNoThrow(try measured.json().encodedText(), label)
            }
        }
    }
}
