import TennisScenes
import XCTest

@testable import Tennis

/// A stroke's contact is the wrist's fastest moment. Swings are found on the smoothed speed, which
/// lags that moment where the stroke speeds up and slows down at different rates (by a frame or
/// more at 50–60 samples a second); the contact's time is read from the unsmoothed speed
/// (`PeakFinder.refinedTime`), except next to a gap in the wrist.
final class ContactTimeTests: XCTestCase {
    private static let step = 1.0 / 60

    /// Samples 1/60 s apart in one segment with the given speeds; `span` two steps unless given.
    private static func samples(smoothed: [Double], unsmoothed: [Double], spans: [Double]? = nil) -> [TrackKinematics.Sample] {
        smoothed.indices.map { i in
            TrackKinematics.Sample(
                time: Double(i) * step, segment: 0, points: [], visibility: [], torso: 100, speed: smoothed[i],
                span: spans?[i] ?? 2 * step, unsmoothedSpeed: unsmoothed[i])
        }
    }

    func testTheContactIsWhereTheUnsmoothedSpeedPeaksNotTheSmoothedOne() {
        // Smoothed: the peak is sample 3. Unsmoothed: the wrist is fastest between samples 4 and 5.
        let samples = Self.samples(smoothed: [4, 7, 9, 10, 9.6, 8, 6], unsmoothed: [3, 6, 9, 10, 13, 12.5, 7])
        let time = PeakFinder.refinedTime(of: 3, in: samples)
        XCTAssertGreaterThan(time, samples[4].time, "not held within half a step of the smoothed peak (sample 3)")
        XCTAssertLessThanOrEqual(time, samples[4].time + Self.step / 2, "within half a step of the fastest unsmoothed sample")
    }

    func testNextToAGapInTheWristTheSmoothedPeakIsKept() {
        // Sample 3's speed is differenced across 0.3 s without a confident wrist; its neighbours'
        // unsmoothed speeds over a short span are not comparable with it.
        let samples = Self.samples(
            smoothed: [4, 7, 8, 10, 9, 6, 5], unsmoothed: [3, 6, 14, 10, 13, 6, 4],
            spans: [2 * Self.step, 2 * Self.step, 0.3, 0.3, 2 * Self.step, 2 * Self.step, 2 * Self.step])
        let time = PeakFinder.refinedTime(of: 3, in: samples)
        XCTAssertLessThanOrEqual(abs(time - samples[3].time), Self.step / 2, "the peak's own neighbourhood, by the smoothed speed")

        // Only sample 5's speed spans a gap, but the parabola around a faster sample 4 would use it.
        let later = Self.samples(
            smoothed: [4, 7, 9, 10, 9.6, 8, 6], unsmoothed: [3, 6, 9, 10, 13, 12.5, 7],
            spans: [2 * Self.step, 2 * Self.step, 2 * Self.step, 2 * Self.step, 2 * Self.step, 0.3, 2 * Self.step])
        XCTAssertLessThanOrEqual(abs(PeakFinder.refinedTime(of: 3, in: later) - later[3].time), Self.step / 2, "a gap two samples away counts")
    }

    /// On generated sequences at 40–60 samples a second (the tests' own seeds): with the contact at
    /// the smoothed speed's peak, 169 of these 195 groundstrokes (86.7 %) were within 2 frames; from
    /// the unsmoothed speed, 184 (94.4 %).
    func testAtFortyToSixtySamplesASecondAGroundstrokesContactIsWithinTwoFrames() throws {
        var found = 0, within = 0
        for seed in UInt64(600)..<720 {
            let sequence = PoseSequenceGenerator.make(seed: seed)
            guard sequence.fps >= 40 else { continue }
            let score = SwingMatcher.score(truth: sequence.swings, detected: try VariedPoseSequenceTests.analyse(sequence), fps: sequence.fps)
            for match in score.matches where sequence.swings[match.truth].type != "serve" {
                found += 1
                if match.errorFrames <= SwingMatcher.contactFrames { within += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(found, 150, "enough groundstrokes to judge by")
        XCTAssertGreaterThanOrEqual(Double(within), 0.92 * Double(found), "\(within) of \(found) contacts within 2 frames")
    }
}
