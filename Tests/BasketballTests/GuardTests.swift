import Basketball
import BasketballScenes
import ReelworkCore
import XCTest

/// What must not be counted, and what must stop the job with a person's advice.
final class GuardTests: XCTestCase {
    /// The rim is orange like the ball: with no ball in view, nothing is tracked at all.
    func testTheRimIsNeverTrackedAsTheBall() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: Array(SceneRun.script.prefix(4)), seed: 3, showsBall: false)
        let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene))
        XCTAssertEqual(result.framesWithBall, 0)
        XCTAssertEqual(result.shots.count, 0)
        XCTAssertEqual(result.stats, ShootingStats())
    }

    /// A ball lying still on the floor is scenery once it has kept its place for half a second:
    /// tracked at most in the first half second, never an attempt, and the played ball still counts.
    func testABallLyingStillIsNotTracked() throws {
        let still = ShootingScene(width: 640, height: 360, fps: 30, events: [.pause(seconds: 3)], seed: 3, showsBall: false, restingBall: true)
        let alone = try SceneRun.analyse(still, options: try SceneRun.options(still))
        XCTAssertLessThanOrEqual(alone.framesWithBall, 15)
        XCTAssertEqual(alone.shots.count, 0)

        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: Array(SceneRun.script.prefix(4)), seed: 3, restingBall: true)
        SceneRun.assertMatches(try SceneRun.analyse(scene, options: try SceneRun.options(scene)), scene.truth)
    }

    /// Without the hoop option the rim is found in the first frames, and nothing changes for it.
    func testRimFoundWithoutTheOption() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: Array(SceneRun.script.prefix(6)), seed: 5)
        let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene, withHoop: false))
        XCTAssertEqual(result.hoopSource, .found)
        let ends = scene.rimEnds
        XCTAssertEqual(result.hoop.left.x, ends.left.x, accuracy: 2)
        XCTAssertEqual(result.hoop.right.x, ends.right.x, accuracy: 2)
        XCTAssertEqual(result.hoop.left.y, ends.left.y, accuracy: 2)
        SceneRun.assertMatches(result, scene.truth)
    }

    /// No hoop given and none in view: `needs_person`, naming the option.
    func testNoHoopNeedsAPerson() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: [.dribble(playerX: 10, bounces: 4)], seed: 2, showsHoop: false)
        XCTAssertThrowsError(try SceneRun.analyse(scene, options: try SceneRun.options(scene, withHoop: false))) { error in
            guard case ReelworkError.needsPerson(let message) = error else { return XCTFail("not needsPerson: \(error)") }
            XCTAssertTrue(message.contains("option hoop"), message)
            XCTAssertEqual((error as? ReelworkError)?.kind, .needsPerson)
        }
        // A clip shorter than the frames looked at ends with the same advice from finish().
        let tracker = try BasketballTracker(options: try SceneRun.options(scene, withHoop: false), frameWidth: 640, frameHeight: 360, frameRate: 30)
        XCTAssertThrowsError(try tracker.finish()) { error in
            XCTAssertEqual((error as? ReelworkError)?.kind, .needsPerson)
        }
    }

    /// Dribbles and passes, high and low, toward the hoop and away: the ball is tracked, nothing is an attempt.
    func testDribblesAndPassesAreNotAttempts() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: [
            .dribble(playerX: 8, bounces: 4), .pass(playerX: 10, towardHoop: true), .dribble(playerX: 20, bounces: 3),
            .pass(playerX: 6, towardHoop: false), .pass(playerX: 24, towardHoop: true), .dribble(playerX: 3, bounces: 3),
        ], seed: 4)
        let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene))
        XCTAssertGreaterThan(result.framesWithBall, scene.frameCount / 2)
        XCTAssertEqual(result.shots.count, 0, SceneRun.describe(result))
    }

    func testFramesOfAnotherSizeAreRefused() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: [.pause(seconds: 0.1)])
        let tracker = try BasketballTracker(options: try SceneRun.options(scene), frameWidth: 640, frameHeight: 360, frameRate: 30)
        let small = try XCTUnwrap(PackedRGBFrame(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 12)))
        XCTAssertThrowsError(try tracker.process(small, time: 0, frameIndex: 0))
        XCTAssertNil(PackedRGBFrame(width: 2, height: 2, pixels: [0]))
    }
}
