import ReelworkCore
import SportKit
import Tennis
import TennisScenes
import XCTest

/// The tennis plug-in's `swings` and `metrics` stages on generated pose sequences (TennisScenes),
/// run as a worker runs them after `pose`, against the generator's truth. The seeds are the tests'
/// own (below 1,000,000: never used to tune); loadtest/accuracy-bench.sh tennis runs the full count.
final class VariedPoseSequenceTests: XCTestCase {
    static let seeds: [UInt64] = Array(500...535)

    static func analyse(_ sequence: PoseSequence) throws -> [DetectedSwing] {
        let analysis = try TennisPlugin().analysis(options: .object(["dominantHand": .string(sequence.hand.rawValue)]))
        let input = DecodedInput(sampled: sequence.sampled)
        _ = try analysis.run(.swings, on: input)
        return DetectedSwing.all(in: try analysis.run(.metrics, on: input)["swings"])
    }

    /// Issue 31 asks for the swing count right on ≥ 95 % of sequences and contact within 2 frames.
    /// The benchmark (docs/benchmarks/accuracy.md) measures how close the detector comes on hundreds of
    /// sequences; here, on a few dozen, the floors below hold with room for a seed's luck, so a
    /// change that loses swings, invents them, moves contact or confuses types fails.
    func testSwingCountContactAndTypeHoldOnVariedSequences() throws {
        var exact = 0, truth = 0, detected = 0, found = 0, within = 0, typeRight = 0
        var failures: [String] = []
        for seed in Self.seeds {
            let sequence = PoseSequenceGenerator.make(seed: seed)
            let swings = try Self.analyse(sequence)
            let score = SwingMatcher.score(truth: sequence.swings, detected: swings, fps: sequence.fps)
            truth += score.truthCount
            detected += score.detectedCount
            found += score.matches.count
            within += score.matches.filter { $0.errorFrames <= SwingMatcher.contactFrames }.count
            typeRight += score.matches.filter(\.typeRight).count
            if score.countExact { exact += 1 } else {
                failures.append("seed \(seed): \(score.truthCount) swings, \(score.detectedCount) found")
            }
        }
        XCTAssertGreaterThanOrEqual(truth, 3 * Self.seeds.count / 2, "the sequences hold several swings each")
        XCTAssertGreaterThanOrEqual(Double(exact), 0.85 * Double(Self.seeds.count), failures.joined(separator: "; "))
        XCTAssertGreaterThanOrEqual(Double(found), 0.95 * Double(truth), "recall: \(found) of \(truth)")
        XCTAssertGreaterThanOrEqual(Double(found), 0.97 * Double(detected), "precision: \(found) of \(detected)")
        XCTAssertGreaterThanOrEqual(Double(within), 0.85 * Double(found), "\(within) of \(found) contacts within 2 frames")
        XCTAssertGreaterThanOrEqual(Double(typeRight), 0.95 * Double(found), "\(typeRight) of \(found) types right")
    }

    func testASeedIsAlwaysTheSameSequenceAndSeedsVaryWidely() {
        let a = PoseSequenceGenerator.make(seed: 42), b = PoseSequenceGenerator.make(seed: 42)
        XCTAssertEqual(a.swings, b.swings)
        XCTAssertEqual(a.conditions, b.conditions)
        XCTAssertEqual(a.sampled.tracks.map { $0.poses.map(\.landmarks) }, b.sampled.tracks.map { $0.poses.map(\.landmarks) })

        let many = Self.seeds.map { PoseSequenceGenerator.make(seed: $0) }
        XCTAssertEqual(Set(many.map(\.hand)), [.left, .right])
        XCTAssertEqual(Set(many.flatMap { $0.swings.map(\.type) }), ["forehand", "backhand", "serve"])
        XCTAssertLessThan(many.map(\.fps).min() ?? 0, 35)
        XCTAssertGreaterThan(many.map(\.fps).max() ?? 0, 50)
        XCTAssertTrue(many.contains { $0.sampled.tracks.count > 1 }, "someone walks through")
        XCTAssertTrue(many.contains { abs($0.conditions.cameraAzimuthDegrees - 180) < 90 }, "camera in front")
        XCTAssertTrue(many.contains { abs($0.conditions.cameraAzimuthDegrees - 180) >= 90 }, "camera behind")
        XCTAssertTrue(many.contains { $0.sampled.tracks[0].poses.count < $0.frameCount }, "frames missing")
        XCTAssertTrue(many.contains { !$0.idle.isEmpty }, "idle motions")
    }
}
