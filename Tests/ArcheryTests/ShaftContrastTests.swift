@testable import Archery
import ArcheryScenes
import ReelworkCore
import XCTest

/// A shaft of its zone's colour is not foreign there: it is followed by its contrast with the face
/// on both sides of it to where it goes in (issue 31: impacts scored mid-shaft, where the shaft
/// entered the zone of its own colour).
final class ShaftContrastTests: XCTestCase {
    /// A yellow shaft, a little darker than the gold (within the finder's colour limit of it), in
    /// the 10, leaning out over the red: its impact is in the gold, not at the gold's edge.
    func testAShaftOfTheGoldsColourIsFollowedIntoTheGold() throws {
        let yellow = ArcheryColor(226, 190, 30)
        let arrows = [SceneArrow(x: 0.06, y: 0.04, tiltDegrees: 25, tiltDirectionDegrees: 30, length: 0.6, shaft: yellow,
                                 fletching: ArcheryColor(200, 40, 200))]
        let photo = Scenes.photo(arrows: arrows)
        let end = try ArcheryAnalyzer.analyze(Scenes.image(photo), options: ArcheryOptions(expectedArrowCount: 1))
        Scenes.assertScored(end, photo.truth, tolerance: 0.02)
    }

    /// The strip a shaft covers must have the shaft's colour and differ from both of its sides: a
    /// faint shaft does; a shadow beside the line (one side darker), the bare gold and a mark of
    /// another colour do not.
    func testAShaftShowsAgainstBothSidesAShadowDoesNot() throws {
        let size = 60, gold: [UInt8] = [240, 200, 30]
        var pixels = [UInt8](repeating: 0, count: size * size * 3)
        for y in 0..<size {
            for x in 0..<size {
                var c = gold
                if abs(y - 20) <= 1 { c = [222, 186, 28] }                  // a faint shaft along y = 20
                if y >= 41, y <= 44 { c = [150, 125, 20] }                    // a shadow beside the strip about y = 38
                if abs(y - 50) <= 1 { c = [200, 200, 210] }                   // a grey mark along y = 50
                pixels.replaceSubrange((y * size + x) * 3..<(y * size + x) * 3 + 3, with: c)
            }
        }
        let contrast = ShaftContrast(image: WorkingImage(try ArcheryImage(width: size, height: size, pixels: pixels)), arrowRadiusPx: 1.5)
        let shaft = SIMD3<Double>(222, 186, 28)
        XCTAssertTrue(contrast.showsShaft(x: 30, y: 20, ux: 1, uy: 0, shaft: shaft))
        XCTAssertFalse(contrast.showsShaft(x: 30, y: 38, ux: 1, uy: 0, shaft: SIMD3(240, 200, 30)), "a shadow on one side only")
        XCTAssertFalse(contrast.showsShaft(x: 30, y: 30, ux: 1, uy: 0, shaft: shaft), "the bare gold")
        XCTAssertFalse(contrast.showsShaft(x: 30, y: 50, ux: 1, uy: 0, shaft: shaft), "not the shaft's colour")
    }

    /// Followed by its contrast, a shaft goes on only over a run at least `minimumRun` long: a
    /// short mark of its colour on its line (a ring line crossed at a slant) past its end is not it.
    func testAShortMarkOnTheLineIsNotTheShaftGoingOn() throws {
        let width = 240, height = 40, face: [UInt8] = [240, 200, 30], dark: [UInt8] = [200, 168, 26]
        var pixels = [UInt8](repeating: 0, count: width * height * 3), mask = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var c = face
                if abs(y - 20) <= 1, x >= 100, x <= 200 { c = dark; mask[y * width + x] = true }   // the shaft, foreign
                if abs(y - 20) <= 1, x >= 40, x < 100 { c = dark }                                  // on over its own zone
                if abs(y - 20) <= 1, x >= 20, x <= 22 { c = dark }                                  // a short mark beyond
                pixels.replaceSubrange((y * width + x) * 3..<(y * width + x) * 3 + 3, with: c)
            }
        }
        let contrast = ShaftContrast(image: WorkingImage(try ArcheryImage(width: width, height: height, pixels: pixels)), arrowRadiusPx: 1.5)
        let foreign = ForeignPixels(width: width, height: height, mask: mask)
        let end = foreign.shaftEnd(head: (100, 20), tail: (200, 20), tolerance: 1.5, maximumGap: 20, maximumLength: 200, contrast: contrast)
        XCTAssertEqual(end.x, 40, accuracy: 2, "followed over its own zone, not on to the mark 18 px beyond")
        XCTAssertEqual(end.y, 20, accuracy: 0.5)
        XCTAssertEqual(foreign.shaftEnd(head: (100, 20), tail: (200, 20), tolerance: 1.5, maximumGap: 20, maximumLength: 200).x, 100, accuracy: 1,
                       "without the contrast only the foreign pixels")
    }
}
