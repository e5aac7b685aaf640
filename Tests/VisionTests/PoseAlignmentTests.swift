import Vision
import XCTest

final class PoseAlignmentTests: XCTestCase {
    /// Hips at (cx, cy), the scale point `radius` above them.
    private func body(_ cx: Double, _ cy: Double, radius: Double = 100) -> PoseAlignment {
        PoseAlignment(centreX: cx, centreY: cy, scaleX: cx, scaleY: cy - radius)
    }

    func testTheCropIsMediaPipesSquareAroundTheHips() throws {
        let crop = try XCTUnwrap(PoseCrop(following: body(300, 400, radius: 100)))
        // 2 × radius × 1.25 = 250, centred on the hips.
        XCTAssertEqual(crop, PoseCrop(left: 175, top: 275, side: 250))
        XCTAssertNil(PoseCrop(following: body(300, 400, radius: 0)), "a degenerate alignment gives no crop")
        XCTAssertNil(PoseCrop(following: PoseAlignment(centreX: .nan, centreY: 0, scaleX: 0, scaleY: 10)))
    }

    func testABodyCannotMoveFurtherOrGrowMoreThanABodyCan() {
        let last = body(300, 400)
        XCTAssertTrue(last.isPlausible(next: body(320, 405), after: 0.1), "a player's step in a tenth of a second")
        XCTAssertTrue(last.isPlausible(next: body(400, 400), after: 0.1), "a sprint: a radius in a tenth of a second")
        XCTAssertFalse(last.isPlausible(next: body(450, 400), after: 0.1), "a radius and a half in a tenth: another body")
        XCTAssertTrue(last.isPlausible(next: body(450, 400), after: 0.5), "the same step over half a second")
        XCTAssertTrue(last.isPlausible(next: body(310, 400), after: 0), "jitter on the same frame time")
        XCTAssertFalse(last.isPlausible(next: body(300, 400, radius: 160), after: 0.1), "grew by 60 %")
        XCTAssertFalse(last.isPlausible(next: body(300, 400, radius: 60), after: 0.1), "shrank by 40 %")
        XCTAssertFalse(last.isPlausible(next: PoseAlignment(centreX: .nan, centreY: 400, scaleX: 300, scaleY: 300), after: 0.1))
    }
}
