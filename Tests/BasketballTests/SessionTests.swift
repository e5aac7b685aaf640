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

    private func checkScriptedSession(fps: Int) throws {
        let scene = ShootingScene(width: 640, height: 360, fps: fps, events: SceneRun.script, seed: 7)
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
