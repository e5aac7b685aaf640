import Foundation
import Inference
import Media
import ReelworkCore

/// BlazePose (full) landmarks of one person: a square crop around the person's box goes in,
/// 33 landmarks in source pixels come out. One ONNX Runtime session with its buffers, reused for
/// every person and frame.
///
/// Not thread-safe, with one split: `prepare(_:personBox:into:)` and `prepare(_:crop:into:)` touch
/// only the resampler and `estimate(preprocessed:crop:)` only the session and its buffers, so one
/// thread may prepare crops while another runs them (the pipeline's pose thread). Everything
/// else: one caller at a time.
public final class PoseEstimator {
    public let session: InferenceSession
    /// The crop's side in model pixels (256 for BlazePose full).
    public let inputSize: Int

    private let binding: SessionBinding
    private let input: TensorBuffer
    private let landmarks: TensorBuffer
    private let presence: TensorBuffer
    private let resampler = ImageResampler()

    /// Loads the model at `modelPath` and checks it: one float32 input `[1, S, S, 3]` (NHWC), an
    /// output of 5 values per point for at least 33 points (`landmarks`) and a one-value output
    /// (`presence`), found by those names or else by their sizes. Throws ONNX Runtime's errors
    /// (missing or corrupt file) and a `.pose` VisionError naming the shapes otherwise.
    public init(runtime: OnnxRuntime, modelPath: String, options: SessionOptions = SessionOptions()) throws {
        let session = try InferenceSession(runtime: runtime, modelPath: modelPath, options: options)
        let shown = "'\(modelPath)'"
        guard session.inputs.count == 1, let info = session.inputs.first, info.elementType == .float32,
              info.shape.count == 4, info.shape[0] == 1, info.shape[1] > 0, info.shape[1] == info.shape[2], info.shape[3] == 3 else {
            throw VisionError(.pose, "pose model \(shown) must have one float32 input [1, S, S, 3] (RGB, NHWC); it has \(session.inputs.map(\.description).joined(separator: "; "))")
        }
        func elements(_ info: TensorInfo) -> Int { info.isFixed ? info.shape.reduce(1, *) : -1 }
        let outputs = session.outputs.filter { $0.elementType == .float32 }
        let points = outputs.first { $0.name == "landmarks" }
            ?? outputs.first { elements($0) >= Pose.landmarkCount * 5 && elements($0) % 5 == 0 }
        let score = outputs.first { $0.name == "presence" } ?? outputs.first { elements($0) == 1 }
        guard let points, let score, elements(points) >= Pose.landmarkCount * 5, elements(points) % 5 == 0, elements(score) == 1 else {
            throw VisionError(.pose, "pose model \(shown) must have a landmarks output of 5 values per point for at least \(Pose.landmarkCount) points and a one-value presence output (BlazePose); it has \(session.outputs.map(\.description).joined(separator: "; "))")
        }
        self.session = session
        self.inputSize = info.shape[1]
        self.binding = try session.makeBinding(outputNames: [points.name, score.name])
        self.input = binding.inputs[0]
        self.landmarks = binding.outputs[0]
        self.presence = binding.outputs[1]
    }

    /// The pose of the person in `box` of `image`; nil when the box is empty.
    public func estimate(_ image: RGBImage, personBox box: BoundingBox) throws -> Pose? {
        guard let crop = PoseCrop(around: box) else { return nil }
        return try estimate(image, crop: crop)
    }

    /// The pose of the person in `crop` of `image` (a crop from their last pose's alignment points).
    public func estimate(_ image: RGBImage, crop: PoseCrop) throws -> Pose {
        prepare(image, crop: crop)
        try run()
        return pose(in: crop)
    }

    /// The pose from an already preprocessed crop tensor (`[1, S, S, 3]`, RGB 0…1) taken as `crop`.
    public func estimate(preprocessed values: [Float], crop: PoseCrop) throws -> Pose {
        try input.assign(values)
        try run()
        return pose(in: crop)
    }

    /// Writes the crop around `box` into the input buffer (the preprocessing alone; benchmarks time
    /// it apart) and returns it; nil when the box is empty.
    public func prepare(_ image: RGBImage, personBox box: BoundingBox) -> PoseCrop? {
        guard let crop = PoseCrop(around: box) else { return nil }
        prepare(image, crop: crop)
        return crop
    }

    /// Writes `crop` of `image` into the input buffer.
    private func prepare(_ image: RGBImage, crop: PoseCrop) {
        resampler.crop(image, left: crop.left, top: crop.top, side: crop.side, into: input.elements, size: inputSize, layout: .interleaved)
    }

    /// Writes the crop around `box` into `values` (a tensor of `inputElementCount` floats) instead
    /// of the session's input, so another thread may run the model meanwhile; nil when the box is
    /// empty. Uses this estimator's resampler: one preparing caller at a time.
    public func prepare(_ image: RGBImage, personBox box: BoundingBox, into values: inout [Float]) -> PoseCrop? {
        guard let crop = PoseCrop(around: box), prepare(image, crop: crop, into: &values) else { return nil }
        return crop
    }

    /// Writes `crop` of `image` into `values` (as above); false when `values` has the wrong size.
    public func prepare(_ image: RGBImage, crop: PoseCrop, into values: inout [Float]) -> Bool {
        guard values.count == inputElementCount else { return false }
        resampler.crop(image, left: crop.left, top: crop.top, side: crop.side, into: &values, size: inputSize, layout: .interleaved)
        return true
    }

    /// Floats in one input tensor (`inputSize`² × 3).
    public var inputElementCount: Int { inputSize * inputSize * 3 }

    /// Runs the model on the input buffer as it is.
    public func run() throws {
        try InferenceTimers.time(InferenceTimers.pose) { try session.run(binding) }
    }

    /// The landmarks of the last run, for an input that was `crop`, mapped from crop pixels to
    /// source pixels: `X = left + x · S / size`; visibility and presence through the sigmoid (the
    /// model gives logits).
    public func pose(in crop: PoseCrop) -> Pose {
        let k = crop.side / Double(inputSize)
        let points: [Landmark] = (0..<Pose.landmarkCount).map { i in
            func value(_ a: Int) -> Double { Double(landmarks.elements[i * 5 + a]) }
            return Landmark(x: crop.left + value(0) * k, y: crop.top + value(1) * k, z: value(2) * k,
                            visibility: Self.sigmoid(value(3)), presence: Self.sigmoid(value(4)))
        }
        // BlazePose's outputs 33 and 34 (after the body's 33) are its alignment points.
        var alignment: PoseAlignment?
        if landmarks.elements.count >= (Pose.landmarkCount + 2) * 5 {
            func value(_ i: Int, _ a: Int) -> Double { Double(landmarks.elements[i * 5 + a]) }
            let c = Pose.landmarkCount
            alignment = PoseAlignment(centreX: crop.left + value(c, 0) * k, centreY: crop.top + value(c, 1) * k,
                                      scaleX: crop.left + value(c + 1, 0) * k, scaleY: crop.top + value(c + 1, 1) * k)
        }
        return Pose(score: Double(presence[0]), crop: crop, landmarks: points, alignment: alignment)
    }

    private static func sigmoid(_ v: Double) -> Double { 1 / (1 + exp(-v)) }

    /// A copy of the current input tensor (tests compare it with the Python reference's).
    public var inputValues: [Float] { input.array }
}
