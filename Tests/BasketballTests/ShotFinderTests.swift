@testable import Basketball
import XCTest

/// The shot finder on hand-made ball paths: what real footage does that the project's own scenes
/// did not (a ball lost in the net, a flight the camera sees in perspective).
final class ShotFinderTests: XCTestCase {
    let paths = HandMadeFlight()
    var fps: Double { paths.fps }
    func shot(releaseAt: Double = 0.6, gravityShare: Double = 1, drift: Double = 0, end: Double) -> [BallPoint] {
        paths.shot(releaseAt: releaseAt, gravityShare: gravityShare, drift: drift, end: end)
    }
    func finder() -> ShotFinder { paths.finder() }

    /// The net's cords cut the ball up and its shade darkens it: lost for 0.4 s inside the hoop,
    /// then seen falling below the net, it went through.
    func testABallLostInTheNetOnItsWayThroughIsMade() throws {
        var points = shot(end: 1.0)
        let last = try XCTUnwrap(points.last)
        for k in 0..<5 {
            let t = last.t + 0.4 + Double(k) / fps
            points.append(BallPoint(t: t, frameIndex: points.count + 12, x: 316, y: 240 + 12 * Double(k), radius: 7.8, fromDetector: false))
        }
        let shots = finder().shots(in: points)
        XCTAssertEqual(shots.count, 1)
        XCTAssertEqual(shots.first?.made, true)
    }

    /// Lost at the front of the rim and found again well outside the hoop: a miss, never a make.
    func testABallLostAtTheRimAndFoundOutsideIsMissed() throws {
        var points = shot(end: 1.0)
        let last = try XCTUnwrap(points.last)
        for k in 0..<5 {
            let t = last.t + 0.4 + Double(k) / fps
            points.append(BallPoint(t: t, frameIndex: points.count + 12, x: 250 - 5 * Double(k), y: 240 + 12 * Double(k), radius: 7.8, fromDetector: false))
        }
        let shots = finder().shots(in: points)
        XCTAssertEqual(shots.count, 1)
        XCTAssertEqual(shots.first?.made, false)
    }

    /// Seen in perspective, the flight falls with three quarters of the rim's gravity and drifts
    /// sideways: the release is still found where the hand let go, not where the flight's first
    /// part stops fitting the rim's gravity.
    func testTheReleaseIsFoundOnAFlightSeenInPerspective() throws {
        let points = shot(releaseAt: 0.6, gravityShare: 0.75, drift: 40, end: 1.0)
        let shots = finder().shots(in: points)
        XCTAssertEqual(shots.count, 1)
        XCTAssertEqual(try XCTUnwrap(shots.first).releaseTime, 0.6, accuracy: 1.5 / fps)
    }
}

/// A shot toward a 30 px rim, made by hand point by point (ShotFinderTests, ShotReviewTests).
struct HandMadeFlight {
    /// A 30 px rim 200 px down: 20 px a foot, so gravity is 643.5 px/s² in the rim's plane.
    let rim = RimLine(left: FramePoint(x: 300, y: 200), right: FramePoint(x: 330, y: 200))
    let fps = 30.0

    /// Held still, pushed up to the release at `releaseAt`, then in flight under `gravityShare` of
    /// the rim's gravity with x drifting by `drift`·τ² (a flight off the rim's plane), ending at
    /// `end`; points a frame apart, each off by up to half a pixel (box centres are rounded).
    func shot(releaseAt: Double = 0.6, gravityShare: Double = 1, drift: Double = 0, end: Double) -> [BallPoint] {
        let g = 32.174 * 20 * gravityShare
        let start = (x: 110.0, y: 250.0), target = (x: 315.0, y: 200.0), flight = 1.0
        let vx = (target.x - start.x - drift * flight * flight) / flight, vy = (target.y - start.y - g / 2 * flight * flight) / flight
        var points: [BallPoint] = []
        var frame = 0
        while Double(frame) / fps <= releaseAt + min(end, flight) {
            let t = Double(frame) / fps
            let jitter = Double(frame % 3 - 1) / 2
            var p: (x: Double, y: Double)
            if t < releaseAt - 0.3 {
                p = (100, 300)
            } else if t < releaseAt {
                // The hand's push: from rest, slower than the flight it starts.
                let s = (t - (releaseAt - 0.3)) / 0.3
                p = (100 + 10 * s * s, 300 - 50 * s * s)
            } else {
                let τ = t - releaseAt
                p = (start.x + vx * τ + drift * τ * τ, start.y + vy * τ + g / 2 * τ * τ)
            }
            points.append(BallPoint(t: t, frameIndex: frame, x: p.x + jitter, y: p.y - jitter, radius: 7.8, fromDetector: false))
            frame += 1
        }
        return points
    }

    func finder() -> ShotFinder { ShotFinder(rim: rim, frameRate: fps, threePointDistanceFt: 22.15) }
}
