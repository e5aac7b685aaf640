@testable import Pipeline
import XCTest

/// When an unfollowed track brings the detector back in the tracked mode: a hidden player on every
/// sample, a person the pose model has never seen only at the detector's next run.
final class UnfollowedPeopleTests: XCTestCase {
    func testATrackNobodyFollowsBringsTheDetectorBackOnEverySample() {
        let rule = UnfollowedPeople()
        // Two players held by the tracker, one followed: the other was hidden a moment ago.
        XCTAssertTrue(rule.needDetector(followed: 1, liveTracks: [1, 2], limit: 4))
        XCTAssertFalse(rule.needDetector(followed: 2, liveTracks: [1, 2], limit: 4))
        // No more people than the limit are followed, so a third track beyond it is not looked for.
        XCTAssertFalse(rule.needDetector(followed: 2, liveTracks: [1, 2, 3], limit: 2))
    }

    func testAPersonThePoseModelHasNeverSeenWaitsForTheDetectorsNextRun() {
        var rule = UnfollowedPeople()
        rule.followed([1])
        // The detector saw track 2, the pose model found nobody in its crop: not looked for again
        // on the samples after it, while a player hidden from both (track 3) still is.
        rule.detectorRan(unseen: [2])
        XCTAssertEqual(rule.unposable, [2])
        XCTAssertFalse(rule.needDetector(followed: 1, liveTracks: [1, 2], limit: 4))
        XCTAssertTrue(rule.needDetector(followed: 1, liveTracks: [1, 2, 3], limit: 4))
        // The next run looks at everyone again: nothing carries over from the run before.
        rule.detectorRan(unseen: [])
        XCTAssertTrue(rule.needDetector(followed: 1, liveTracks: [1, 2], limit: 4))
    }

    func testAHiddenPlayerWhoseBoxTheDetectorStillFindsIsLookedForOnEverySample() {
        var rule = UnfollowedPeople()
        rule.followed([1, 2])
        // Player 2 walked behind player 1: the detector still finds a box for them, the pose model
        // finds only player 1 in it. They were seen before, so they stay sought.
        rule.detectorRan(unseen: [2])
        XCTAssertEqual(rule.unposable, [])
        XCTAssertTrue(rule.needDetector(followed: 1, liveTracks: [1, 2], limit: 4))
    }
}
