import Vision
import XCTest

final class PersonTrackerTests: XCTestCase {
    private func person(_ x: Double, _ y: Double = 100, width: Double = 60, height: Double = 160, confidence: Double = 0.9) -> Detection {
        Detection(classId: 0, confidence: confidence, box: BoundingBox(x1: x, y1: y, x2: x + width, y2: y + height))
    }

    func testTwoPlayersKeepTheirIdsAsTheyMove() {
        var tracker = PersonTracker()
        var ids: [[Int]] = []
        for frame in 0..<20 {
            let left = person(50 + Double(frame) * 12), right = person(600 - Double(frame) * 8)
            let tracked = tracker.update(with: frame % 2 == 0 ? [left, right] : [right, left])  // order must not matter
            ids.append(tracked.map(\.trackId))
            XCTAssertEqual(tracked.first { $0.trackId == 1 }?.box, left.box, "frame \(frame)")
            XCTAssertEqual(tracked.first { $0.trackId == 2 }?.box, right.box, "frame \(frame)")
        }
        XCTAssertEqual(Set(ids.map { $0 }), [[1, 2]])
    }

    /// A runner moving most of a box width per frame stays one track (the expected box moves with them).
    func testAFastRunnerStaysOneTrack() {
        var tracker = PersonTracker()
        for frame in 0..<15 {
            let tracked = tracker.update(with: [person(Double(frame) * 45)])
            XCTAssertEqual(tracked.map(\.trackId), [1], "frame \(frame)")
        }
    }

    /// Between detections the tracks are moved by their landmark boxes (`follow`): a player who walks
    /// far while no detector runs is still matched to their own id when it runs again, and a track
    /// not followed coasts and ends as after missed detections.
    func testTracksFollowedBetweenDetectionsKeepTheirIds() {
        var tracker = PersonTracker()
        XCTAssertEqual(tracker.update(with: [person(50), person(600)]).map(\.trackId), [1, 2])
        // Ten samples without the detector: player 1 walks 40 px a sample (400 px in all, further
        // than the tracker would reach from where it last saw them); player 2 is not followed.
        for step in 1...10 {
            tracker.follow([1: BoundingBox(x1: 50 + 40 * Double(step), y1: 100, x2: 110 + 40 * Double(step), y2: 260)])
        }
        let tracked = tracker.update(with: [person(490)])
        XCTAssertEqual(tracked.first { $0.detection != nil }?.trackId, 1, "the detection is the walker's, not a new track")
        XCTAssertEqual(tracked.first { $0.trackId == 2 }?.missedFrames, 11, "the unfollowed track coasted")
        for _ in 0..<5 { tracker.follow([1: BoundingBox(x1: 490, y1: 100, x2: 550, y2: 260)]) }
        XCTAssertEqual(tracker.liveTrackIds.count, 1, "after more than maxMissedFrames the unfollowed track ended")
    }

    func testAMissedDetectionCoastsThenTheTrackContinues() {
        var tracker = PersonTracker()
        _ = tracker.update(with: [person(100)])
        _ = tracker.update(with: [person(110)])
        let coasting = tracker.update(with: [])
        XCTAssertEqual(coasting.map(\.trackId), [1])
        XCTAssertNil(coasting[0].detection)
        XCTAssertEqual(coasting[0].missedFrames, 1)
        XCTAssertGreaterThan(coasting[0].box.x1, 110, "expected where the motion takes them")
        XCTAssertEqual(tracker.update(with: [person(130)]).map(\.trackId), [1])
    }

    func testATrackEndsAfterTooManyMissesAndIdsAreNotReused() {
        var settings = PersonTracker.Settings()
        settings.maxMissedFrames = 3
        var tracker = PersonTracker(settings: settings)
        _ = tracker.update(with: [person(100)])
        for _ in 0..<3 { XCTAssertEqual(tracker.update(with: []).count, 1) }
        XCTAssertEqual(tracker.update(with: []).count, 0)
        XCTAssertEqual(tracker.update(with: [person(100)]).map(\.trackId), [2])
    }

    func testOnlyConfidentDetectionsStartTracks() {
        var tracker = PersonTracker()
        XCTAssertEqual(tracker.update(with: [person(100, confidence: 0.3)]).count, 0)
        _ = tracker.update(with: [person(100, confidence: 0.8)])
        // Once tracked, a weak detection of the same person keeps the track going.
        let tracked = tracker.update(with: [person(104, confidence: 0.3)])
        XCTAssertEqual(tracked.map(\.trackId), [1])
        XCTAssertNotNil(tracked[0].detection)
    }

    /// A hidden for a second behind B, then back, turned round and only partly visible (a narrow
    /// box well away from where A was heading): still A's track, and B's never changes.
    func testAPlayerReappearingFromBehindAnotherKeepsTheirId() {
        var tracker = PersonTracker()
        let b = Detection(classId: 0, confidence: 0.95, box: BoundingBox(x1: 400, y1: 50, x2: 500, y2: 350))
        for frame in 0..<10 {
            let a = Detection(classId: 0, confidence: 0.9, box: BoundingBox(x1: 100 + Double(frame) * 10, y1: 50, x2: 200 + Double(frame) * 10, y2: 350))
            XCTAssertEqual(tracker.update(with: [a, b]).map(\.trackId), [1, 2])
        }
        for _ in 0..<10 { _ = tracker.update(with: [b]) }
        let back = Detection(classId: 0, confidence: 0.6, box: BoundingBox(x1: 130, y1: 50, x2: 170, y2: 350))
        let tracked = tracker.update(with: [back, b])
        XCTAssertEqual(tracked.map(\.trackId), [1, 2])
        XCTAssertEqual(tracked.first { $0.trackId == 1 }?.detection, back)
        XCTAssertEqual(tracked.first { $0.trackId == 2 }?.detection, b)
    }
}
