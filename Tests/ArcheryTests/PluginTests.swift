import Archery
import ArcheryScenes
import Media
import ReelworkCore
import SportKit
import XCTest

/// The plug-in as the pipeline drives it: decoded frames in, the result's fields out.
final class PluginTests: XCTestCase {
    func consumer(_ options: JSONValue = .emptyObject) throws -> any FrameConsumer {
        try ArcheryPlugin().analysis(options: options).everyFrame(width: 640, height: 480, frameRate: 30)
    }

    func feed(_ consumer: any FrameConsumer, _ photo: RenderedPhoto, time: Double, index: Int) throws {
        try RGBImage.withPackedPixels(photo.pixels, width: photo.width, height: photo.height) {
            try consumer.consume($0, time: time, frameIndex: index, detections: nil)
        }
    }

    func render(_ arrows: [SceneArrow], seed: UInt64 = 1) -> RenderedPhoto {
        let camera = FaceCamera(width: 640, height: 480, focalPx: 180 * 6, yawDegrees: 20, distance: 6)
        return ArcheryRenderer.render(ArcheryScene(camera: camera, arrows: arrows, noise: 6, seed: seed))
    }

    func testAPhotoIsOneFrameScoredAlone() throws {
        let photo = render(SceneArrow.sixArrows)
        let frames = try consumer(.object(["expectedArrowCount": .number(6)]))
        try feed(frames, photo, time: 0, index: 0)
        let fields = try frames.finish()
        XCTAssertEqual(fields["input"], .string("photo"))
        XCTAssertEqual(fields["total"]?.number, Double(photo.truth.total))
        guard case .array(let arrows)? = fields["arrows"] else { return XCTFail("no arrows") }
        XCTAssertEqual(arrows.map { $0["arrowNumber"]?.number }, (1...6).map { Double($0) }, "numbered from 1, in the end's order")
        XCTAssertNil(arrows.first?["arrivalTime"], "a photo has no arrival times")
        XCTAssertEqual(ArcheryPlugin().plan(options: .emptyObject).stages, [.scoring])
    }

    /// Three seconds at 30 fps: four frames a second are scored (12 of 90); an arrow that lands at
    /// 1.5 s arrives at the first scored frame from then on.
    func testAVideoIsScoredFourTimesASecond() throws {
        let before = render(Array(SceneArrow.sixArrows.prefix(2)))
        let after = render(Array(SceneArrow.sixArrows.prefix(3)))
        let frames = try consumer()
        for index in 0..<90 {
            let time = Double(index) / 30
            try feed(frames, time < 1.5 ? before : after, time: time, index: index)
        }
        let fields = try frames.finish()
        XCTAssertEqual(fields["input"], .string("video"))
        XCTAssertEqual(fields["framesSeen"], .number(12), "0, 0.25 … 2.75 s")
        XCTAssertEqual(fields["scoredFramesPerSecond"], .number(4))
        XCTAssertEqual(fields["total"]?.number, Double(after.truth.total))
        guard case .array(let arrows)? = fields["arrows"] else { return XCTFail("no arrows") }
        // The scene's geometry is y up, a result's y down.
        let third = (x: SceneArrow.sixArrows[2].x, y: -SceneArrow.sixArrows[2].y)
        let landed = try XCTUnwrap(arrows.min { hypot(($0["normalizedX"]?.number ?? 9) - third.x, ($0["normalizedY"]?.number ?? 9) - third.y)
                < hypot(($1["normalizedX"]?.number ?? 9) - third.x, ($1["normalizedY"]?.number ?? 9) - third.y) })
        XCTAssertEqual(landed["arrivalTime"]?.number ?? -1, 1.5, accuracy: 0.001)
        XCTAssertEqual(arrows.compactMap { $0["arrivalTime"]?.number }.filter { $0 < 0.3 }.count, 2, "the other two were there from the start")
    }

    func testNothingDecodedIsNoScore() throws {
        XCTAssertThrowsError(try consumer().finish()) { XCTAssertEqual(($0 as? ReelworkError)?.kind, .invalidInput) }
        XCTAssertThrowsError(try ArcheryPlugin().analysis(options: .object(["faceDiameterCm": .number(5)]))) {
            XCTAssertEqual(($0 as? ReelworkError)?.kind, .invalidInput)
        }
    }
}
