import ReelworkCore
import SportKit
import Tennis
import TennisScenes
import XCTest

/// A stroke whose fastest part falls where the pose model lost the wrist (motion blur at the
/// fastest moment, a few frames without a pose): the wrist's speed across the gap is an average
/// over it, lower than any frame's, and is held to the lower threshold a difference that long
/// gets (`SwingTuning.peakThreshold(span:)`), so the stroke is still counted and flagged.
final class SwingInAGapTests: XCTestCase {
    /// Generated sequences (the tests' own seeds) with nobody else in them and no run of missing
    /// frames of their own, in which every swing is found as they are.
    private static func cleanSequences() throws -> [PoseSequence] {
        try (600..<680).map { PoseSequenceGenerator.make(seed: $0) }
            .filter { $0.conditions.passersBy == 0 && $0.conditions.dropBurst == 0 }
            .filter { sequence in
                let score = SwingMatcher.score(truth: sequence.swings, detected: try VariedPoseSequenceTests.analyse(sequence),
                                               fps: sequence.fps)
                return score.countExact
            }
    }

    /// The same sequence with no pose of the player for `length` seconds across each true contact,
    /// starting 0.05, 0.125 or 0.2 s before it (by turns): blur and dropouts fall anywhere in a stroke.
    private static func withGapsAcrossContact(_ sequence: PoseSequence, length: Double) -> PoseSequence {
        var gapped = sequence
        let gaps = sequence.swings.enumerated().map { index, swing in
            let start = swing.contactTime - 0.05 - 0.075 * Double(index % 3)
            return start...(start + length)
        }
        for index in gapped.sampled.tracks.indices where gapped.sampled.tracks[index].id == sequence.playerTrackId {
            gapped.sampled.tracks[index].poses.removeAll { pose in gaps.contains { $0.contains(pose.time) } }
        }
        return gapped
    }

    /// A quarter of a second without the player across each contact, about the whole forward swing.
    func testStrokesWhoseFastestPartIsMissingAreStillCountedAndFlagged() throws {
        let sequences = try Self.cleanSequences()
        XCTAssertGreaterThanOrEqual(sequences.count, 15, "enough clean sequences to judge by")
        var exact = 0, swings = 0, found = 0, flagged = 0
        var contactErrors: [Double] = []
        var failures: [String] = []
        for sequence in sequences {
            let gapped = Self.withGapsAcrossContact(sequence, length: 0.25)
            let detected = try VariedPoseSequenceTests.analyse(gapped)
            let score = SwingMatcher.score(truth: gapped.swings, detected: detected, fps: gapped.fps)
            swings += score.truthCount
            found += score.matches.count
            contactErrors += score.matches.map(\.errorFrames)
            if score.countExact { exact += 1 } else {
                failures.append("seed \(sequence.seed): \(score.truthCount) swings, \(score.detectedCount) found")
            }
            flagged += detected.filter { $0.review.contains("landmarksMissingAtContact") }.count
            XCTAssertTrue(detected.allSatisfy { $0.confidence < 0.9 }, "seed \(sequence.seed): a swing seen only across a gap is not sure")
        }
        // Not all: seen from in front or behind, a forehand's wrist can end a quarter of a second
        // close to where it began in the picture, and nothing says a stroke happened. Without the
        // lower threshold for a long difference (or with gaps over 0.25 s left unbridged) about 1
        // swing in 20 is found here and no sequence comes out right.
        XCTAssertGreaterThanOrEqual(Double(exact), 0.4 * Double(sequences.count), failures.joined(separator: "; "))
        XCTAssertGreaterThanOrEqual(Double(found), 0.7 * Double(swings), "\(found) of \(swings) swings found across the gaps")
        XCTAssertGreaterThanOrEqual(flagged, found, "every swing found across a gap says the landmarks were missing at contact")
        // Contact is the speed's peak between the gap's edges, not an edge: a quarter of a second
        // is 6–15 frames here; held to an edge, one contact in ten was 9 frames or more off.
        let sortedErrors = contactErrors.sorted()
        guard !sortedErrors.isEmpty else { return XCTFail("no swing found across a gap") }
        XCTAssertLessThanOrEqual(sortedErrors[sortedErrors.count * 9 / 10], 5, "nine contacts in ten within 5 frames: \(sortedErrors)")
        XCTAssertLessThanOrEqual(sortedErrors.last ?? 0, 6, "every contact within 6 frames: \(sortedErrors)")
    }
}
