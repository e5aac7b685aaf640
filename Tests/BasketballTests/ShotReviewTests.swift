@testable import Basketball
import Foundation
import ReelworkCore
import SportKit
import XCTest

/// Saying when unsure (issue 31): each shot's `review` reasons and the `confidence` they lower, on
/// hand-made ball paths (ShotFinderTests' flight), and both in the result document.
final class ShotReviewTests: XCTestCase {
    let paths = HandMadeFlight()

    /// The flight of ShotFinderTests, then down through the middle of the hoop and on below the
    /// net, a point every frame.
    func madeShot() throws -> [BallPoint] {
        var points = paths.shot(end: 1.0)
        let last = try XCTUnwrap(points.last)
        for k in 1...10 {
            points.append(BallPoint(t: last.t + Double(k) / paths.fps, frameIndex: last.frameIndex + k, x: 315, y: 200 + 8 * Double(k),
                                    radius: 7.8, fromDetector: false))
        }
        return points
    }

    func onlyShot(_ points: [BallPoint], finder: ShotFinder? = nil) throws -> BasketballShot {
        let shots = (finder ?? paths.finder()).shots(in: points)
        XCTAssertEqual(shots.count, 1)
        return try XCTUnwrap(shots.first)
    }

    func testACleanShotHasNoReasonAndTheCleanConfidence() throws {
        let shot = try onlyShot(try madeShot())
        XCTAssertTrue(shot.made)
        XCTAssertEqual(shot.review, [])
        XCTAssertEqual(shot.confidence, ShotConfidence.clean, accuracy: 0.005)
    }

    /// Every other frame around the rim lost (the net's cords, the rim in front of the ball): still
    /// made, but the reason says so and the confidence drops by its factor.
    func testABallHiddenAtTheRimIsReviewedWithLowerConfidence() throws {
        let clean = try onlyShot(try madeShot())
        let hidden = try madeShot().filter { abs($0.t - clean.rimTime) > ShotReviewTuning.rimWindowSeconds || $0.frameIndex % 2 == 0 }
        let shot = try onlyShot(hidden)
        XCTAssertTrue(shot.made)
        XCTAssertEqual(shot.review.map { $0.code }, ["ballHiddenAtRim"])
        let message = shot.review.first?.message ?? ""
        XCTAssertTrue(message.contains("frames around its arrival at the rim"), message)
        XCTAssertLessThan(shot.confidence, clean.confidence)
        XCTAssertEqual(shot.confidence, ShotConfidence.clean * ShotConfidence.factors["ballHiddenAtRim"]!, accuracy: 0.005)
    }

    /// In between the rim's ends and then lost above the net's bottom: missed for want of seeing it
    /// go through, a close call.
    func testABallLostInsideTheRimIsACloseCall() throws {
        var points = paths.shot(end: 1.0)
        let last = try XCTUnwrap(points.last)
        for k in 1...2 {
            points.append(BallPoint(t: last.t + Double(k) / paths.fps, frameIndex: last.frameIndex + k, x: 315, y: 200 + 6 * Double(k),
                                    radius: 7.8, fromDetector: false))
        }
        let shot = try onlyShot(points)
        XCTAssertFalse(shot.made)
        XCTAssertTrue(shot.review.map { $0.code }.contains("madeMissedClose"), "\(shot.review)")
        XCTAssertLessThan(shot.confidence, ShotConfidence.clean)
    }

    /// A release near the three-point line (measured 0.65–1.15 of it) and a flight at the frame's edge.
    func testALineCallAndTheFrameEdgeAreReasons() throws {
        let near = ShotFinder(rim: paths.rim, frameRate: paths.fps, threePointDistanceFt: 12, frameWidth: 640, frameHeight: 480)
        let shot = try onlyShot(try madeShot(), finder: near)
        XCTAssertEqual(shot.review.map { $0.code }, ["nearThreePointLine"])
        let edge = ShotFinder(rim: paths.rim, frameRate: paths.fps, threePointDistanceFt: 22.15, frameWidth: 330, frameHeight: 480)
        XCTAssertEqual(try onlyShot(try madeShot(), finder: edge).review.map { $0.code }, ["atFrameEdge"])
    }

