@testable import Archery
import Foundation
import ReelworkCore
import SportKit
import XCTest

/// Saying when unsure (issue 31): each arrow's `review` reasons and the `confidence` they lower, on
/// impacts placed by hand on a frontal face, and both in the result document and the API document.
final class ArrowReviewTests: XCTestCase {
    /// A frontal face: centre (500, 400), 300 px to a face radius.
    let face = TargetFace(centerX: 500, centerY: 400, radiusPx: 300, ringsFound: 5,
                          homography: [1.0 / 300, 0, -500.0 / 300, 0, 1.0 / 300, -400.0 / 300, 0, 0, 1], fitErrorPx: 0.4)

    /// A shaft whose impact is at (x, y) face radii, its tail 0.3 further out to the right.
    func shaft(_ x: Double, _ y: Double, confidence: Double = 0.8, crossing: Bool = false, endsAlike: Bool = false) -> ArrowImpact {
        ArrowImpact(pixelX: 500 + 300 * x, pixelY: 400 + 300 * y, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), confidence: confidence,
                    isShaft: true, tailX: 500 + 300 * (x + 0.3), tailY: 400 + 300 * y, crossesAnother: crossing, endsAlike: endsAlike)
    }

    func only(_ impact: ArrowImpact) throws -> DetectedArrow {
        let end = ArcheryScoring.end(face: face, impacts: [impact], options: ArcheryOptions())
        XCTAssertEqual(end.arrows.count, 1)
        return try XCTUnwrap(end.arrows.first)
    }

    func codes(_ arrow: DetectedArrow) -> [String] { arrow.review.map(\.code) }

    func testAClearShaftHasNoReasonAndTheCleanConfidence() throws {
        let arrow = try only(shaft(0.35, 0.02))
        XCTAssertEqual(codes(arrow), [])
        XCTAssertEqual(arrow.confidence, 1 / (1 + exp(-ArrowConfidence.intercept)), accuracy: 1e-9)
    }

    func testEachCueGivesItsReasonAndNoneRaisesTheConfidence() throws {
        let clean = try only(shaft(0.35, 0.02)).confidence
        let cases: [(ArrowImpact, String)] = [
            (shaft(0.2 + 0.002, 0), "onScoringLine"),
            (shaft(0.35, 0.02, crossing: true), "crossingShafts"),
            (shaft(0.35, 0.02, endsAlike: true), "endsAlike"),
            (shaft(0.95, 0.02), "nearFaceEdge"),
            (ArrowImpact(pixelX: 500 + 300 * 0.35, pixelY: 406, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), confidence: 0.6), "noShaftSeen"),
        ]
        for (impact, code) in cases {
            let arrow = try only(impact)
            XCTAssertEqual(codes(arrow), [code])
            XCTAssertLessThanOrEqual(arrow.confidence, clean, code)
            XCTAssertFalse(arrow.review[0].message.isEmpty)
        }
        // Those a person most often finds wrong weigh most: a mark at the face's edge, a round group.
        XCTAssertLessThan(try only(shaft(0.95, 0.02)).confidence, 0.3)
        XCTAssertLessThan(try only(shaft(0.35, 0.02, endsAlike: true)).confidence, clean)
    }

    func testTheLineReasonNamesTheLine() throws {
        let nine = try only(shaft(0.2 + 0.002, 0))
        XCTAssertEqual(nine.score, 9)
        XCTAssertTrue(nine.review[0].message.contains("between the 8 and the 9"), nine.review[0].message)
        let x = try only(shaft(0.05 + 0.002, 0))
        XCTAssertTrue(x.review[0].message.contains("the X and the 10"), x.review[0].message)
        XCTAssertTrue(try only(shaft(1.0 - 0.002, 0)).review.contains { $0.message.contains("the 1 and a miss") })
    }

    func testWithMoreFoundThanShotEachKeptArrowSaysSoAndEdgeShaftsComeLast() throws {
        // The edge shaft is the surest by the finder's own measure, yet it is left out for the inner ones.
        let impacts = [shaft(0.95, 0.1, confidence: 0.95), shaft(0.25, 0.05, confidence: 0.6), shaft(-0.45, 0.05, confidence: 0.7)]
        let end = ArcheryScoring.end(face: face, impacts: impacts, options: ArcheryOptions(expectedArrowCount: 2))
        XCTAssertEqual(end.arrows.map(\.score).sorted(), [6, 8], "the two inner shafts")
        XCTAssertEqual(end.leftOutCandidates, 1)
        for arrow in end.arrows {
            XCTAssertEqual(codes(arrow), ["moreFoundThanShot"])
            XCTAssertTrue(arrow.review[0].message.contains("3 possible arrows were found for 2 shot"), arrow.review[0].message)
        }
        // Without the count every candidate is scored, and none says the end was crowded.
        let all = ArcheryScoring.end(face: face, impacts: impacts, options: ArcheryOptions())
        XCTAssertEqual(all.arrows.count, 3)
        XCTAssertFalse(all.arrows.contains { codes($0).contains("moreFoundThanShot") })
    }

    func testTheResultDocumentCarriesConfidenceAndReview() throws {
        let end = ArcheryScoring.end(face: face, impacts: [shaft(0.95, 0.02)], options: ArcheryOptions())
        guard case .object(let document) = end.json(), case .array(let arrows)? = document["arrows"],
              case .array(let review)? = arrows.first?["review"] else { return XCTFail("no arrows[0].review") }
        XCTAssertEqual(review.first?["code"], .string("nearFaceEdge"))
        XCTAssertEqual(arrows.first?["confidence"]?.number ?? -1, end.arrows[0].confidence, accuracy: 0.001)
    }

    func testConfidenceAddsEachReasonsWeightInLogOdds() {
        let two = [ArrowReview(code: "nearFaceEdge", message: ""), ArrowReview(code: "onScoringLine", message: "")]
        let logOdds = ArrowConfidence.intercept + ArrowConfidence.weights["nearFaceEdge"]! + ArrowConfidence.weights["onScoringLine"]!
        XCTAssertEqual(ArrowConfidence.value(review: two), 1 / (1 + exp(-logOdds)), accuracy: 1e-9)
        XCTAssertTrue(ArrowConfidence.weights.values.allSatisfy { $0 <= 0 }, "a reason never raises the confidence")
    }

    /// The API document says what an arrow is: its fields are the result's, its review codes are the
    /// ones `ArrowConfidence` weighs.
    func testTheAPIDocumentDescribesAnArrowAndEveryReviewCode() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi/openapi.json")
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let schemas = try XCTUnwrap((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let arrowSchema = try XCTUnwrap(schemas["ArcheryArrow"] as? [String: Any])
        let end = ArcheryScoring.end(face: face, impacts: [shaft(0.35, 0.02)], options: ArcheryOptions())
        guard case .object(let document)? = Optional(end.json()), case .array(let arrows)? = document["arrows"],
              case .object(let fields)? = arrows.first else { return XCTFail("an arrow is an object") }
        XCTAssertEqual((arrowSchema["required"] as? [String])?.sorted(), fields.keys.sorted())
        // A video's arrows add their arrival time.
        XCTAssertEqual(Set(((arrowSchema["properties"] as? [String: Any]) ?? [:]).keys), Set(fields.keys).union(["arrivalTime"]))
        let review = try XCTUnwrap(schemas["ArrowReview"] as? [String: Any])
        let codes = ((review["properties"] as? [String: Any])?["code"] as? [String: Any])?["enum"] as? [String]
        XCTAssertEqual(codes?.sorted(), ArrowConfidence.weights.keys.sorted())
        let made: [ArrowReview] = [.onScoringLine(distance: 0.2, arrowRadius: 0.004), .noShaftSeen(), .crossingShafts(), .endsAlike(),
                                   .nearFaceEdge(distance: 0.95), .moreFoundThanShot(found: 3, shot: 2)]
        XCTAssertEqual(Set(made.map(\.code)), Set(ArrowConfidence.weights.keys), "every reason has a weight")
    }
}
