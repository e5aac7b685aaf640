@testable import Archery
import ReelworkCore
import SportMath
import XCTest

/// The face's pose from its homography (`FacePose`), and the shaft it turns round: a camera of
/// known focal length, turned 25° and tipped 10°, looks at a face eight face radii away.
final class FacePoseTests: XCTestCase {
    let focal = 1000.0, width = 1280, height = 960

    /// The camera's image of face coordinates (x right, y down, face radii) lifted `lift` off the face
    /// towards the camera, for a face turned `yaw` and tipped `pitch` degrees.
    func project(_ u: Double, _ v: Double, lift: Double = 0, yaw: Double, pitch: Double) -> (x: Double, y: Double) {
        let (a, b) = (yaw * .pi / 180, pitch * .pi / 180)
        // Columns of the rotation: the face's x axis, y axis and normal (away from the camera).
        let ex = SIMD3(cos(a), 0, -sin(a)), ey = SIMD3(sin(a) * sin(b), cos(b), cos(a) * sin(b))
        let ez = SIMD3(sin(a) * cos(b), -sin(b), cos(a) * cos(b))
        let p = ex * u + ey * v - ez * lift + SIMD3(0.3, -0.2, 8)
        return (focal * p.x / p.z + Double(width - 1) / 2, focal * p.y / p.z + Double(height - 1) / 2)
    }

    func face(yaw: Double, pitch: Double) throws -> TargetFace {
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        let image = corners.map { project($0.0, $0.1, yaw: yaw, pitch: pitch) }
        let toFace = try XCTUnwrap(Homography.fitting(from: image, to: corners.map { (x: $0.0, y: $0.1) }))
        let centre = project(0, 0, yaw: yaw, pitch: pitch)
        return TargetFace(centerX: centre.x, centerY: centre.y, radiusPx: 120, ringsFound: 5, homography: toFace.h, fitErrorPx: 0)
    }

    func shaft(from head: (x: Double, y: Double), to tail: (x: Double, y: Double)) -> ArrowImpact {
        ArrowImpact(pixelX: head.x, pixelY: head.y, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), confidence: 0.6,
                    isShaft: true, tailX: tail.x, tailY: tail.y, endsAlike: true)
    }

    func testTheFocalLengthAndTheWayOffTheFaceComeFromTheHomography() throws {
        let pose = try XCTUnwrap(FacePose(face: try face(yaw: 25, pitch: 10), width: width, height: height))
        XCTAssertEqual(pose.focal, focal, accuracy: 1e-6 * focal)
        for (u, v) in [(0.0, 0.0), (0.7, -0.4), (-0.9, 0.6)] {
            let on = project(u, v, yaw: 25, pitch: 10), off = project(u, v, lift: 0.3, yaw: 25, pitch: 10)
            let length = hypot(off.x - on.x, off.y - on.y)
            let outward = try XCTUnwrap(pose.outward(pixelX: on.x, pixelY: on.y))
            XCTAssertEqual(outward.x, (off.x - on.x) / length, accuracy: 0.01, "at (\(u), \(v))")
            XCTAssertEqual(outward.y, (off.y - on.y) / length, accuracy: 0.01, "at (\(u), \(v))")
        }
        XCTAssertNil(FacePose(face: try face(yaw: 0, pitch: 0), width: width, height: height), "seen straight on, the focal length is not fixed")
    }

    func testAShaftRunningAgainstTheWayOffTheFaceIsTurnedRound() throws {
        let pose = try XCTUnwrap(FacePose(face: try face(yaw: 25, pitch: 10), width: width, height: height))
        let impact = project(0.2, 0.1, yaw: 25, pitch: 10), nock = project(0.2, 0.1, lift: 1.2, yaw: 25, pitch: 10)
        let right = shaft(from: impact, to: nock)
        XCTAssertEqual(ArrowFinder.impactByPerspective(right, pose: pose), right, "taken the right way round")
        let wrong = ArrowFinder.impactByPerspective(shaft(from: nock, to: impact), pose: pose)
        XCTAssertEqual(wrong.pixelX, impact.x, accuracy: 1e-9)
        XCTAssertEqual(wrong.pixelY, impact.y, accuracy: 1e-9)
        // Across the way off the face (a lean, seen from the side): no say.
        let across = (x: impact.x - (nock.y - impact.y), y: impact.y + (nock.x - impact.x))
        let sideways = shaft(from: across, to: impact)
        XCTAssertEqual(ArrowFinder.impactByPerspective(sideways, pose: pose), sideways)
    }

    /// A miss in the boss whose nock leans over the face in the picture: by the face's edge alone
    /// (its head off the face, its tail on it) it would be turned and scored on the face; the
    /// camera's pose says it already runs from its impact the way an arrow stands out.
    func testAMissWhoseNockLeansOverTheFaceStaysAMiss() throws {
        let face = try face(yaw: 25, pitch: 10)
        let pose = try XCTUnwrap(FacePose(face: face, width: width, height: height))
        let misses = [(1.15, 0.0), (-1.15, 0.0), (0.0, 1.15), (0.0, -1.15)].map { u, v in
            (impact: project(u, v, yaw: 25, pitch: 10), nock: project(u, v, lift: 1.5, yaw: 25, pitch: 10))
        }
        let miss = try XCTUnwrap(misses.first { face.radius(pixelX: $0.nock.x, pixelY: $0.nock.y).map { $0 < 0.9 } == true },
                                 "one of the misses has its nock over the face")
        let seen = shaft(from: miss.impact, to: miss.nock)
        XCTAssertEqual(ArrowFinder.impactOnTheFace(seen, face: face).pixelX, miss.nock.x, accuracy: 1e-9, "the edge alone turns it")
        XCTAssertEqual(ArrowFinder.impactOnTheFace(seen, face: face, pose: pose), seen, "the pose keeps it a miss")
        // Seen the wrong way round (nock first), the edge's rule is not needed and the pose turns it.
        let backwards = shaft(from: miss.nock, to: miss.impact)
        XCTAssertEqual(ArrowFinder.impactOnTheFace(backwards, face: face, pose: pose), backwards, "its head is on the face: no turn")
        XCTAssertEqual(ArrowFinder.impactByPerspective(backwards, pose: pose).pixelX, miss.impact.x, accuracy: 1e-9)
        // Without a pose (a face seen straight on), the edge decides as before.
        let unposed = try self.face(yaw: 0, pitch: 0)
        XCTAssertNil(FacePose(face: unposed, width: width, height: height))
        XCTAssertEqual(ArrowFinder.impactOnTheFace(seen, face: face, pose: nil).pixelX, miss.nock.x, accuracy: 1e-9)
    }
}
