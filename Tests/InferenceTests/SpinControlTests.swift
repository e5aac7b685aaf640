import COnnxRuntime
import Foundation
@testable import Inference
import XCTest

/// `SessionOptions.allowSpinning` goes through OrtApi slot 130, AddSessionConfigEntry.
final class SpinControlTests: XCTestCase {
    private var runtime: OnnxRuntime!

    override func setUpWithError() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = ProcessInfo.processInfo.environment[OnnxRuntime.libraryPathVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? root.appendingPathComponent(OnnxRuntime.defaultLibraryPath).path
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("ONNX Runtime library missing at \(path): run scripts/setup-models.sh")
            throw InferenceError(.libraryUnavailable, "missing library")
        }
        runtime = try OnnxRuntime.load(libraryPath: path)
    }

    /// The declared slot is really AddSessionConfigEntry: ORT answers an empty key with its own message.
    func testSlot130IsAddSessionConfigEntry() throws {
        let api = runtime.api
        var options: OpaquePointer?
        try runtime.check(api.pointee.CreateSessionOptions(&options), "creating session options")
        defer { api.pointee.ReleaseSessionOptions(options) }
        XCTAssertNil(api.pointee.AddSessionConfigEntry(options, "session.intra_op.allow_spinning", "0"))
        let status = try XCTUnwrap(api.pointee.AddSessionConfigEntry(options, "", "0"))
        let error = OnnxRuntime.error(api, status, "adding an empty key")
        XCTAssertTrue(error.message.contains("Config key is empty"), error.message)
    }

    func testSessionsWithoutSpinningRunTheSame() throws {
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/affine.onnx").path
        let x = (0..<48).map { Float($0) * 0.25 }
        var outputs: [[Float]] = []
        for spinning in [true, false] {
            let session = try InferenceSession(runtime: runtime, modelPath: model,
                                               options: SessionOptions(intraOpThreads: 2, allowSpinning: spinning))
            XCTAssertEqual(session.options.allowSpinning, spinning)
            let binding = try session.makeBinding()
            try binding.input("x").assign(x)
            try session.run(binding)
            outputs.append(try binding.output("y").array)
        }
        XCTAssertEqual(outputs[0], x.map { $0 * 2 + 1 })
        XCTAssertEqual(outputs[1], outputs[0])
    }
}
