import Foundation
import Media
import Pipeline
import ReelworkCore
import Tennis
import TestSupport
import Vision
import XCTest

/// The decoder leaves out frames no sample needs (`DecodeOptions.dropsUnsampledFrames`, on by
/// default): the real models, through the whole tennis pipeline, must find exactly the same
/// detections, poses and swings as with every frame decoded.
final class DroppedFramesTests: XCTestCase {
    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        try ProjectPaths.requireModels(photos: ["person.jpg"])
        scratch = try ScratchDirectory(prefix: "reelwork-dropped")
    }

    override func tearDown() {
        scratch?.remove()
    }

    private func analyse(_ path: String, dropping: Bool) throws -> JSONValue {
        try AnalysisPipeline(sport: .tennis, decodeOptions: DecodeOptions(dropsUnsampledFrames: dropping),
                             vision: ProjectPaths.visionSettings, models: VisionModelPool())
            .run(location: path, reporter: SilentReporter()).document.result
    }

    func testDetectionsPosesAndSwingsAreTheSameWithFramesDropped() throws {
        // With B-frames (libx264's defaults) and without (as phones often encode).
        for (name, encoder) in [("bframes", [String]()), ("no-bframes", ["-bf", "0"])] {
            let path = try SweptPersonClip.make(at: scratch.path("\(name).mp4"), encoder: encoder)
            // The decoder really does leave frames out of the B-frame clip, and none of the other.
            let dropped = try VideoDecoder(location: path).decodeAll(sampling: .fps(10), progress: { _ in }) { _ in }.framesDropped
            if name == "bframes" { XCTAssertGreaterThan(dropped, 30, name) } else { XCTAssertEqual(dropped, 0, name) }

            let all = try analyse(path, dropping: false)
            let some = try analyse(path, dropping: true)
            for field in ["framesDecoded", "framesSampled", "detections", "poses", "swings", "vision"] {
                XCTAssertNotNil(all[field], "\(name): \(field)")
                XCTAssertEqual(some[field], all[field], "\(name): \(field)")
            }
            guard case .array(let swings)? = some["swings"] else { return XCTFail("\(name): no swings") }
            XCTAssertEqual(swings.count, 1, "\(name): the sweep is found in both")
        }
    }
}
