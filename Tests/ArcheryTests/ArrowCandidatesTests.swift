@testable import Archery
import ArcheryScenes
import ReelworkCore
import SportMath
import XCTest

/// What the finder keeps of its groups (issue 31: phantoms on scenes Reelwork did not make), each
/// rule on its own, and the face found when arrows in the gold cut it apart.
final class ArrowCandidatesTests: XCTestCase {
    /// A frontal face: centre (500, 400), 300 px to a face radius.
    let face = TargetFace(centerX: 500, centerY: 400, radiusPx: 300, ringsFound: 5,
                          homography: [1.0 / 300, 0, -500.0 / 300, 0, 1.0 / 300, -400.0 / 300, 0, 0, 1], fitErrorPx: 0.4)
    let arrowRadius = 0.0045

    func impact(_ x: Double, _ y: Double, confidence: Double = 0.8, tail: (x: Double, y: Double)? = nil) -> ArrowImpact {
        ArrowImpact(pixelX: 500 + 300 * x, pixelY: 400 + 300 * y, box: BoundingBox(x: 0, y: 0, width: 1, height: 1), confidence: confidence,
                    isShaft: tail != nil, tailX: tail.map { 500 + 300 * $0.x }, tailY: tail.map { 400 + 300 * $0.y })
    }

    func testARoundGroupBeyondTheFaceIsNotAnArrowButAShaftThereIs() {
        let pin = impact(1.1, 0), hole = impact(0.5, 0), miss = impact(0, 1.1, tail: (0.1, 1.4))
        let kept = ArrowCandidates.plausible([pin, hole, miss], face: face, arrowRadius: arrowRadius)
        XCTAssertEqual(kept, [hole, miss])
    }

    func testAShaftFromTheFaceToPastItsEdgeEnteredAtTheEndOnTheFace() {
        // Its group's shape took the end past the edge (the nock's) for the impact.
        var leaning = impact(1.25, -0.2, tail: (0.7, 0.1))
        leaning.endsAlike = true
        let turned = ArrowFinder.impactOnTheFace(leaning, face: face)
        XCTAssertEqual(turned.pixelX, 500 + 300 * 0.7, accuracy: 1e-9)
        XCTAssertEqual(turned.pixelY, 400 + 300 * 0.1, accuracy: 1e-9)
        XCTAssertEqual(turned.tailX ?? 0, 500 + 300 * 1.25, accuracy: 1e-9)
        XCTAssertFalse(turned.endsAlike, "the face said which end it is")
        // Both ends on the face, both past it (a miss in the boss), an end at the edge itself, a
        // round group: the shape's choice stands.
        for kept in [impact(0.9, 0, tail: (0.5, 0)), impact(1.1, 0, tail: (1.4, 0.2)), impact(1.02, 0, tail: (0.6, 0)),
                     impact(1.2, 0, tail: (0.98, 0)), impact(1.2, 0)] {
            XCTAssertEqual(ArrowFinder.impactOnTheFace(kept, face: face), kept)
        }
    }

    func testAShaftCutByTheSearchsEdgeWentInAtItsOtherEnd() {
        // The group ends where the search does (1.5 face radii): that end is no end.
        let cut = impact(1.49, 0.05, tail: (1.15, 0.1))
        let turned = ArrowFinder.impactInsideSearch(cut, face: face)
        XCTAssertEqual(turned?.pixelX ?? 0, 500 + 300 * 1.15, accuracy: 1e-9)
        XCTAssertEqual(turned?.tailX ?? 0, 500 + 300 * 1.49, accuracy: 1e-9)
        // Cut at both ends: a boss's edge or a stand's leg across the search's edge.
        XCTAssertNil(ArrowFinder.impactInsideSearch(impact(0.3, 1.47, tail: (-0.3, 1.47)), face: face))
        // Ends inside the search, and round groups, stand.
        for kept in [impact(1.2, 0, tail: (1.45, 0.1)), impact(0.5, 0, tail: (0.9, 0)), impact(1.49, 0)] {
            XCTAssertEqual(ArrowFinder.impactInsideSearch(kept, face: face), kept)
        }
    }

