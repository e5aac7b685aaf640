import Basketball
import BasketballScenes
import ReelworkCore
import XCTest

/// A scripted side-view session with known truth: every attempt found (release within 0.4 s), made
/// or missed and 2PT/3PT exactly, distances within a foot, totals exact; dribbles and passes are not
/// attempts.
final class SessionTests: XCTestCase {
    func testScriptedSessionAt30fps() throws {
        try checkScriptedSession(fps: 30)
    }

    func testScriptedSessionAt60fps() throws {
        try checkScriptedSession(fps: 60)
    }

    /// A dim hall's phone keeps the shutter open the whole 1/24 s: the ball in flight is a smear
    /// up to about twice as long as it is wide (an attempt is lost without smears), and is still the ball.
    func testScriptedSessionWithTheBallSmearedByMotion() throws {
        try checkScriptedSession(fps: 24, shutter: 1)
    }

    /// A frame cut low above the rim: long shots leave it at the top of their arc and come back
    /// down on the same arc, and are each still one attempt.
    func testTheBallLeavesTheFrameAtTheTopOfItsArc() throws {
        let events: [SceneEvent] = [.shot(.swish, distanceFt: 24), .shot(.rimOut, distanceFt: 22), .shot(.swish, distanceFt: 18)]
        let scene = ShootingScene(width: 640, height: 270, fps: 30, events: events, seed: 7)
        // The frame ends 3.4 ft above the rim; shots from these distances rise higher.
        XCTAssertLessThan(scene.view.image(x: 0, y: Court.rimHeight + 3.4).y, 0)
        let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene))
        SceneRun.assertMatches(result, scene.truth)
    }

    private func checkScriptedSession(fps: Int, shutter: Double = 0) throws {
        let scene = ShootingScene(width: 640, height: 360, fps: fps, events: SceneRun.script, seed: 7, shutter: shutter)
        XCTAssertEqual(scene.truth.map(\.kind), [.swish, .rimOut, .bank, .airball, .swish, .offBoard])
        XCTAssertEqual(scene.truth.map(\.made), [true, false, true, false, true, false])
        let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene))
        SceneRun.assertMatches(result, scene.truth)
        XCTAssertEqual(result.stats, ShootingStats(fieldGoalsAttempted: 6, fieldGoalsMade: 3, threePointAttempted: 2, threePointMade: 1),
                       SceneRun.describe(result))
        XCTAssertEqual(result.stats.points, 7)
        XCTAssertEqual(result.hoopSource, .option)
    }
}

/// Every kind of shot from close in and from beyond the line, in one session.
final class ShotKindTests: XCTestCase {
    func testEveryKindFromNearAndFar() throws {
        var events: [SceneEvent] = []
        for kind in ShotKind.allCases {
            events.append(.shot(kind, distanceFt: 8))
            events.append(.shot(kind, distanceFt: 25))
        }
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: events, seed: 9)
        let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene))
        SceneRun.assertMatches(result, scene.truth)
        XCTAssertEqual(result.stats.fieldGoalsAttempted, 2 * ShotKind.allCases.count)
        XCTAssertEqual(result.stats.fieldGoalsMade, 4)
        XCTAssertEqual(result.stats.threePointMade, 2)
    }
}
