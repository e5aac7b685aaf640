import Basketball
import BasketballScenes
import ReelworkCore
import XCTest

/// A ball whose centre drops down through the rim's height between its ends and then pops back up
/// and out is missed (DOMAIN.md: a make goes on below the net). Without the "on below the net"
/// condition in ShotJudge these come out made.
final class InAndOutTests: XCTestCase {
    func testAnInAndOutIsAMissAtBothRates() throws {
        for fps in [30, 60] {
            let scene = ShootingScene(width: 640, height: 360, fps: fps, events: [
                .shot(.inAndOut, distanceFt: 12), .dribble(playerX: 14, bounces: 1), .shot(.swish, distanceFt: 15),
                .shot(.inAndOut, distanceFt: 24),
            ], seed: 17)
            XCTAssertEqual(scene.truth.map(\.made), [false, true, false])
            let result = try SceneRun.analyse(scene, options: try SceneRun.options(scene))
            SceneRun.assertMatches(result, scene.truth)
            XCTAssertEqual(result.stats.fieldGoalsMade, 1, "\(fps) fps: \(SceneRun.describe(result))")
            XCTAssertEqual(result.stats.points, 2)
        }
    }
}
