import Foundation

/// Where the models and the inference runtime are, and how frames are sampled for them.
/// Defaults are the files `scripts/setup-models.sh` writes, relative to the working directory;
/// each setting has an environment variable (docs/CONFIGURATION.md lists them).
public struct VisionSettings: Sendable, Hashable {
    /// The ONNX Runtime C library (the same default as `Inference.OnnxRuntime.defaultLibraryPath`).
    public var ortLibrary = "models/onnxruntime/libonnxruntime.so.1.31.1"
    /// A YOLO detector export: Darknet layout `[1, N, 5 + C]` or Ultralytics `[1, 4 + C, N]`.
    /// YOLOv4-tiny quantized to int8 by the setup: a third of the fp32 model's CPU per frame, the
    /// same people found on the test photos (docs/benchmarks/vision.md, "int8 detector"). The fp32 export
    /// (`models/yolov4-tiny.onnx`) stays available.
    public var detectorModel = "models/yolov4-tiny-int8.onnx"
    /// BlazePose full (`input` 1×256×256×3 → `landmarks` 1×195, `presence` 1×1).
    public var poseModel = "models/pose_landmark_full.onnx"
    /// Frames per second of video that the `objects` and `pose` stages look at.
    public var sampleFPS = 10.0
    /// ONNX Runtime intra-op threads per session; 0 = the machine's cores ÷ jobs run at once, at least 1.
    public var inferenceThreads = 0
    /// At most this many people get landmarks in one frame (the largest boxes): spectators in the
    /// background should not multiply the cost of every frame.
    public var maxPeoplePerFrame = 4
    /// When the detector runs on a sampled frame: for the people of a clip whose poses are wanted,
    /// and for a sport whose own tracker follows what it finds (basketball's ball).
    public var personDetection = PersonDetection.tracked
    /// With `.tracked`, the detector also runs at least this often (seconds of video), to find
    /// people who walk in.
    public var detectorRefreshSeconds = 1.0

    /// How people (and a sport's tracked ball) are found on the sampled frames.
    public enum PersonDetection: String, Sendable, Hashable, CaseIterable {
        /// The detector on every sampled frame, each pose cropped around its detection, every
        /// sport given its boxes (the mode before issue 29, kept so results can be compared).
        case everySample = "every"
        /// BlazePose's own way: each followed person's crop comes from their last landmarks; the
        /// detector runs on the first sample, when nobody is followed, on the sample after a
        /// followed person is lost (the pose model's presence falls, the landmarks jump further
        /// than a body can move, two followed crops land on one body), while the tracker holds a
        /// track nobody follows, and every `detectorRefreshSeconds`. Without poses, the detector
        /// runs where the sport's own tracker is not following what it looks for
        /// (`FrameConsumer.wantsDetections`).
        case tracked
    }

    public init() {}

    public enum Env {
        public static let ortLibrary = "REELWORK_ORT_LIBRARY"
        public static let detectorModel = "REELWORK_DETECTOR_MODEL"
        public static let poseModel = "REELWORK_POSE_MODEL"
        public static let sampleFPS = "REELWORK_SAMPLE_FPS"
        public static let inferenceThreads = "REELWORK_INFERENCE_THREADS"
        public static let maxPeoplePerFrame = "REELWORK_MAX_PEOPLE_PER_FRAME"
        public static let personDetection = "REELWORK_PERSON_DETECTION"
        public static let detectorRefresh = "REELWORK_DETECTOR_REFRESH_S"
    }

    /// Reads the environment; a bad value is an error naming the variable.
    public static func fromEnvironment(_ env: [String: String]) throws -> VisionSettings {
        var s = VisionSettings()
        func text(_ name: String, _ value: inout String) {
            if let text = env[name], !text.isEmpty { value = text }
        }
        func whole(_ name: String, _ value: inout Int, min: Int) throws {
            guard let text = env[name], !text.isEmpty else { return }
            guard let v = Int(text), v >= min else { throw ReelworkError.configuration("\(name)='\(text)' must be a whole number ≥ \(min)") }
            value = v
        }
        text(Env.ortLibrary, &s.ortLibrary)
        text(Env.detectorModel, &s.detectorModel)
        text(Env.poseModel, &s.poseModel)
        if let rate = env[Env.sampleFPS], !rate.isEmpty {
            guard let v = Double(rate), v > 0, v <= 1000 else {
                throw ReelworkError.configuration("\(Env.sampleFPS)='\(rate)' must be a number of frames per second > 0")
            }
            s.sampleFPS = v
        }
        try whole(Env.inferenceThreads, &s.inferenceThreads, min: 0)
        try whole(Env.maxPeoplePerFrame, &s.maxPeoplePerFrame, min: 1)
        if let mode = env[Env.personDetection], !mode.isEmpty {
            guard let v = PersonDetection(rawValue: mode) else {
                let modes = PersonDetection.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
                throw ReelworkError.configuration("\(Env.personDetection)='\(mode)' must be \(modes)")
            }
            s.personDetection = v
        }
        if let refresh = env[Env.detectorRefresh], !refresh.isEmpty {
            guard let v = Double(refresh), v > 0, v <= 3600 else {
                throw ReelworkError.configuration("\(Env.detectorRefresh)='\(refresh)' must be a number of seconds > 0 and ≤ 3600")
            }
            s.detectorRefreshSeconds = v
        }
        return s
    }

    /// The intra-op thread count to use when `concurrentJobs` jobs share this machine's cores.
    public func resolvedInferenceThreads(concurrentJobs: Int,
                                         cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        if inferenceThreads > 0 { return inferenceThreads }
        return max(1, cores / max(1, concurrentJobs))
    }
}