    func testAShadowOnTheWhiteCastByAnArrowFurtherInIsNotAnArrow() {
        // An arrow in the 9, its shadow falling straight down: seen first on the white, from 0.8 out.
        let arrow = impact(0.02, 0.1, tail: (-0.2, -0.3))
        let shadow = impact(0.021, 0.8, confidence: 0.9, tail: (0.025, 0.97))
        XCTAssertEqual(ArrowCandidates.plausible([arrow, shadow], face: face, arrowRadius: arrowRadius), [arrow])
        // The arrow not found: the shadow stays a candidate, believed after the shafts inside.
        guard let alone = ArrowCandidates.plausible([shadow], face: face, arrowRadius: arrowRadius).first else { return XCTFail("dropped") }
        XCTAssertTrue(alone.mayBeShadow)
        XCTAssertEqual(ArrowCandidates.tier(isShaft: true, distance: 0.8, mayBeShadow: true), 1)
        XCTAssertEqual(ArrowCandidates.tier(isShaft: true, distance: 0.8, mayBeShadow: false), 0)
        // A shaft from 0.8 leaning inward, one from elsewhere, and one whose line misses the arrow
        // are shafts.
        let inward = impact(0.021, 0.8, tail: (0.02, 0.5)), further = impact(0.3, 0.5, tail: (0.35, 0.7))
        let aside = impact(0.62, 0.5, tail: (0.8, 0.55))
        let kept = ArrowCandidates.plausible([arrow, inward, further, aside], face: face, arrowRadius: arrowRadius)
        XCTAssertEqual(kept.map(\.pixelX), [arrow, inward, further, aside].map(\.pixelX))
        XCTAssertEqual(kept.map(\.mayBeShadow), [false, false, false, true], "only a shaft from the white's inner edge outward may be a shadow")
    }

    func testAShadowTheFacesLineShowsThroughIsNotAnArrowWhateverCastIt() {
        // The arrow that cast it was not found; the line between the white rings shows through it.
        let shadow = impact(0.021, 0.8, confidence: 0.9, tail: (0.025, 0.97))
        var asked = [(head: (x: Double, y: Double), tail: (x: Double, y: Double))]()
        XCTAssertEqual(ArrowCandidates.plausible([shadow], face: face, arrowRadius: arrowRadius,
                                                 lineShowsThrough: { asked.append(($0, $1)); return true }), [])
        XCTAssertEqual(asked.count, 1)
        XCTAssertEqual(asked.first?.head.y ?? 0, 0.8, accuracy: 1e-9)
        XCTAssertEqual(asked.first?.tail.y ?? 0, 0.97, accuracy: 1e-9)
        // The line hidden by it, or not to be told: a candidate believed after the shafts inside.
        for answer in [false, nil] as [Bool?] {
            let kept = ArrowCandidates.plausible([shadow], face: face, arrowRadius: arrowRadius, lineShowsThrough: { _, _ in answer })
            XCTAssertEqual(kept.map(\.mayBeShadow), [true], "answer \(String(describing: answer))")
        }
        // A shaft elsewhere is not asked about.
        let inside = impact(0.3, 0.5, tail: (0.35, 0.7))
        XCTAssertEqual(ArrowCandidates.plausible([inside], face: face, arrowRadius: arrowRadius,
                                                 lineShowsThrough: { _, _ in XCTFail("asked"); return true }), [inside])
    }

    func testTwoPiecesOfOneShaftEndToEndAreOneArrow() {
        // The shaft from (0.2, 0) outwards, cut at 0.45: the piece at the impact and the one beyond.
        let head = impact(0.2, 0, confidence: 0.7, tail: (0.45, 0)), beyond = impact(0.5, 0, confidence: 0.9, tail: (0.8, 0.002))
        XCTAssertEqual(ArrowCandidates.plausible([beyond, head], face: face, arrowRadius: arrowRadius), [head])
        // Two arrows side by side, parallel, more than a few arrow radii apart, stay two.
        let other = impact(0.2, 0.05, tail: (0.45, 0.05))
        XCTAssertEqual(ArrowCandidates.plausible([head, other], face: face, arrowRadius: arrowRadius), [head, other])
    }

