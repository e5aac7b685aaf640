@testable import Archery
import ReelworkCore
import XCTest

/// Outside the face a shaft is a thin mark unlike both of its sides (issue 31: phantoms along the
/// boss's edge and the stand, misses in the boss not found where the outer zone held several
/// backgrounds).
final class ThinMarkTests: XCTestCase {
    /// A straw boss (left) meeting the sky (right) at x = 40, a dark shaft 3 px wide along x = 20, a
    /// wide dark patch from x = 60, and the shaft's shadow on the boss along x = 10.
    func testAShaftIsAThinMarkAnEdgeAPatchAndAShadowAreNot() throws {
        let size = 100, straw: [UInt8] = [200, 170, 90], sky: [UInt8] = [140, 180, 230]
        var pixels = [UInt8](repeating: 0, count: size * size * 3)
        for y in 0..<size {
            for x in 0..<size {
                var c = x < 40 ? straw : sky
                if abs(x - 20) <= 1 { c = [40, 60, 50] }
                if abs(x - 10) <= 1 { c = [120, 102, 54] }                   // straw at 60 % of its light
                if x >= 60 { c = [30, 30, 30] }
                pixels.replaceSubrange((y * size + x) * 3..<(y * size + x) * 3 + 3, with: c)
            }
        }
        let marks = ThinMark(image: WorkingImage(try ArcheryImage(width: size, height: size, pixels: pixels)), arrowRadiusPx: 1.5)
        let at = { (x: Int) in marks.isThinMark(at: 50 * size + x, limit: ArrowFinder.foreignDistance) }
        XCTAssertTrue(at(20), "the shaft")
        XCTAssertTrue(at(19) && at(21), "the shaft's width")
        XCTAssertFalse(at(30), "the bare boss")
        XCTAssertFalse(at(39) || at(40) || at(41), "the boss's edge against the sky")
        XCTAssertFalse(at(61) || at(80), "a patch wider than a shaft")
        XCTAssertFalse(at(10), "the shaft's shadow on the coloured boss")
    }
}
