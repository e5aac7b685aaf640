import Basketball
import Foundation
import Pipeline
import ReelworkCore
import TestSupport
import Vision
import XCTest

/// The detector's sports-ball boxes reach the basketball tracker through a real run: the real
/// detector on a real photo of a ball (OpenCV's messi5.jpg, from Debian's opencv-doc), made into a
/// still clip by ffmpeg and analysed by the pipeline as a worker runs it.
///
/// The ball in the photo is yellow, not the orange `ballColor` looks for, and still (a still pixel
/// of the ball's colour is scenery), so colour and motion find nothing: every frame with the ball
/// is one the detector's boxes alone gave. Without the boxes the run fails "no ball seen".
final class RealBallDetectorTests: XCTestCase {
    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        try ProjectPaths.requireModels(photos: ["messi5.jpg"])
        scratch = try ScratchDirectory(prefix: "reelwork-basketball")
    }

    override func tearDown() {
        scratch?.remove()
    }

    func testTheDetectorsBallBoxesTrackABallColourCannotSee() throws {
        let clip = scratch.path("ball.mp4")
        // 548×342, 30 fps, 2 s: the detector looks at 20 of the 60 frames (10 a second).
        try Tool.ffmpeg(["-loop", "1", "-framerate", "30", "-i", ProjectPaths.photo("messi5.jpg"),
                         "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip])
        // A rim 90 px wide over the grass, away from the ball (its box is about 52 px: 0.45–2.2× the
        // ball radius a 90 px rim expects).
        let options = JSONValue.object(["hoop": .object(["rimLeft": .array([.number(60), .number(120)]),
                                                          "rimRight": .array([.number(150), .number(120)])])])
        let output = try AnalysisPipeline(sport: .basketball, options: options, vision: ProjectPaths.visionSettings,
                                          models: VisionModelPool())
            .run(location: clip, reporter: QuietReporter())
        let result = output.document.result
        XCTAssertEqual(output.document.stages.map { $0.name }, ["probe", "decode", "objects", "shots"])

        // The frames on which the detector reported a sports ball (COCO class 32) near the real one.
        guard case .array(let frames)? = result["detections"] else { return XCTFail("no result.detections") }
        XCTAssertEqual(frames.count, 20)
        let framesWithBallBox = frames.filter { (frame: JSONValue) -> Bool in
            guard case .array(let boxes)? = frame["boxes"] else { return false }
            return boxes.contains { (box: JSONValue) -> Bool in
                guard case .array(let v) = box, v.count == 6, let id = v[0].number, let x1 = v[2].number, let x2 = v[4].number
                else { return false }
                return id == 32 && (330...400).contains((x1 + x2) / 2)
            }
        }.count
        XCTAssertGreaterThanOrEqual(framesWithBallBox, 15, "the detector sees the real ball: \(frames.first.map { $0.jsonString() } ?? "")")
        XCTAssertEqual(result["framesSeen"]?.number, 60)
        XCTAssertEqual(result["framesWithBall"]?.number, Double(framesWithBallBox), "a ball in each frame the detector saw it, and only there")
        XCTAssertEqual(result["framesWithBallFromDetector"]?.number, Double(framesWithBallBox), "colour saw nothing")
        XCTAssertEqual(result["stats"]?["fieldGoalsAttempted"]?.number, 0, "a still ball is no attempt")
    }
}
