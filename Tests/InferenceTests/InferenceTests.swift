import Foundation
@testable import Inference
import ReelworkCore
import XCTest
import Threading

/// These tests need the real ONNX Runtime library (scripts/setup-models.sh puts it under models/, or
/// REELWORK_ORT_LIBRARY names it) and fail without it. The tiny models under Fixtures/ are written by
/// tools/models/make_test_models.py; all their values are exact in float32, so results are compared with ==.
final class InferenceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var libraryPath: String {
        if let path = ProcessInfo.processInfo.environment[OnnxRuntime.libraryPathVariable], !path.isEmpty { return path }
        return root.appendingPathComponent(OnnxRuntime.defaultLibraryPath).path
    }

    private static let sharedRuntime: Result<OnnxRuntime, Error> = Result { try OnnxRuntime.load(libraryPath: libraryPath) }

    func runtime(file: StaticString = #filePath, line: UInt = #line) throws -> OnnxRuntime {
        guard FileManager.default.fileExists(atPath: Self.libraryPath) else {
            XCTFail("ONNX Runtime library missing at \(Self.libraryPath): run scripts/setup-models.sh (or set REELWORK_ORT_LIBRARY)",
                    file: file, line: line)
            throw InferenceError(.libraryUnavailable, "missing library")
        }
        return try Self.sharedRuntime.get()
    }

    func model(_ name: String) -> String { Self.fixtures.appendingPathComponent(name + ".onnx").path }

    func session(_ name: String, _ options: SessionOptions = SessionOptions()) throws -> InferenceSession {
        try InferenceSession(runtime: runtime(), modelPath: model(name), options: options)
    }

    func assertInferenceError(_ code: InferenceError.Code, containing parts: [String], file: StaticString = #filePath,
                              line: UInt = #line, _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected an InferenceError \(code)", file: file, line: line)
        } catch let error as InferenceError {
            XCTAssertEqual(error.code, code, "\(error.message)", file: file, line: line)
            XCTAssertEqual(error.kind, .internal, file: file, line: line)
            for part in parts {
                XCTAssertTrue(error.message.contains(part), "'\(error.message)' should contain '\(part)'", file: file, line: line)
            }
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    // MARK: - Library

    func testLoadsTheLibraryAndReportsItsVersion() throws {
        let runtime = try runtime()
        XCTAssertEqual(runtime.version.split(separator: ".").count, 3, runtime.version)
        if ProcessInfo.processInfo.environment[OnnxRuntime.libraryPathVariable] == nil {
            XCTAssertEqual(runtime.version, "1.31.1")
        }
        XCTAssertEqual(OnnxRuntime.apiVersion, 13)
    }

    func testStatusEntriesCarryORTsCodeAndMessage() throws {
        let error = try XCTUnwrap(try runtime().roundTripStatus(code: 2, message: "made by CreateStatus"))
        XCTAssertEqual(error.ortErrorCode, 2)
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertTrue(error.message.hasSuffix("made by CreateStatus"), error.message)
        XCTAssertEqual(try runtime().roundTripStatus(code: 10, message: "x")?.code, .invalidGraph)
    }

    func testAWrongLibraryPathIsAClearErrorNamingIt() {
        assertInferenceError(.libraryUnavailable, containing: ["/nowhere/libonnxruntime.so.1.31.1", "REELWORK_ORT_LIBRARY", "setup-models.sh"]) {
            _ = try OnnxRuntime.load(libraryPath: "/nowhere/libonnxruntime.so.1.31.1")
        }
        assertInferenceError(.libraryUnavailable, containing: ["models/nothing-here.so", "not found"]) {
            _ = try OnnxRuntime.load(libraryPath: "models/nothing-here.so")
        }
        // A file that is not a shared library at all.
        assertInferenceError(.libraryUnavailable, containing: ["cannot load", model("affine")]) {
            _ = try OnnxRuntime.load(libraryPath: model("affine"))
        }
        // A shared library that is not ONNX Runtime.
        assertInferenceError(.libraryUnavailable, containing: ["libm.so.6", "OrtGetApiBase"]) {
            _ = try OnnxRuntime.load(libraryPath: "libm.so.6")
        }
    }

    func testTheLibraryPathComesFromTheEnvironmentOrTheDefault() {
        XCTAssertEqual(OnnxRuntime.configuredLibraryPath(environment: ["REELWORK_ORT_LIBRARY": "/opt/ort/libonnxruntime.so"]),
                       "/opt/ort/libonnxruntime.so")
        XCTAssertEqual(OnnxRuntime.configuredLibraryPath(environment: ["REELWORK_ORT_LIBRARY": ""]), OnnxRuntime.defaultLibraryPath)
        XCTAssertEqual(OnnxRuntime.configuredLibraryPath(environment: [:]), "models/onnxruntime/libonnxruntime.so.1.31.1")
    }

    // MARK: - Models: names, types, shapes

    func testInputAndOutputNamesTypesAndShapesReadBack() throws {
        let affine = try session("affine")
        XCTAssertEqual(affine.inputs, [TensorInfo(name: "x", elementType: .float32, shape: [1, 3, 4, 4])])
        XCTAssertEqual(affine.outputs, [TensorInfo(name: "y", elementType: .float32, shape: [1, 3, 4, 4])])
        XCTAssertTrue(affine.inputs[0].isFixed)

        let two = try session("two_outputs")
        XCTAssertEqual(two.inputs.map(\.name), ["a", "b"])
        XCTAssertEqual(two.inputs.map(\.shape), [[2, 3], [2, 3]])
        XCTAssertEqual(two.outputs, [TensorInfo(name: "sum", elementType: .float32, shape: [2, 3]),
                                     TensorInfo(name: "rowmax", elementType: .float32, shape: [2])])

        let dynamic = try session("dynamic")
        XCTAssertEqual(dynamic.inputs, [TensorInfo(name: "x", elementType: .float32, shape: [-1, 4], dimensionNames: ["batch", nil])])
        XCTAssertEqual(dynamic.outputs, [TensorInfo(name: "y", elementType: .float32, shape: [-1, 2], dimensionNames: ["batch", nil])])
        XCTAssertFalse(dynamic.inputs[0].isFixed)
        XCTAssertEqual(dynamic.inputs[0].description, "x: float32 [batch, 4]")

        let argmax = try session("argmax")
        XCTAssertEqual(argmax.outputs, [TensorInfo(name: "idx", elementType: .int64, shape: [1])])
    }

    func testAMissingModelIsAnErrorNamingThePath() throws {
        let runtime = try runtime()
        let path = NSTemporaryDirectory() + "reelwork-no-such-model-\(getpid()).onnx"
        assertInferenceError(.modelMissing, containing: [path]) {
            _ = try InferenceSession(runtime: runtime, modelPath: path)
        }
        assertInferenceError(.modelMissing, containing: ["models/yolo/missing.onnx"]) {
            _ = try InferenceSession(runtime: runtime, modelPath: "models/yolo/missing.onnx")
        }
        assertInferenceError(.modelMissing, containing: [NSTemporaryDirectory()]) {
            _ = try InferenceSession(runtime: runtime, modelPath: NSTemporaryDirectory())
        }
    }

    func testACorruptModelCarriesORTsMessage() throws {
        let path = NSTemporaryDirectory() + "reelwork-corrupt-\(getpid()).onnx"
        var generator = SplitMix64(seed: 42)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let runtime = try runtime()
        do {
            _ = try InferenceSession(runtime: runtime, modelPath: path)
            XCTFail("a corrupt model loaded")
        } catch let error as InferenceError {
            XCTAssertNotNil(error.ortErrorCode, error.message)
            XCTAssertNotEqual(error.code, .modelMissing)
            XCTAssertEqual(error.kind, .internal)
            XCTAssertTrue(error.message.contains("ONNX Runtime error while loading model"), error.message)
            XCTAssertTrue(error.message.contains(path), error.message)
            XCTAssertTrue(error.message.lowercased().contains("protobuf") || error.message.lowercased().contains("failed"), error.message)
        }
    }

    func testNegativeThreadCountsAreRejected() throws {
        _ = try runtime()
        assertInferenceError(.invalidOptions, containing: ["-1"]) {
            _ = try self.session("affine", SessionOptions(intraOpThreads: -1))
        }
    }

    // MARK: - Running

    func testAffineResultsAreExactOnBothPaths() throws {
        let session = try session("affine")
        let x = (0..<48).map { Float($0) * 0.5 - 7 }
        let expected = x.map { $0 * 2 + 1 }

        let result = try session.run(["x": Tensor(shape: [1, 3, 4, 4], data: x)])
        XCTAssertEqual(Array(result.keys), ["y"])
        XCTAssertEqual(result["y"], Tensor(shape: [1, 3, 4, 4], data: expected))

        let binding = try session.makeBinding()
        XCTAssertEqual(binding.inputs.map(\.shape), [[1, 3, 4, 4]])
        XCTAssertEqual(binding.outputs.map(\.shape), [[1, 3, 4, 4]])
        try binding.input("x").assign(x)
        try session.run(binding)
        XCTAssertEqual(try binding.output("y").array, expected)
        XCTAssertEqual(try binding.output("y").tensor, Tensor(shape: [1, 3, 4, 4], data: expected))

        // The same buffers again, filled in place.
        try binding.input("x").withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = Float(index) }
        }
        try session.run(binding)
        let y = try binding.output("y")
        XCTAssertEqual(y.withUnsafeBufferPointer { Array($0) }, (0..<48).map { Float($0) * 2 + 1 })
        XCTAssertEqual(y[47], 95)
    }

    func testTwoInputsAndTwoOutputsBindByName() throws {
        let session = try session("two_outputs")
        let a: [Float] = [1, 5, -2, 0.5, -3, 4]
        let b: [Float] = [10, 20, 30, 40, 50, 60]
        let results = try session.run(["b": Tensor(shape: [2, 3], data: b), "a": Tensor(shape: [2, 3], data: a)])
        XCTAssertEqual(results["sum"]?.data, [11, 25, 28, 40.5, 47, 64])
        XCTAssertEqual(results["rowmax"], Tensor(shape: [2], data: [5, 4]))

        let onlyMax = try session.run(["a": Tensor(shape: [2, 3], data: a), "b": Tensor(shape: [2, 3], data: b)], outputs: ["rowmax"])
        XCTAssertEqual(Array(onlyMax.keys), ["rowmax"])

        let binding = try session.makeBinding(outputNames: ["rowmax", "sum"])
        XCTAssertEqual(binding.outputs.map(\.name), ["rowmax", "sum"])
        try binding.input("a").assign(a)
        try binding.input("b").assign(b)
        try session.run(binding)
        XCTAssertEqual(binding.outputs[0].array, [5, 4])
        XCTAssertEqual(try binding.output("sum").array, [11, 25, 28, 40.5, 47, 64])
    }

    func testDynamicDimensionsTakeTheirSizeFromTheInputs() throws {
        let session = try session("dynamic")
        let w: [[Float]] = [[1, 0], [0, 1], [1, 1], [2, -1]]
        func expected(_ x: [Float], rows: Int) -> [Float] {
            (0..<rows).flatMap { r in (0..<2).map { c in (0..<4).reduce(Float(0)) { $0 + x[r * 4 + $1] * w[$1][c] } } }
        }
        let x3: [Float] = (0..<12).map { Float($0) - 5 }
        let binding = try session.makeBinding(inputShapes: ["x": [3, 4]])
        XCTAssertEqual(binding.outputs[0].shape, [3, 2], "the 'batch' dimension of y follows x")
        try binding.input("x").assign(x3)
        try session.run(binding)
        XCTAssertEqual(binding.outputs[0].array, expected(x3, rows: 3))

        let x5: [Float] = (0..<20).map { Float($0 % 7) * 0.25 }
        let result = try session.run(["x": Tensor(shape: [5, 4], data: x5)])
        XCTAssertEqual(result["y"], Tensor(shape: [5, 2], data: expected(x5, rows: 5)))

        assertInferenceError(.shapeMismatch, containing: ["'x'", "dynamic shape [batch, 4]"]) {
            _ = try session.makeBinding()
        }
        assertInferenceError(.shapeMismatch, containing: ["'x'", "[batch, 4]", "[3, 5]"]) {
            _ = try session.makeBinding(inputShapes: ["x": [3, 5]])
        }
    }

    func testOutputsThatAreGraphInputsOrConstantsAreFilled() throws {
        let session = try session("passthrough")
        XCTAssertEqual(session.outputs.map(\.name), ["y", "x", "k"])
        let binding = try session.makeBinding()
        for round in 0..<3 {
            let x = (0..<6).map { Float($0 + 10 * round) }
            try binding.input("x").assign(x)
            try session.run(binding)
            XCTAssertEqual(try binding.output("y").array, x.map { -$0 })
            XCTAssertEqual(try binding.output("x").array, x, "ORT leaves an output that is a graph input to the caller")
            XCTAssertEqual(try binding.output("k").array, [0, 1, 2, 3, 4, 5])
        }
        let result = try session.run(["x": Tensor(shape: [2, 3], data: [1, 2, 3, 4, 5, 6])])
        XCTAssertEqual(result["x"]?.data, [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(result["y"]?.data, [-1, -2, -3, -4, -5, -6])
        XCTAssertEqual(result["k"]?.data, [0, 1, 2, 3, 4, 5])
    }

    func testNonFloatTensorsAreAClearError() throws {
        let session = try session("argmax")
        assertInferenceError(.unsupportedType, containing: ["'idx'", "int64", "float32"]) {
            _ = try session.run(["x": Tensor(shape: [1, 5], data: [1, 9, 3, 4, 5])])
        }
        assertInferenceError(.unsupportedType, containing: ["'idx'", "int64"]) {
            _ = try session.makeBinding()
        }
    }

    func testAWrongInputNameIsAClearErrorWithoutACrash() throws {
        let session = try session("affine")
        let x = [Float](repeating: 1, count: 48)
        assertInferenceError(.unknownName, containing: ["'nope'", "inputs: x"]) {
            _ = try session.run(["nope": Tensor(shape: [1, 3, 4, 4], data: x)])
        }
        assertInferenceError(.unknownName, containing: ["missing input 'x'"]) {
            _ = try session.run([:])
        }
        assertInferenceError(.unknownName, containing: ["'z'", "outputs: y"]) {
            _ = try session.run(["x": Tensor(shape: [1, 3, 4, 4], data: x)], outputs: ["z"])
        }
        assertInferenceError(.unknownName, containing: ["'nope'"]) {
            _ = try session.makeBinding(inputShapes: ["nope": [1]])
        }
        let binding = try session.makeBinding()
        assertInferenceError(.unknownName, containing: ["'nope'"]) { _ = try binding.input("nope") }
        assertInferenceError(.unknownName, containing: ["'nope'"]) { _ = try binding.output("nope") }

        // Past Reelwork's checks, ORT's own check answers with its message and code.
        let runtime = try runtime()
        let forged = SessionBinding(session: session,
                                    inputs: [try TensorBuffer(runtime: runtime, name: "nope", shape: [1, 3, 4, 4])],
                                    outputs: [try TensorBuffer(runtime: runtime, name: "y", shape: [1, 3, 4, 4])])
        do {
            try session.run(forged)
            XCTFail("ORT ran with an input name the model lacks")
        } catch let error as InferenceError {
            XCTAssertNotNil(error.ortErrorCode)
            XCTAssertEqual(error.code, .invalidArgument, error.message)
            XCTAssertTrue(error.message.contains("nope"), error.message)
        }
        // The session still works afterwards.
        try binding.input("x").assign(x)
        try session.run(binding)
        XCTAssertEqual(binding.outputs[0].array, [Float](repeating: 3, count: 48))
    }

    func testAWrongElementCountOrShapeIsAClearErrorWithoutACrash() throws {
        let session = try session("affine")
        assertInferenceError(.shapeMismatch, containing: ["47 values", "[1, 3, 4, 4]", "48 expected"]) {
            _ = try session.run(["x": Tensor(shape: [1, 3, 4, 4], data: [Float](repeating: 0, count: 47))])
        }
        assertInferenceError(.shapeMismatch, containing: ["[1, 3, 4, 4]", "[1, 3, 4, 5]"]) {
            _ = try session.run(["x": Tensor(shape: [1, 3, 4, 5], data: [Float](repeating: 0, count: 60))])
        }
        assertInferenceError(.shapeMismatch, containing: ["[1, 3, 4, 4]", "[1, 3, 4]"]) {
            _ = try session.makeBinding(inputShapes: ["x": [1, 3, 4]])
        }
        let binding = try session.makeBinding()
        assertInferenceError(.shapeMismatch, containing: ["'x'", "48 values", "got 49 values"]) {
            try binding.input("x").assign([Float](repeating: 0, count: 49))
        }

        // ORT's own shape checks, reached with forged bindings: its message, no crash.
        let runtime = try runtime()
        for (inputShape, outputShape) in [([1, 3, 4, 5], [1, 3, 4, 5]), ([1, 3, 4, 4], [1, 3, 4, 2])] {
            let forged = SessionBinding(session: session,
                                        inputs: [try TensorBuffer(runtime: runtime, name: "x", shape: inputShape)],
                                        outputs: [try TensorBuffer(runtime: runtime, name: "y", shape: outputShape)])
            do {
                try session.run(forged)
                XCTFail("ORT ran with shapes \(inputShape) -> \(outputShape)")
            } catch let error as InferenceError {
                XCTAssertNotNil(error.ortErrorCode, error.message)
                XCTAssertTrue(error.message.contains("ONNX Runtime error while running"), error.message)
            }
        }
        let other = try self.session("affine")
        assertInferenceError(.unknownName, containing: ["another session"]) { try other.run(binding) }
    }

    // MARK: - Threads

    static func conv(_ x: [Float]) -> [Float] {
        let (channels, size) = (8, 32)
        var y = [Float](repeating: 0, count: channels * size * size)
        for o in 0..<channels {
            for row in 0..<size {
                for col in 0..<size {
                    var sum: Float = 0
                    for i in 0..<channels {
                        for ky in 0..<3 {
                            for kx in 0..<3 {
                                let (r, c) = (row + ky - 1, col + kx - 1)
                                guard r >= 0, r < size, c >= 0, c < size else { continue }
                                let weight = Float(((o * 3 + i * 5 + ky * 7 + kx) % 5) - 2)
                                sum += x[(i * size + r) * size + c] * weight
                            }
                        }
                    }
                    y[(o * size + row) * size + col] = sum
                }
            }
        }
        return y
    }

    func testThreadSettingsAreAppliedAndAgree() throws {
        let x: [Float] = (0..<(8 * 32 * 32)).map { (index: Int) -> Float in Float((index * 7) % 9 - 4) }
        let expected = Self.conv(x)
        let variants: [SessionOptions] = [
            SessionOptions(intraOpThreads: 1), SessionOptions(intraOpThreads: 2),
            SessionOptions(intraOpThreads: 2, interOpThreads: 2, parallelExecution: true),
            SessionOptions(intraOpThreads: 0, optimize: false),
        ]
        for options in variants {
            let session = try session("conv", options)
            XCTAssertEqual(session.options, options)
            let binding = try session.makeBinding()
            try binding.input("x").assign(x)
            try session.run(binding)
            XCTAssertEqual(binding.outputs[0].array, expected, "\(options)")
        }
    }

    func testSeparateBindingsMayRunFromTwoThreads() throws {
        let session = try session("affine")
        let failures = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do {
                let binding = try session.makeBinding()
                for run in 0..<300 {
                    let base = Float(thread * 1000 + run)
                    try binding.input("x").withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] = base + Float(i) } }
                    try session.run(binding)
                    let ok = binding.outputs[0].withUnsafeBufferPointer { y in y.indices.allSatisfy { y[$0] == (base + Float($0)) * 2 + 1 } }
                    if !ok { failures.withLock { $0 += 1 } }
                }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
    }

    // MARK: - Memory

    func testManyRunsWithReusedBuffersDoNotGrowMemory() throws {
        let session = try session("conv", SessionOptions(intraOpThreads: 2))
        let binding = try session.makeBinding()
        let input = try binding.input("x")
        let output = try binding.output("y")
        func runOnce(_ n: Int) throws {
            input.withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] = Float((i + n) % 5) } }
            try session.run(binding)
        }
        for n in 0..<50 { try runOnce(n) }
        let before = Self.residentBytes()
        for n in 0..<2000 { try runOnce(n) }
        let grown = Self.residentBytes() - before
        XCTAssertLessThan(grown, 20 << 20, "RSS grew \(grown >> 10) KiB over 2,000 runs")
        XCTAssertEqual(output.array, Self.conv(input.array))

        // The convenience path releases its per-call tensors too.
        let affine = try self.session("affine")
        let x = Tensor(shape: [1, 3, 4, 4], data: [Float](repeating: 2, count: 48))
        for _ in 0..<50 { _ = try affine.run(["x": x]) }
        let before2 = Self.residentBytes()
        for _ in 0..<2000 { _ = try affine.run(["x": x]) }
        let grown2 = Self.residentBytes() - before2
        XCTAssertLessThan(grown2, 20 << 20, "RSS grew \(grown2 >> 10) KiB over 2,000 convenience runs")
    }

    func testSessionsAndRuntimesAreReleased() throws {
        func cycle() throws {
            let runtime = try OnnxRuntime.load(libraryPath: Self.libraryPath)
            for _ in 0..<5 {
                let session = try InferenceSession(runtime: runtime, modelPath: model("conv"))
                _ = try session.makeBinding()
            }
        }
        _ = try runtime()
        for _ in 0..<5 { try cycle() }
        let before = Self.residentBytes()
        for _ in 0..<40 { try cycle() }
        let grown = Self.residentBytes() - before
        XCTAssertLessThan(grown, 20 << 20, "RSS grew \(grown >> 10) KiB over 40 runtimes and 200 sessions")
    }
}

/// Deterministic bytes for the corrupt-model test.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

