import XCTest

@testable import Archery

/// A shadow lies on the face, so the face's printed line shows through it; a shaft hides the line
/// (issue 31: shadows of arrows not found were scored on the white).
final class ShadowOnTheFaceTests: XCTestCase {
    /// A frontal face: centre (500, 400), 300 px to a face radius.
    let face = TargetFace(
        centerX: 500, centerY: 400, radiusPx: 300, ringsFound: 5,
        homography: [1.0 / 300, 0, -500.0 / 300, 0, 1.0 / 300, -400.0 / 300, 0, 0, 1], fitErrorPx: 0.4)
    /// Straight down from 0.8 to 0.97 face radii, across the line at 0.9.
    let head = (x: 0.0, y: 0.8), tail = (x: 0.0, y: 0.97)

    /// The white zone (luma 200) with the line between its rings (3 px of near black at 0.9 face
    /// radii), and a vertical mark 5 px wide from 0.8 to 0.97 face radii, drawn by `mark` from the
    /// face's own colour under it; every length times `scale` (a scale of 2 makes a photo the finder
    /// works on at half size).
    func picture(scale: Int = 1, mark: (UInt8) -> UInt8) throws -> WorkingImage {
        let width = 1000 * scale, height = 800 * scale, k = Double(scale)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (dx, dy) = (Double(x) - 500 * k, Double(y) - 400 * k)
                var value: UInt8 = abs((dx * dx + dy * dy).squareRoot() - 270 * k) <= 1.5 * k ? 20 : 200
                if abs(dx) <= 2.5 * k, dy >= 240 * k, dy <= 291 * k { value = mark(value) }
                for c in 0..<3 { pixels[(y * width + x) * 3 + c] = value }
            }
        }
        return WorkingImage(try ArcheryImage(width: width, height: height, pixels: pixels))
    }

    /// The face of `picture(scale:)`.
    func face(scale: Int) -> TargetFace {
        let k = Double(scale)
        return TargetFace(
            centerX: 500 * k, centerY: 400 * k, radiusPx: 300 * k, ringsFound: 5,
            homography: [1 / (300 * k), 0, -500.0 / 300, 0, 1 / (300 * k), -400.0 / 300, 0, 0, 1], fitErrorPx: 0.4)
    }

    func testTheLineShowsThroughAShadowAndNotThroughAShaft() throws {
        let shadow = ShadowOnTheFace(image: try picture { UInt8(Double($0) * 0.6) }, face: face)
        XCTAssertEqual(shadow.lineShowsThrough(head: head, tail: tail), true, "a shadow darkens the line with the white")
        let greyShaft = ShadowOnTheFace(image: try picture { _ in 120 }, face: face)
        XCTAssertEqual(greyShaft.lineShowsThrough(head: head, tail: tail), false, "a shaft as grey as the shadow hides the line")
        let darkShaft = ShadowOnTheFace(image: try picture { _ in 45 }, face: face)
        XCTAssertEqual(darkShaft.lineShowsThrough(head: head, tail: tail), false, "a dark shaft hides it too")
    }

    func testAPhotoTheFinderWorksOnAtHalfSizeIsReadInItsOwnPixels() throws {
        let large = try picture(scale: 2) { UInt8(Double($0) * 0.6) }
        XCTAssertEqual(large.scale, 2, "a 2000-pixel photo is worked on at half size")
        let shadow = ShadowOnTheFace(image: large, face: face(scale: 2))
        XCTAssertEqual(shadow.lineShowsThrough(head: head, tail: tail), true)
        let shaft = ShadowOnTheFace(image: try picture(scale: 2) { _ in 120 }, face: face(scale: 2))
        XCTAssertEqual(shaft.lineShowsThrough(head: head, tail: tail), false)
    }

    func testAMarkThatDoesNotCrossTheLineCannotBeTold() throws {
        let shadow = ShadowOnTheFace(image: try picture { UInt8(Double($0) * 0.6) }, face: face)
        XCTAssertNil(shadow.lineShowsThrough(head: head, tail: (x: 0, y: 0.88)), "ends before the line")
        XCTAssertNil(shadow.lineShowsThrough(head: head, tail: (x: 0, y: 0.905)), "ends on it: no mark beyond")
        XCTAssertNil(shadow.lineShowsThrough(head: (x: 0, y: 0.8), tail: (x: 0, y: 0.8)), "no length")
        XCTAssertNil(shadow.lineShowsThrough(head: (x: 1.5, y: 1.2), tail: (x: 1.8, y: 1.4)), "nowhere near the line")
        XCTAssertNil(shadow.lineShowsThrough(head: head, tail: (x: 0, y: 1e9)), "longer than the picture: no mark of it")
    }
}
