import Foundation
import Pipeline
import ReelworkCore
import Tennis
import TestSupport
import Vision
import XCTest

/// A real photo of a person (person.jpg's standing man) swept along an arc over a background with
/// ffmpeg, analysed by the real detector and pose models through the pipeline, then by the Tennis
/// module as the pipeline will call it.
///
/// What it shows: landmarks from the real models on real pixels are steady enough that a still
/// person makes no swing, a sharp motion of the wrist is found as exactly one swing, its contact
/// at the speed peak, with plausible metrics. What it does not show: the arm moving relative to
/// the body (the whole cut-out moves, wrist included), so type and body-angle metrics are not
/// those of a real stroke.
final class RealClipSwingTests: XCTestCase {
    static let peak = SweptPersonClip.peak

    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        try ProjectPaths.requireModels(photos: ["person.jpg"])
        scratch = try ScratchDirectory(prefix: "reelwork-tennis")
    }

    override func tearDown() {
        scratch?.remove()
    }

    private func clip() throws -> String {
        try SweptPersonClip.make(at: scratch.path("swing.mp4"))
    }

    func testASweptPersonIsOneSwingWithContactAtTheSpeedPeak() throws {
        let output = try AnalysisPipeline(sport: .tennis, vision: ProjectPaths.visionSettings, models: VisionModelPool())
            .run(location: try clip(), reporter: SilentReporter())
        let result = output.document.result
        let tracks = VisionResult.tracks(result)
        // The longest track is the player (the pipeline keeps one here, but do not depend on it).
        let track = try XCTUnwrap(tracks.max { $0.count < $1.count }, "no pose tracks: \(String(describing: result["poses"]))")
        XCTAssertGreaterThanOrEqual(track.count, 30, "the person is tracked through most of the 36 sampled frames")
        let objects = VisionResult.objects(result)
        // The detector's frames: the first, one a second, and any where the person was lost.
        XCTAssertEqual(objects.count, Int(result["vision"]?["detectorRuns"]?.number ?? -1))
        XCTAssertTrue((4..<36).contains(objects.count), "the detector ran on \(objects.count) of 36 samples")

        let options = try TennisOptions.parse(.emptyObject)
        let swings = SwingDetector.detect(track: track, objects: objects, options: options)
        XCTAssertEqual(swings.count, 1, "one sweep, one swing: \(swings)")
        let swing = try XCTUnwrap(swings.first)
        XCTAssertEqual(swing.keyFrameTimes.contact, Self.peak, accuracy: 0.1 + 1e-9, "contact at the speed peak: \(swing)")
        XCTAssertNotEqual(swing.type, .serve, "the wrist stays below the head")
        XCTAssertEqual(swing.keyFrameTimes.ordered, swing.keyFrameTimes.ordered.sorted())
        // Still before and after the sweep: the window is around the peak, not the whole clip.
        XCTAssertGreaterThan(swing.startTime, Self.peak - 0.6)
        XCTAssertLessThan(swing.endTime, Self.peak + 0.6)

        let measured = SwingMetricsCalculator.measure(swing, track: track, options: options)
        XCTAssertGreaterThan(measured.metrics.trackingQuality, 0.8, "\(measured.metrics)")
        // The sweep's speed in torso lengths: fast, and within a plausible swing's range.
        XCTAssertTrue((SwingTuning.peakThreshold...30).contains(measured.metrics.peakWristSpeed ?? 0), "\(measured.metrics)")
        XCTAssertGreaterThan(measured.confidence, 0.5)
        // Body-relative metrics see no stroke: the shoulders stay level, the arm does not swing
        // around the shoulder, and the wrist hangs by the hip (about 0.45 of the body's height).
        if let turn = measured.metrics.shoulderTurn { XCTAssertLessThan(turn, 10) }
        XCTAssertLessThan(measured.metrics.followThrough ?? 0, 10)
        XCTAssertTrue((0.3...0.6).contains(measured.metrics.contactHeight ?? 0), "\(measured.metrics)")
        // The acceleration starts after the still second: backswing just before the sweep.
        XCTAssertGreaterThanOrEqual(swing.keyFrameTimes.backswing, Self.peak - 0.4)
        XCTAssertEqual(SwingMetricsCalculator.measure(swing, track: track, options: options), measured, "deterministic")

        // The pipeline's own swings and metrics stages found the same swing.
        guard case .array(let reported)? = result["swings"] else { return XCTFail("no result.swings") }
        XCTAssertEqual(reported.count, 1)
        XCTAssertEqual(reported.first?["swingNumber"], .number(1))
        XCTAssertEqual(reported.first?["keyFrameTimes"]?["contact"]?.number ?? -1, swing.keyFrameTimes.contact, accuracy: 0.001)
        XCTAssertEqual(reported.first?["metrics"], measured.json()["metrics"])
        print("real clip swing:", measured.json().jsonString())
    }
}

/// Takes the pipeline's progress reports and ignores them.
final class SilentReporter: StageReporter {
    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {}
    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {}
    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {}
}