    func testImpactsCloserThanAnArrowsDiameterAreOne() {
        let a = impact(0.3, 0.3, confidence: 0.9, tail: (0.5, 0.6)), b = impact(0.3 + arrowRadius, 0.3, confidence: 0.6)
        XCTAssertEqual(ArrowCandidates.plausible([b, a], face: face, arrowRadius: arrowRadius), [a])
        let c = impact(0.3 + 3 * arrowRadius, 0.3, confidence: 0.6)
        XCTAssertEqual(ArrowCandidates.plausible([a, c], face: face, arrowRadius: arrowRadius).count, 2)
    }

    func testWithTheCountShotTheClearestAreScoredAndTheRestCounted() {
        let shafts = [impact(0.1, 0, confidence: 0.6, tail: (0.1, 0.3)), impact(-0.3, 0, confidence: 0.9, tail: (-0.3, 0.3))]
        let nearTheEdge = impact(0, -0.97, confidence: 0.95, tail: (0, -1.2))
        let end = ArcheryScoring.end(face: face, impacts: shafts + [nearTheEdge], options: ArcheryOptions(expectedArrowCount: 2))
        XCTAssertEqual(end.arrows.map(\.score).sorted(), [8, 10], "the two shafts inside, before the one at the edge however sure it is")
        XCTAssertEqual(end.leftOutCandidates, 1)
        XCTAssertEqual(end.message?.contains("3 possible arrows found for 2 shot"), true, end.message ?? "")
        guard case .object(let fields) = end.json() else { return XCTFail("not an object") }
        XCTAssertEqual(fields["leftOutCandidates"], .number(1))
        // Without the count every candidate is scored.
        XCTAssertEqual(ArcheryScoring.end(face: face, impacts: shafts + [nearTheEdge], options: ArcheryOptions()).arrows.count, 3)
        let ranked = ArrowCandidates.strongest([0.2, 0.9, 0.5, 0.7], count: 2, tier: { _ in 0 }, confidence: { $0 })
        XCTAssertEqual(ranked.kept, [0.9, 0.7], "the most confident, in their given order")
        XCTAssertEqual(ranked.leftOut, 2)
    }

    /// What the finder cannot tell from a mark is left to a person: a candidate beyond the face
    /// (one that would score M), and a round group when a shaft is on the face (a hole of an
    /// earlier end). A picture of holes alone is scored from them.
    func testMissesAndHolesBesideShaftsAreLeftToAPerson() {
        let shaft = impact(0.1, 0, tail: (0.1, 0.3)), hole = impact(0, -0.5, confidence: 0.95)
        let touchingTheEdge = impact(1 + arrowRadius / 2, 0, tail: (1.2, 0)), beyond = impact(0, 1 + 2 * arrowRadius, tail: (0, 1.3))
        func scores(_ impacts: [ArrowImpact], expected: Int? = nil) -> ArcheryResult {
            ArcheryScoring.end(face: face, impacts: impacts, options: ArcheryOptions(expectedArrowCount: expected))
        }
        XCTAssertEqual(scores([shaft, touchingTheEdge, beyond]).arrows.map(\.score).sorted(), [1, 10], "a shaft touching the face's edge scores 1; one past it is not scored")
        let withTheCount = scores([shaft, hole, beyond], expected: 3)
        XCTAssertEqual(withTheCount.arrows.map(\.score), [10], "the hole beside a shaft and the miss are not scored")
        XCTAssertEqual(withTheCount.missingArrows, 2)
        XCTAssertEqual(scores([hole, impact(0.25, 0)]).arrows.map(\.score).sorted(), [6, 8], "holes alone are the end")
        XCTAssertEqual(scores([hole, beyond]).arrows.map(\.score), [6], "a shaft beyond the face leaves the holes scored")
    }

    func testAPieceOfARingsEdgeIsNotAShaft() {
        let toWorking = Homography(h: [300, 0, 500, 0, 300, 400, 0, 0, 1])
        guard let toFace = toWorking.inverse else { return XCTFail("no inverse") }
        // Pixels along the circle at 1.1 face radii, 3 px thick, over 0.4 rad: the paper's edge.
        var arc = [(x: Double, y: Double)]()
        for step in 0..<200 {
            let angle = 0.4 * Double(step) / 200
            for d in [-1.0, 0, 1] {
                let r: Double = 330 + d
                arc.append((x: 500 + r * cos(angle), y: 400 + r * sin(angle)))
            }
        }
        XCTAssertTrue(ArrowFinder.isRingArc(arc, workingToFace: toFace))
        // A straight shaft just as long, tangent to that circle, is a shaft.
        var shaft = [(x: Double, y: Double)]()
        for step in 0..<200 {
            for d in [-1.0, 0, 1] { shaft.append((x: 830 + d, y: 400 + 130 * Double(step) / 200)) }
        }
        XCTAssertFalse(ArrowFinder.isRingArc(shaft, workingToFace: toFace))
    }

