import Archery
import ArcheryScenes
import ReelworkCore
import XCTest

/// Scenes the tests share, and a photo's conversion to the scorer's input.
enum Scenes {
    /// Six arrows, none within 0.015 face radii of a line: X, 9, 8, 6, 4, 1 (total 38). Their
    /// shafts show 0.55 face radii (34 cm of a 122 cm face) and lean different ways, so that from
    /// 35° no shaft lies along or across another's (the finder cannot part shafts that overlap:
    /// see `testOverlappingShaftsAreReportedMissing`).
    static let sixArrows = SceneArrow.sixArrows

    static func image(_ photo: RenderedPhoto) -> ArcheryImage {
        // The renderer always makes width × height × 3 bytes.
        (try? ArcheryImage(width: photo.width, height: photo.height, pixels: photo.pixels))
            ?? { preconditionFailure("renderer made a bad buffer") }()
    }

    static func photo(yaw: Double = 0, pitch: Double = 0, arrows: [SceneArrow] = sixArrows, width: Int = 1000, height: Int = 750,
                      radiusPx: Double = 300, gain: Double = 1, gradient: Double = 0, noise: Int = 6, seed: UInt64 = 1,
                      faceDiameterCm: Double = 122, arrowDiameterMm: Double = 5.5) -> RenderedPhoto {
        let camera = FaceCamera.framing(width: width, height: height, radiusPx: radiusPx, yawDegrees: yaw, pitchDegrees: pitch)
        return ArcheryRenderer.render(ArcheryScene(camera: camera, arrows: arrows, faceDiameterCm: faceDiameterCm,
                                                   arrowDiameterMm: arrowDiameterMm, gain: gain, gradient: gradient, noise: noise, seed: seed))
    }

    /// Every arrow within `tolerance` face radii of the truth, with its exact score, and the end's totals.
    static func assertScored(_ end: ArcheryResult, _ truth: SceneTruth, tolerance: Double = 0.04, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(end.arrows.count, truth.arrows.count, "arrows found", file: file, line: line)
        for expected in truth.arrows {
            guard let found = end.arrows.min(by: { hypot($0.normalizedX - expected.x, $0.normalizedY - expected.y)
                < hypot($1.normalizedX - expected.x, $1.normalizedY - expected.y) }) else { continue }
            let error = hypot(found.normalizedX - expected.x, found.normalizedY - expected.y)
            XCTAssertLessThanOrEqual(error, tolerance, "arrow at (\(expected.x), \(expected.y)) found at (\(found.normalizedX), \(found.normalizedY))",
                                     file: file, line: line)
            XCTAssertEqual(found.score, expected.score, "score of the arrow at (\(expected.x), \(expected.y))", file: file, line: line)
            XCTAssertEqual(found.isXRing, expected.isX, "X of the arrow at (\(expected.x), \(expected.y))", file: file, line: line)
        }
        XCTAssertEqual(end.total, truth.total, "total", file: file, line: line)
        XCTAssertEqual(end.xCount, truth.xCount, "X count", file: file, line: line)
        XCTAssertEqual(end.tens, truth.tens, "tens", file: file, line: line)
    }
}
