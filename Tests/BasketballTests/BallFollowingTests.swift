@testable import Basketball
import BasketballScenes
import Foundation
import Pipeline
import ReelworkCore
import TestSupport
import Vision
import XCTest

/// The detector only where colour lost the ball (issue 29): the tracker says it follows the ball
/// by colour when the last frame's ball was the one blob within reach of a fresh colour path, and
/// a real run then skips the detector on those samples with the same attempts as before.
final class BallFollowingTests: XCTestCase {
    /// A short session: a dribble, a swish and a rim-out.
    private let scene = ShootingScene(width: 640, height: 360, fps: 30, events: [.dribble(playerX: 14, bounces: 2), .shot(.swish, distanceFt: 15),
                                                                                   .shot(.rimOut, distanceFt: 24)], seed: 8)

    private func blob(_ x: Double, _ y: Double) -> BallCandidate {
        BallCandidate(x: x, y: y, radius: 6, area: 113)
    }

    private func box(_ x: Double, _ y: Double) -> BallBox {
        BallBox(x1: x - 6, y1: y - 6, x2: x + 6, y2: y + 6, confidence: 0.8)
    }

    func testFollowedByColourOnlyWithOneBlobOnAFreshColourPath() {
        var o = BallObservations()
        o.add(candidates: [blob(100, 100)], boxes: [], time: 0, frameIndex: 0, expectedRadius: 6)
        XCTAssertFalse(o.followedByColour, "the first blob starts a path: which blob is the ball is not known yet")
        o.add(candidates: [blob(104, 98)], boxes: [], time: 1.0 / 30, frameIndex: 1, expectedRadius: 6)
        XCTAssertTrue(o.followedByColour, "one blob where the path goes")
        o.add(candidates: [blob(108, 96), blob(400, 300)], boxes: [], time: 2.0 / 30, frameIndex: 2, expectedRadius: 6)
        XCTAssertTrue(o.followedByColour, "a blob out of reach does not count")
        o.add(candidates: [blob(112, 94), blob(118, 92)], boxes: [], time: 3.0 / 30, frameIndex: 3, expectedRadius: 6)
        XCTAssertFalse(o.followedByColour, "two blobs within reach: a box would pick between them")
        o.add(candidates: [blob(116, 92)], boxes: [], time: 4.0 / 30, frameIndex: 4, expectedRadius: 6)
        XCTAssertTrue(o.followedByColour)
        o.add(candidates: [], boxes: [], time: 5.0 / 30, frameIndex: 5, expectedRadius: 6)
        XCTAssertFalse(o.followedByColour, "no blob: lost")
        o.add(candidates: [], boxes: [box(124, 88)], time: 6.0 / 30, frameIndex: 6, expectedRadius: 6)
        XCTAssertEqual(o.points.last?.fromDetector, true)
        XCTAssertFalse(o.followedByColour, "a box alone holds the path")
        o.add(candidates: [blob(128, 86)], boxes: [], time: 7.0 / 30, frameIndex: 7, expectedRadius: 6)
        XCTAssertFalse(o.followedByColour, "a path held by a box gives way to any blob: colour is not following it yet")
        o.add(candidates: [blob(132, 84)], boxes: [], time: 8.0 / 30, frameIndex: 8, expectedRadius: 6)
        XCTAssertTrue(o.followedByColour)
    }

    /// Over a session: never "following" on a frame without the ball in view, and following on
    /// most of the frames with it.
    func testASessionIsFollowedByColourWhileTheBallIsInView() throws {
        let renderer = ShootingSceneRenderer(scene: scene)
        let tracker = try BasketballTracker(options: try SceneRun.options(scene), frameWidth: 640, frameHeight: 360, frameRate: 30)
        var pixels: [UInt8] = []
        var inView = 0, followedInView = 0
        for index in 0..<scene.frameCount {
            renderer.render(frame: index, into: &pixels)
            try tracker.process(try XCTUnwrap(PackedRGBFrame(width: 640, height: 360, pixels: pixels)), time: scene.time(ofFrame: index),
                                frameIndex: index)
            guard scene.ballInImage(frame: index) != nil else {
                XCTAssertFalse(tracker.followsBallByColour, "frame \(index): no ball in view")
                continue
            }
            inView += 1
            if tracker.followsBallByColour { followedInView += 1 }
        }
        XCTAssertGreaterThan(inView, scene.frameCount / 2)
        XCTAssertGreaterThanOrEqual(Double(followedInView), 0.5 * Double(inView), "followed on \(followedInView) of \(inView) frames with the ball")
        SceneRun.assertMatches(try tracker.finish(), scene.truth)
    }

    /// The real detector and pipeline on the session, encoded: the detector looks at
    /// fewer samples than with `every`, and the attempts are the same.
    func testARealRunSkipsTheDetectorWhereColourFollowsTheBall() throws {
        try ProjectPaths.requireModels(photos: [])
        let scratch = try ScratchDirectory(prefix: "reelwork-ball-following")
        defer { scratch.remove() }
        let clip = URL(fileURLWithPath: scratch.path("session.mp4"))
        try ShootingSceneRenderer(scene: scene).encode(to: clip)

        func analyse(_ mode: VisionSettings.PersonDetection) throws -> JSONValue {
            var settings = ProjectPaths.visionSettings
            settings.personDetection = mode
            return try AnalysisPipeline(sport: .basketball, options: .object(["hoop": SceneRun.hoopOption(scene)]), vision: settings,
                                        models: VisionModelPool())
                .run(location: clip.path, reporter: QuietReporter()).document.result
        }
        let every = try analyse(.everySample), tracked = try analyse(.tracked)

        let sampled = try XCTUnwrap(every["framesSampled"]?.number)
        XCTAssertEqual(every["vision"]?["detectorRuns"]?.number, sampled)
        XCTAssertEqual(tracked["framesSampled"]?.number, sampled)
        let runs = try XCTUnwrap(tracked["vision"]?["detectorRuns"]?.number)
        XCTAssertLessThanOrEqual(runs, 0.5 * sampled, "the detector ran on \(runs) of \(sampled) samples")
        XCTAssertGreaterThan(runs, 0, "the first sample has no colour path yet")
        guard case .array(let frames)? = tracked["detections"] else { return XCTFail("no result.detections") }
        XCTAssertEqual(Double(frames.count), runs, "result.detections holds the frames the detector saw")

        // The same attempts either way: count, made, type, release within one frame.
        guard case .array(let a)? = every["shots"], case .array(let b)? = tracked["shots"] else { return XCTFail("no shots") }
        XCTAssertEqual(a.count, scene.truth.count)
        XCTAssertEqual(b.count, a.count)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(x["made"], y["made"])
            XCTAssertEqual(x["shotType"], y["shotType"])
            XCTAssertEqual(try XCTUnwrap(x["releaseTime"]?.number), try XCTUnwrap(y["releaseTime"]?.number), accuracy: 1.0 / 30 + 1e-9)
        }
    }
}
