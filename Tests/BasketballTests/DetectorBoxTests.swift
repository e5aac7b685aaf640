import Basketball
import BasketballScenes
import ReelworkCore
import XCTest

/// Detector boxes are extra evidence: with the colour set wrong (nothing matches), boxes on the
/// sampled frames alone still carry the attempts; wrong boxes far from the ball do not pull it away.
final class DetectorBoxTests: XCTestCase {
    let events: [SceneEvent] = [.dribble(playerX: 14, bounces: 2), .shot(.swish, distanceFt: 15), .shot(.rimOut, distanceFt: 24)]

    func testBoxesAloneCarryTheBallWhenTheColourDoesNotMatch() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: events, seed: 8)
        let green = try SceneRun.options(scene, extra: ["ballColor": .object(["h": .number(120), "s": .number(80), "v": .number(80)])])
        let blind = try SceneRun.analyse(scene, options: green)
        XCTAssertEqual(blind.framesWithBall, 0)
        let boxed = try SceneRun.analyse(scene, options: green) { index in
            scene.ballInImage(frame: index).map { b in [BallBox(x1: b.x - b.radius, y1: b.y - b.radius, x2: b.x + b.radius, y2: b.y + b.radius, confidence: 0.8)] }
        }
        SceneRun.assertMatches(boxed, scene.truth)
    }

    func testStrayBoxesDoNotMoveTheBall() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: events, seed: 8)
        // Every third frame "sampled", each with a confident box in the top-left corner.
        let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene)) { index in
            index % 3 == 0 ? [BallBox(x1: 10, y1: 10, x2: 25, y2: 25, confidence: 0.9)] : nil
        }
        SceneRun.assertMatches(result, scene.truth)
    }
}
