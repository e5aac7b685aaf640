import Basketball
import ReelworkCore
import XCTest

/// Seed 001's formulas (DOMAIN.md decisions), at their edges.
final class StatsTests: XCTestCase {
    func testFormulas() {
        // 10 attempts, 5 made, of them 4 threes attempted and 2 made.
        let stats = ShootingStats(fieldGoalsAttempted: 10, fieldGoalsMade: 5, threePointAttempted: 4, threePointMade: 2)
        XCTAssertEqual(stats.fieldGoalPercentage, 50)
        XCTAssertEqual(stats.threePointPercentage, 50)
        XCTAssertEqual(stats.effectiveFieldGoalPercentage, 60)   // (5 + 0.5 × 2) / 10
        XCTAssertEqual(stats.points, 2 * 3 + 3 * 2)
        XCTAssertEqual(stats.json()["effectiveFieldGoalPercentage"], .number(60))
        XCTAssertEqual(ShootingStats(fieldGoalsAttempted: 3, fieldGoalsMade: 1).json()["fieldGoalPercentage"], .number(33.3))
    }

    func testNothingAttemptedIsZeroNotNaN() {
        let none = ShootingStats()
        XCTAssertEqual(none.fieldGoalPercentage, 0)
        XCTAssertEqual(none.threePointPercentage, 0)
        XCTAssertEqual(none.effectiveFieldGoalPercentage, 0)
        XCTAssertEqual(none.points, 0)
        XCTAssertNoThrow(try none.json().encodedText())
    }

    func testAllMade() {
        let all = ShootingStats(fieldGoalsAttempted: 4, fieldGoalsMade: 4, threePointAttempted: 4, threePointMade: 4)
        XCTAssertEqual(all.fieldGoalPercentage, 100)
        XCTAssertEqual(all.threePointPercentage, 100)
        XCTAssertEqual(all.effectiveFieldGoalPercentage, 150)
        XCTAssertEqual(all.points, 12)
    }

    func testSessionsAddUpWithPercentagesFromTheSums() {
        let a = ShootingStats(fieldGoalsAttempted: 4, fieldGoalsMade: 4, threePointAttempted: 0, threePointMade: 0)
        let b = ShootingStats(fieldGoalsAttempted: 6, fieldGoalsMade: 1, threePointAttempted: 2, threePointMade: 1)
        let total = ShootingStats.total([a, b])
        XCTAssertEqual(total, ShootingStats(fieldGoalsAttempted: 10, fieldGoalsMade: 5, threePointAttempted: 2, threePointMade: 1))
        XCTAssertEqual(total.fieldGoalPercentage, 50)          // not the mean of 100 and 16.7
        XCTAssertEqual(total.points, a.points + b.points)
        XCTAssertEqual(ShootingStats.total([]), ShootingStats())
        XCTAssertEqual(total.csvCells(), ["10", "5", "50", "2", "1", "50", "55", "11"])
    }
}
