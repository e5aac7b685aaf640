import Basketball
import BasketballScenes
import Foundation
import ReelworkCore
import SceneVideo
import XCTest

/// The scripted session through H.264 and back (ffmpeg), as a real upload would reach the tracker:
/// compression shifts the colours and softens the edges, and every attempt must still come out right.
final class EncodedClipTests: XCTestCase {
    func testEncodedSessionAt30fps() throws {
        let scene = ShootingScene(width: 640, height: 360, fps: 30, events: SceneRun.script, seed: 11)
        let clip = FileManager.default.temporaryDirectory.appendingPathComponent("basketball-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: clip) }
        try ShootingSceneRenderer(scene: scene).encode(to: clip)

        let tracker = try BasketballTracker(options: try SceneRun.options(scene), frameWidth: 640, frameHeight: 360, frameRate: 30)
        let decoder = try RawVideoDecoder(input: clip, width: 640, height: 360)
        var index = 0
        while let frame = decoder.next() {
            try tracker.process(try XCTUnwrap(PackedRGBFrame(width: 640, height: 360, pixels: frame)), time: Double(index) / 30,
                                frameIndex: index)
            index += 1
        }
        XCTAssertEqual(index, scene.frameCount)
        let result = try tracker.finish()
        SceneRun.assertMatches(result, scene.truth)
        XCTAssertEqual(result.stats.fieldGoalsMade, 3)
        // The CSV: a header and one row per shot.
        let rows = result.csv().split(separator: "\r\n")
        XCTAssertEqual(rows.first, "shotNumber,releaseTime,rimTime,made,shotType,distanceFt,confidence")
        XCTAssertEqual(BasketballResult.csvHeader.joined(separator: ","), String(rows.first ?? ""))
        XCTAssertEqual(rows.count, 1 + scene.truth.count)
        XCTAssertNoThrow(try result.json().encodedText())
    }
}