    func testAShadowOnAColouredZoneIsNotForeignButAGreyShaftIs() {
        let gold = SIMD3<Double>(230, 200, 40), white = SIMD3<Double>(235, 235, 230)
        XCTAssertTrue(ArrowFinder.isShadow(gold * 0.6, of: gold, limit: 40))
        XCTAssertFalse(ArrowFinder.isShadow(SIMD3(120, 120, 120), of: gold, limit: 40), "a grey shaft on the gold")
        XCTAssertFalse(ArrowFinder.isShadow(gold * 0.15, of: gold, limit: 40), "a black shaft on the gold")
        XCTAssertFalse(ArrowFinder.isShadow(white * 0.6, of: white, limit: 40), "on white a shadow and a grey shaft look the same")
    }

    /// A face drawn by hand on a gold (straw) boss: zones out to 300 px about (400, 400), the X and
    /// 10 lines 3 px wide cutting the gold into a disc and a ring, a sheet of paper around the face;
    /// `shaft` drawn over it from the centre to (760, 700), `shaftWidth` pixels wide.
    func handDrawnFace(shaft: [UInt8], shaftWidth: Double) throws -> WorkingImage {
        let size = 800
        var pixels = [UInt8](repeating: 0, count: size * size * 3)
        for y in 0..<size {
            for x in 0..<size {
                let r = hypot(Double(x - 400), Double(y - 400))
                var c: [UInt8] = max(abs(x - 400), abs(y - 400)) > 340 ? [200, 170, 60]   // the straw boss
                    : r < 60 ? [235, 205, 40] : r < 120 ? [210, 40, 40] : r < 180 ? [40, 120, 210] : r < 240 ? [25, 25, 25] : [240, 240, 235]
                if abs(r - 15) < 1.5 || abs(r - 30) < 1.5 { c = [25, 25, 25] }
                // The shaft: within shaftWidth / 2 of the segment from the centre to (760, 700).
                let t = max(0, min(1, (Double(x - 400) * 360 + Double(y - 400) * 300) / (360 * 360 + 300 * 300)))
                if hypot(Double(x) - 400 - 360 * t, Double(y) - 400 - 300 * t) <= shaftWidth / 2 { c = shaft }
                pixels.replaceSubrange((y * size + x) * 3..<(y * size + x) * 3 + 3, with: c)
            }
        }
        return WorkingImage(try ArcheryImage(width: size, height: size, pixels: pixels))
    }

    func testTheGoldIsFoundWhenLinesAndAShaftCutItUp() throws {
        // A grey shaft in the X: the X disc's centroid lies on the shaft, the 10 ring's in its hole.
        guard let gold = GoldPatch.centre(in: try handDrawnFace(shaft: [110, 110, 110], shaftWidth: 9)) else { return XCTFail("no gold") }
        XCTAssertEqual(gold.x, 400, accuracy: 6)
        XCTAssertEqual(gold.y, 400, accuracy: 6)
        XCTAssertEqual(gold.radius, 60, accuracy: 8)
    }

    func testTheGoldIsFoundWhenAGoldShaftJoinsItToAGoldBoss() throws {
        // A yellow shaft 4 px wide runs from the gold, across the face and the paper, into the boss.
        guard let gold = GoldPatch.centre(in: try handDrawnFace(shaft: [235, 205, 40], shaftWidth: 4)) else { return XCTFail("no gold") }
        XCTAssertEqual(gold.x, 400, accuracy: 6)
        XCTAssertEqual(gold.y, 400, accuracy: 6)
        XCTAssertEqual(gold.radius, 60, accuracy: 8, "the face's gold, not the boss with it")
    }
}
