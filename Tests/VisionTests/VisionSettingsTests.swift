import Archery
import Basketball
import Bowling
import Inference
import Pipeline
import ReelworkCore
import SportKit
import Sports
import Tennis
import XCTest

final class VisionSettingsTests: XCTestCase {
    func testDefaultsAreWhereSetupPutsTheModels() throws {
        let defaults = try VisionSettings.fromEnvironment([:])
        XCTAssertEqual(defaults.ortLibrary, OnnxRuntime.defaultLibraryPath)
        XCTAssertEqual(defaults.detectorModel, "models/yolov4-tiny-int8.onnx")
        XCTAssertEqual(defaults.poseModel, "models/pose_landmark_full.onnx")
        XCTAssertEqual(defaults.sampleFPS, 10)
        XCTAssertEqual(defaults.inferenceThreads, 0)
        XCTAssertEqual(defaults.personDetection, .tracked)
        XCTAssertEqual(defaults.detectorRefreshSeconds, 1)
        XCTAssertEqual(VisionSettings.Env.ortLibrary, OnnxRuntime.libraryPathVariable)
        XCTAssertEqual(try ReelworkConfig.fromEnvironment([:]).vision, defaults)
    }

    func testEnvironmentOverridesAndBadValuesNameTheVariable() throws {
        let set = try VisionSettings.fromEnvironment([
            "REELWORK_ORT_LIBRARY": "/opt/ort/libonnxruntime.so", "REELWORK_DETECTOR_MODEL": "/m/yolo11n.onnx",
            "REELWORK_POSE_MODEL": "/m/pose.onnx", "REELWORK_SAMPLE_FPS": "5", "REELWORK_INFERENCE_THREADS": "3",
            "REELWORK_PERSON_DETECTION": "every", "REELWORK_DETECTOR_REFRESH_S": "0.5",
        ])
        XCTAssertEqual(set.personDetection, .everySample)
        XCTAssertEqual(set.detectorRefreshSeconds, 0.5)
        XCTAssertEqual(set.ortLibrary, "/opt/ort/libonnxruntime.so")
        XCTAssertEqual(set.detectorModel, "/m/yolo11n.onnx")
        XCTAssertEqual(set.poseModel, "/m/pose.onnx")
        XCTAssertEqual(set.sampleFPS, 5)
        XCTAssertEqual(set.inferenceThreads, 3)
        for (name, value) in [("REELWORK_SAMPLE_FPS", "0"), ("REELWORK_SAMPLE_FPS", "fast"), ("REELWORK_INFERENCE_THREADS", "-1"),
                              ("REELWORK_PERSON_DETECTION", "sometimes"), ("REELWORK_DETECTOR_REFRESH_S", "0"),
                              ("REELWORK_DETECTOR_REFRESH_S", "nan"), ("REELWORK_DETECTOR_REFRESH_S", "1e9")] {
            XCTAssertThrowsError(try VisionSettings.fromEnvironment([name: value])) { error in
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
        }
    }

    func testAutomaticThreadsShareTheCoresBetweenJobs() {
        var settings = VisionSettings()
        XCTAssertEqual(settings.resolvedInferenceThreads(concurrentJobs: 1, cores: 8), 8)
        XCTAssertEqual(settings.resolvedInferenceThreads(concurrentJobs: 2, cores: 8), 4)
        XCTAssertEqual(settings.resolvedInferenceThreads(concurrentJobs: 4, cores: 2), 1)
        settings.inferenceThreads = 3
        XCTAssertEqual(settings.resolvedInferenceThreads(concurrentJobs: 4, cores: 2), 3)
    }

    func testEverySportPlansItsStreamedStagesAndNoopDoesNot() {
        XCTAssertEqual(StageName.plan(for: .tennis), [.probe, .decode, .objects, .pose, .swings, .metrics])
        XCTAssertEqual(StageName.plan(for: .bowling), [.probe, .decode, .ball, .shotMetrics])
        XCTAssertEqual(StageName.plan(for: .bowling, options: .object(["pose": .bool(true)])),
                       [.probe, .decode, .objects, .pose, .ball, .shotMetrics])
        XCTAssertEqual(StageName.plan(for: .archery), [.probe, .decode, .scoring])
        XCTAssertEqual(StageName.plan(for: .basketball), [.probe, .decode, .objects, .shots])
        XCTAssertEqual(StageName.plan(for: .tennis, options: .object(["noop": .object([:])])), [.noop])
        // The streamed stages: the decode, the models' and each registered sport's every-frame
        // stage (so a new sport's is streamed with no change here).
        let everyFrame = SportRegistry.plugins.compactMap { $0.plan(options: .emptyObject).everyFrameStage }
        XCTAssertEqual(SportRegistry.stages.filter(\.isStreamed), [.decode, .objects, .pose] + everyFrame)
        XCTAssertTrue(Set<StageName>([.ball, .scoring, .shots]).isSubset(of: everyFrame), "\(everyFrame)")
        for stage: StageName in [.probe, .noop, .swings, .metrics, .shotMetrics] { XCTAssertFalse(stage.isStreamed, stage.rawValue) }
    }
}
