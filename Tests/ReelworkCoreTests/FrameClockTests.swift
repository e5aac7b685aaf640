import SportMath
import XCTest

/// A tracker's clock: the decoder's timestamps while they run forward, the frame count from the
/// first that does not, and the points already held re-timed once at that moment.
final class FrameClockTests: XCTestCase {
    func testTimestampsAreKeptWhileTheyRunForwardAndDuplicatesAreNotBackwards() {
        var clock = FrameClock(frameRate: 25)
        var retimes = 0
        let times = [100.0, 100.04, 100.04, 100.12].enumerated().map { index, time in
            clock.time(time, frameIndex: index) { _ in retimes += 1 }
        }
        XCTAssertEqual(times, [100.0, 100.04, 100.04, 100.12])
        XCTAssertEqual(retimes, 0)
        XCTAssertFalse(clock.countsFrames)
    }

    func testABackwardOrBrokenTimestampSwitchesToTheFrameCountOnceAndForAll() {
        for broken in [50.0, .nan, .infinity] {
            var clock = FrameClock(frameRate: 25)
            var held = [0: 100.0, 1: 100.04]
            var retimes = 0
            _ = clock.time(100.0, frameIndex: 0) { _ in retimes += 1 }
            _ = clock.time(100.04, frameIndex: 1) { _ in retimes += 1 }
            let switched = clock.time(broken, frameIndex: 2) { frameTime in
                retimes += 1
                for index in held.keys { held[index] = frameTime(index) }
            }
            // A good timestamp after the switch does not bring the decoder's clock back.
            let after = clock.time(100.16, frameIndex: 3) { _ in retimes += 1 }
            XCTAssertEqual(switched, 0.08, accuracy: 1e-12, "\(broken)")
            XCTAssertEqual(after, 0.12, accuracy: 1e-12, "\(broken)")
            XCTAssertEqual(held, [0: 0, 1: 0.04], "\(broken): the points held are re-timed on the frame count")
            XCTAssertEqual(retimes, 1, "\(broken)")
            XCTAssertTrue(clock.countsFrames)
        }
    }
}
