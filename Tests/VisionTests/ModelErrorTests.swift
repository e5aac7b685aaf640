import Foundation
import Inference
import Media
import Pipeline
import ReelworkCore
import Tennis
import TestSupport
import Vision
import XCTest

/// A model that cannot be used is a clear error naming the model, the setting and the problem: when
/// models load, as a job's failure (kind `internal`, before any decoding), and at worker start.
final class ModelErrorTests: XCTestCase {
    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        try RealModels.require()
        scratch = try ScratchDirectory()
    }

    override func tearDown() {
        scratch?.remove()
    }

    private func assertVisionError(_ component: VisionError.Component, containing parts: [String],
                                   file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected a VisionError", file: file, line: line)
        } catch let error as VisionError {
            XCTAssertEqual(error.component, component, error.message, file: file, line: line)
            XCTAssertEqual(error.kind, .internal, file: file, line: line)
            for part in parts {
                XCTAssertTrue(error.message.contains(part), "'\(error.message)' should contain '\(part)'", file: file, line: line)
            }
        } catch {
            XCTFail("expected a VisionError, got \(error)", file: file, line: line)
        }
    }

    private func corruptModel() throws -> String {
        let path = scratch.path("corrupt.onnx")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Paths.settings.detectorModel)).prefix(4096)
        bytes.replaceSubrange(16..<64, with: Data(repeating: 0xFF, count: 48))
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    func testAWrongModelPathNamesThePathAndTheSetting() throws {
        var settings = Paths.settings
        settings.detectorModel = "/nowhere/yolo.onnx"
        assertVisionError(.detector, containing: ["/nowhere/yolo.onnx", "REELWORK_DETECTOR_MODEL", "not found"]) {
            _ = try VisionModels(settings: settings, threads: 1)
        }
        settings = Paths.settings
        settings.poseModel = "models/missing-pose.onnx"
        assertVisionError(.pose, containing: ["models/missing-pose.onnx", "REELWORK_POSE_MODEL", "not found"]) {
            _ = try VisionModels(settings: settings, threads: 1)
        }
        settings = Paths.settings
        settings.ortLibrary = "/nowhere/libonnxruntime.so"
        assertVisionError(.runtime, containing: ["/nowhere/libonnxruntime.so", "REELWORK_ORT_LIBRARY"]) {
            _ = try VisionModels(settings: settings, threads: 1)
        }
    }

    func testACorruptModelCarriesOnnxRuntimesMessage() throws {
        var settings = Paths.settings
        settings.detectorModel = try corruptModel()
        assertVisionError(.detector, containing: ["REELWORK_DETECTOR_MODEL", "ONNX Runtime error while loading model", settings.detectorModel]) {
            _ = try VisionModels(settings: settings, threads: 1)
        }
    }

    func testAnUnknownOutputLayoutNamesTheShape() throws {
        var settings = Paths.settings
        settings.detectorModel = Paths.fixture("unknown_layout.onnx")
        assertVisionError(.detector, containing: ["[1, 7, 3]", "unknown_layout.onnx", "not a known YOLO layout"]) {
            _ = try VisionModels(settings: settings, threads: 1)
        }
        // A pose model where the detector belongs has the wrong input.
        settings = Paths.settings
        settings.detectorModel = settings.poseModel
        assertVisionError(.detector, containing: ["[1, 3, H, W]", "[1, 256, 256, 3]"]) {
            _ = try VisionModels(settings: settings, threads: 1)
        }
        settings = Paths.settings
        settings.poseModel = Paths.settings.detectorModel
        assertVisionError(.pose, containing: ["[1, S, S, 3]"]) {
            _ = try VisionModels(settings: settings, threads: 1)
        }
    }

    /// A YOLOv8/YOLO11-style export ([1, 84, N], input pixels, no objectness) is read as such.
    func testAnUltralyticsExportIsRecognisedAndDecoded() throws {
        let detector = try ObjectDetector(runtime: try RealModels.runtime(), modelPath: Paths.fixture("ultralytics_layout.onnx"))
        XCTAssertEqual(detector.layout, .ultralytics(boxes: 100, classes: 80))
        XCTAssertEqual([detector.inputWidth, detector.inputHeight], [64, 64])
        let found = try RGBImage.withPackedPixels([UInt8](repeating: 90, count: 640 * 320 * 3), width: 640, height: 320) {
            try detector.detect($0)
        }
        XCTAssertEqual(found.map(\.classId), [0, 32], "the 0.6 person box is suppressed by the 0.9 one")
        XCTAssertEqual(found[0].confidence, Double(Float(0.9)))
        XCTAssertEqual(found[0].box.corners, [220, 55, 420, 105], "input pixels × 10 across, × 5 down")
        XCTAssertEqual(found[1].box.corners, [60, 270, 100, 290])
    }

    // MARK: - As a job's failure

    private func clip() throws -> String {
        let path = scratch.path("clip.mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", path])
        return path
    }

    private func assertJobFails(_ settings: VisionSettings, in stage: StageName, containing parts: [String],
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let reporter = RecordingReporter()
        let pipeline = AnalysisPipeline(sport: .tennis, vision: settings, models: VisionModelPool())
        XCTAssertThrowsError(try pipeline.run(location: try clip(), reporter: reporter), file: file, line: line) { error in
            guard let failure = error as? StageFailure else { return XCTFail("expected a StageFailure, got \(error)", file: file, line: line) }
            XCTAssertEqual(failure.stage, stage, file: file, line: line)
            XCTAssertEqual(failure.kind, .internal, file: file, line: line)
            for part in parts {
                XCTAssertTrue(failure.message.contains(part), "'\(failure.message)' should contain '\(part)'", file: file, line: line)
            }
        }
        // The models are checked before a single frame is decoded.
        XCTAssertEqual(reporter.started, [.probe], file: file, line: line)
        XCTAssertEqual(reporter.events.last, .finished(stage, .failed, done: nil, kind: .internal), file: file, line: line)
    }

    func testAJobWithAnUnusableModelFailsAsInternalBeforeDecoding() throws {
        var settings = Paths.settings
        settings.detectorModel = "/nowhere/yolo.onnx"
        try assertJobFails(settings, in: .objects, containing: ["/nowhere/yolo.onnx", "REELWORK_DETECTOR_MODEL"])
        settings = Paths.settings
        settings.poseModel = try corruptModel()
        try assertJobFails(settings, in: .pose, containing: ["REELWORK_POSE_MODEL", "ONNX Runtime error"])
        settings = Paths.settings
        settings.detectorModel = Paths.fixture("unknown_layout.onnx")
        try assertJobFails(settings, in: .objects, containing: ["[1, 7, 3]"])
    }

    /// `reelwork worker` loads its models before it claims anything: a wrong path stops it at once,
    /// with the reason, before it even connects to Redis.
    func testAWorkerWithAWrongModelPathStopsAtStart() throws {
        let binary = Paths.inRoot(".build/debug/reelwork")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return XCTFail("build the binary first: swift build --product reelwork")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["worker", "--slots", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["REELWORK_DETECTOR_MODEL"] = "/nowhere/yolo.onnx"
        environment["REELWORK_ORT_LIBRARY"] = Paths.settings.ortLibrary
        environment["REELWORK_POSE_MODEL"] = Paths.settings.poseModel
        environment["REELWORK_REDIS_URL"] = "redis://127.0.0.1:1/0"  // nothing listens: it must not get that far
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        for part in ["cannot start the worker", "/nowhere/yolo.onnx", "REELWORK_DETECTOR_MODEL"] {
            XCTAssertTrue(text.contains(part), "stderr '\(text)' should contain '\(part)'")
        }
    }
}