    func testTheResultDocumentCarriesConfidenceAndReview() throws {
        let clean = try onlyShot(try madeShot())
        let shot = try onlyShot(try madeShot().filter { abs($0.t - clean.rimTime) > ShotReviewTuning.rimWindowSeconds || $0.frameIndex % 2 == 0 })
        let result = BasketballResult(hoop: paths.rim, hoopSource: .option, shots: [clean, shot], stats: ShootingStats(shots: [clean, shot]),
                                      framesSeen: 60, framesWithBall: 50, framesWithBallFromDetector: 0, threePointDistanceFt: 22.15)
        func items(_ value: JSONValue?) -> [JSONValue] { if case .array(let a)? = value { a } else { [] } }
        let rows = items(result.json()["shots"])
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0]["review"], .array([]))
        XCTAssertEqual(rows[0]["confidence"]?.number ?? -1, ShotConfidence.clean, accuracy: 0.005)
        XCTAssertEqual(items(rows[1]["review"]).first?["code"], .string("ballHiddenAtRim"))
        guard case .string(let message)? = items(rows[1]["review"]).first?["message"] else { return XCTFail("review[0].message is a string") }
        XCTAssertTrue(message.contains("frames around its arrival at the rim"), message)
        XCTAssertEqual(rows[1]["confidence"]?.number ?? -1, shot.confidence, accuracy: 0.0005)
    }

    func testConfidenceIsTheCleanShareTimesEachReasonsFactor() {
        let two = [ShotReview(code: "ballHiddenAtRim", message: ""), ShotReview(code: "fewArcPoints", message: "")]
        XCTAssertEqual(ShotConfidence.value(review: two),
                       ShotConfidence.clean * ShotConfidence.factors["ballHiddenAtRim"]! * ShotConfidence.factors["fewArcPoints"]!, accuracy: 1e-9)
        XCTAssertEqual(ShotConfidence.value(review: []), ShotConfidence.clean)
    }
}

/// The API document says what a shot is: its fields are the result's, its review codes are the
/// ones `ShotConfidence` has a factor for.
final class ShotDocumentTests: XCTestCase {
    func testTheAPIDocumentDescribesAShotAndEveryReviewCode() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi/openapi.json")
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let schemas = try XCTUnwrap((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let shotSchema = try XCTUnwrap(schemas["BasketballShot"] as? [String: Any])
        let shot = BasketballShot(shotNumber: 1, releaseTime: 1, rimTime: 2, made: true, shotType: .twoPoint, distanceFt: 12, confidence: 0.9,
                                  releasePoint: FramePoint(x: 1, y: 2), trajectory: [], review: [.fewArcPoints(3)])
        guard case .object(let fields) = shot.json() else { return XCTFail("a shot is an object") }
        XCTAssertEqual((shotSchema["required"] as? [String])?.sorted(), fields.keys.sorted())
        XCTAssertEqual(Set(((shotSchema["properties"] as? [String: Any]) ?? [:]).keys), Set(fields.keys))
        let review = try XCTUnwrap(schemas["ShotReview"] as? [String: Any])
        let codes = ((review["properties"] as? [String: Any])?["code"] as? [String: Any])?["enum"] as? [String]
        XCTAssertEqual(codes?.sorted(), ShotConfidence.factors.keys.sorted())
        let made: [ShotReview] = [.hiddenAtRim(seen: 1, of: 2), .madeMissedClose(.notFollowedBelowNet), .nearThreePointLine(distanceFt: 20, lineFt: 22),
                                  .fewArcPoints(3), .flightGap(seconds: 0.3), .atFrameEdge()]
        XCTAssertEqual(Set(made.map { $0.code }), Set(ShotConfidence.factors.keys), "every reason has a factor")
    }
}
