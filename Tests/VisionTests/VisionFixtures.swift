import Foundation
import Inference
import Media
import ReelworkCore
import TestSupport
import Vision
import XCTest

/// Paths of the real models, photos and the Python reference, all under the package root.
enum Paths {
    static let root = ProjectPaths.root
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func inRoot(_ relative: String) -> String { ProjectPaths.inRoot(relative) }
    static func photo(_ name: String) -> String { ProjectPaths.photo(name) }
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
    static var settings: VisionSettings { ProjectPaths.visionSettings }

    /// The default settings with the fp32 detector (the int8 default's original).
    static var fp32Settings: VisionSettings {
        var s = settings
        s.detectorModel = inRoot("models/yolov4-tiny.onnx")
        return s
    }
}

/// The real models, loaded once per test process. A missing file is a test failure that says how
/// to get it, never a skip.
enum RealModels {
    static func require(file: StaticString = #filePath, line: UInt = #line) throws {
        try ProjectPaths.requireModels(photos: ["bus.jpg", "zidane.jpg", "person.jpg"], file: file, line: line)
    }

    // The sessions are not Sendable; XCTest runs the tests that share them one at a time.
    nonisolated(unsafe) private static let loaded: Result<VisionModels, Error> = Result { try VisionModels(settings: Paths.settings, threads: 2) }
    nonisolated(unsafe) private static let loadedFP32: Result<VisionModels, Error> = Result { try VisionModels(settings: Paths.fp32Settings, threads: 2) }

    /// Both models with 2 intra-op threads (shared by the tests of one process, used one at a time).
    static func models(file: StaticString = #filePath, line: UInt = #line) throws -> VisionModels {
        try require(file: file, line: line)
        return try loaded.get()
    }

    /// The same with the fp32 detector.
    static func fp32Models(file: StaticString = #filePath, line: UInt = #line) throws -> VisionModels {
        try require(file: file, line: line)
        return try loadedFP32.get()
    }

    static func runtime(file: StaticString = #filePath, line: UInt = #line) throws -> OnnxRuntime {
        try models(file: file, line: line).runtime
    }
}

/// A file the setup scripts make is missing (the test has already failed saying which script to run).
/// tools/models/reference_infer.py, run with the private Python tools the setup installed.
enum PythonReference {
    struct Box: Decodable {
        var `class`: Int
        var score: Double
        var box: [Double]
    }

    struct PoseResult: Decodable {
        struct Point: Decodable {
            var name: String
            var x: Double, y: Double, z: Double, visibility: Double, presence: Double
        }
        var score: Double
        var crop: [Double]
        var landmarks: [Point]
    }

    static func run(_ arguments: [String]) throws -> Data {
        let pytools = Paths.inRoot("models/.pytools")
        guard FileManager.default.fileExists(atPath: pytools) else {
            XCTFail("\(pytools) is missing: run scripts/setup-models.sh")
            throw MissingTestFile(path: pytools)
        }
        return try Tool.run("python3", [Paths.inRoot("tools/models/reference_infer.py")] + arguments)
    }

    /// Detections of `image` (decoded by Pillow), writing the preprocessed tensor to `dump` if given.
    static func yolo(image: String, model: String = Paths.settings.detectorModel, threads: Int = 2, dump: String? = nil) throws -> [Box] {
        try JSONDecoder().decode([Box].self, from: run(["yolo", image, "--model", model, "--threads", String(threads)]
                                                      + (dump.map { ["--dump-raw", $0] } ?? [])))
    }

    /// Detections of a preprocessed tensor, boxes mapped to a `width` × `height` source.
    static func yolo(raw: String, width: Int, height: Int) throws -> [Box] {
        try JSONDecoder().decode([Box].self, from: run(["yolo", "--raw", raw, "--model", Paths.settings.detectorModel,
                                                      "--source-size", "\(width),\(height)"]))
    }

    static func pose(image: String, box: [Double], dump: String? = nil) throws -> PoseResult {
        try JSONDecoder().decode(PoseResult.self, from: run(["pose", image, "--box", box.map { String($0) }.joined(separator: ",")]
                                                             + (dump.map { ["--dump-raw", $0] } ?? [])))
    }

    static func pose(raw: String, box: [Double]) throws -> PoseResult {
        try JSONDecoder().decode(PoseResult.self, from: run(["pose", "--raw", raw, "--box", box.map { String($0) }.joined(separator: ",")]))
    }
}

/// A picture's RGB pixels as FFmpeg decodes them (the same path as a video frame).
struct DecodedPicture {
    var pixels: [UInt8]
    var width: Int
    var height: Int

    init(_ path: String, colorConversion: DecodeOptions.ColorConversion = .fast) throws {
        var copy: DecodedPicture?
        _ = try VideoDecoder(location: path, options: DecodeOptions(colorConversion: colorConversion))
            .decodeAll(sampling: .everyFrame, progress: { _ in }) { frame in
                if copy == nil { copy = DecodedPicture(pixels: frame.image.packedPixels(), width: frame.image.width, height: frame.image.height) }
            }
        self = try XCTUnwrap(copy)
    }

    private init(pixels: [UInt8], width: Int, height: Int) {
        self.pixels = pixels
        self.width = width
        self.height = height
    }

    func withImage<R>(_ body: (RGBImage) throws -> R) rethrows -> R {
        try RGBImage.withPackedPixels(pixels, width: width, height: height, body)
    }

    /// Writes a binary PPM (P6), which Pillow reads as exactly these pixels.
    func writePPM(to path: String) throws {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: pixels)
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// Bare little-endian float32 values (reference_infer.py's raw tensor files).
func readFloats(_ path: String) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self).littleEndian) } }
}

func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count, "\(a.count) vs \(b.count) values")
    return zip(a, b).map { abs($0 - $1) }.max() ?? 0
}

extension BoundingBox {
    var corners: [Double] { [x1, y1, x2, y2] }

    /// The largest distance between corresponding corner coordinates.
    func distance(to other: [Double]) -> Double {
        zip(corners, other).map { abs($0 - $1) }.max() ?? .infinity
    }
}
