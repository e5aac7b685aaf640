import Archery
import ReelworkCore
import XCTest

final class ScoringTests: XCTestCase {
    func testSeedTable() {
        let none = 0.0
        XCTAssertEqual(ArcheryScoring.score(distance: 0.03, arrowRadius: none).score, 10)
        XCTAssertTrue(ArcheryScoring.score(distance: 0.05, arrowRadius: none).isX)
        XCTAssertFalse(ArcheryScoring.score(distance: 0.051, arrowRadius: none).isX)
        XCTAssertEqual(ArcheryScoring.score(distance: 0.10, arrowRadius: none).score, 10)
        XCTAssertEqual(ArcheryScoring.score(distance: 0.101, arrowRadius: none).score, 9)
        XCTAssertEqual(ArcheryScoring.score(distance: 0.55, arrowRadius: none).score, 5)
        XCTAssertEqual(ArcheryScoring.score(distance: 1.0, arrowRadius: none).score, 1)
        XCTAssertEqual(ArcheryScoring.score(distance: 1.001, arrowRadius: none).score, 0)
        XCTAssertEqual(ArcheryScoring.score(distance: .nan, arrowRadius: none).score, 0)
    }
}

final class LineCutterRuleTests: XCTestCase {
    func testAnArrowTouchingALineTakesTheHigherScore() {
        let radius = ArcheryOptions().arrowRadiusInFaceRadii  // 0.0045
        XCTAssertEqual(ArcheryScoring.score(distance: 0.303, arrowRadius: radius).score, 8)
        XCTAssertEqual(ArcheryScoring.score(distance: 0.305, arrowRadius: radius).score, 7)
        XCTAssertTrue(ArcheryScoring.score(distance: 0.054, arrowRadius: radius).isX)
        XCTAssertEqual(ArcheryScoring.score(distance: 1.004, arrowRadius: radius).score, 1)
        XCTAssertEqual(ArcheryScoring.score(distance: 1.005, arrowRadius: radius).score, 0)
        XCTAssertTrue(ArcheryScoring.isOnLine(distance: 0.298, arrowRadius: radius))
        XCTAssertFalse(ArcheryScoring.isOnLine(distance: 0.25, arrowRadius: radius))
    }
}
