import Inference
import Media

/// A YOLO detector: one ONNX Runtime session with its input and output buffers, reused for every
/// frame. Darknet (YOLOv4) and Ultralytics (YOLOv8/YOLO11) exports are told apart by their output
/// shape when the model is loaded, so an unusable model fails there, not on the first frame.
///
/// Not thread-safe: one caller at a time (one per job).
public final class ObjectDetector {
    /// How a frame is fitted onto the network input.
    public enum Fit: Sendable, Equatable {
        /// Plain resize to the input size, aspect not kept (how Reelwork's YOLOv4-tiny is run).
        case stretch
        /// Aspect kept, centred, padded with grey 114 (how Ultralytics trains its models).
        case letterbox
    }

    public let session: InferenceSession
    public let layout: DetectorLayout
    public let inputWidth: Int
    public let inputHeight: Int
    public var fit: Fit
    public var decoder: DetectionDecoder

    private let binding: SessionBinding
    private let input: TensorBuffer
    private let output: TensorBuffer
    private let resampler = ImageResampler()
    private var placement: LetterboxPlacement?

    /// Loads the model at `modelPath` and checks it: one float32 input `[1, 3, H, W]` with fixed
    /// H and W, and a first output whose shape is a known YOLO layout. Throws ONNX Runtime's errors
    /// (missing or corrupt file) and a `.detector` VisionError naming the shape otherwise.
    public init(runtime: OnnxRuntime, modelPath: String, options: SessionOptions = SessionOptions(), fit: Fit = .stretch) throws {
        let session = try InferenceSession(runtime: runtime, modelPath: modelPath, options: options)
        let shown = "'\(modelPath)'"
        guard session.inputs.count == 1, let info = session.inputs.first, info.elementType == .float32,
              info.shape.count == 4, info.shape[0] == 1, info.shape[1] == 3, info.shape[2] > 0, info.shape[3] > 0 else {
            throw VisionError(.detector, "detector model \(shown) must have one float32 input [1, 3, H, W] with fixed H and W; it has \(session.inputs.map(\.description).joined(separator: "; "))")
        }
        guard let outputInfo = session.outputs.first else {
            throw VisionError(.detector, "detector model \(shown) has no output")
        }
        self.layout = try DetectorLayout(shape: outputInfo.shape, model: shown)
        self.session = session
        self.inputHeight = info.shape[2]
        self.inputWidth = info.shape[3]
        self.fit = fit
        self.decoder = DetectionDecoder(layout: layout, inputWidth: inputWidth, inputHeight: inputHeight)
        self.binding = try session.makeBinding(outputNames: [outputInfo.name])
        self.input = binding.inputs[0]
        self.output = binding.outputs[0]
    }

    /// Detections in `image` (source pixels, clamped to the image), best first.
    public func detect(_ image: RGBImage) throws -> [Detection] {
        prepare(image)
        try run()
        return decode(sourceWidth: image.width, sourceHeight: image.height)
    }

    /// Detections from an already preprocessed input tensor (`[1, 3, H, W]`, RGB 0…1), with boxes
    /// mapped to a `sourceWidth` × `sourceHeight` frame that was stretched onto it.
    public func detect(preprocessed values: [Float], sourceWidth: Int, sourceHeight: Int) throws -> [Detection] {
        try input.assign(values)
        placement = nil
        try run()
        return decode(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
    }

    /// Writes `image` into the input buffer (the preprocessing alone; benchmarks time it apart).
    public func prepare(_ image: RGBImage) {
        switch fit {
        case .stretch:
            resampler.resize(image, into: input.elements, width: inputWidth, height: inputHeight, layout: .planar)
            placement = nil
        case .letterbox:
            placement = resampler.letterbox(image, into: input.elements, width: inputWidth, height: inputHeight, layout: .planar)
        }
    }

    /// Runs the model on the input buffer as it is.
    public func run() throws {
        try InferenceTimers.time(InferenceTimers.detector) { try session.run(binding) }
    }

    /// Decodes the output buffer of the last run.
    public func decode(sourceWidth: Int, sourceHeight: Int) -> [Detection] {
        decoder.decode(output.elements, sourceWidth: sourceWidth, sourceHeight: sourceHeight, letterbox: placement)
    }

    /// A copy of the current input tensor (tests compare it with the Python reference's).
    public var inputValues: [Float] { input.array }
}
