import Media
import ReelworkCore

/// One run's analysis of a sport, made from the job's parsed options (`SportPlugin.analysis`).
/// Used by one run on one thread, in this order: `everyFrame` (once the decoder is open, when the
/// plan has an every-frame stage), then `run` for each stage after the decode.
public protocol SportAnalysis: AnyObject {
    /// The consumer of every decoded frame, for a video of this display size and frame rate.
    /// Throws (charged to the every-frame stage) when the options do not fit the video, e.g. a
    /// calibration outside the frame.
    func everyFrame(width: Int, height: Int, frameRate: Double) throws -> any FrameConsumer

    /// Runs one of the plan's stages after the decode on what the decode gave, and returns the
    /// result document's fields it sets.
    func run(_ stage: StageName, on input: DecodedInput) throws -> [String: JSONValue]
}

extension SportAnalysis {
    /// For sports whose plan has no every-frame stage: never called.
    public func everyFrame(width: Int, height: Int, frameRate: Double) throws -> any FrameConsumer {
        preconditionFailure("\(Self.self) has no every-frame stage")
    }
}

/// Sees every decoded frame of the run in order, during the decode.
public protocol FrameConsumer: AnyObject {
    /// One decoded frame (display orientation, converted to RGB in a reused buffer: read it now,
    /// keep nothing of it), its time in seconds and its index; `detections`: the detector's boxes
    /// on this frame when the plan samples objects and this frame was one the models looked at
    /// (`vision.sampleFPS` a second), nil on the others.
    func consume(_ image: RGBImage, time: Double, frameIndex: Int, detections: FrameDetections?) throws

    /// Whether the detector's boxes are wanted on the next sampled frame. A sport whose own
    /// tracker is following what the detector would find says no while it does, so the detector
    /// runs only where that tracker lost it (or never had it); one that reads no boxes says no.
    /// Heeded when the plan samples objects without poses; with poses followed, the people decide
    /// (`VisionSettings.PersonDetection.tracked`).
    var wantsDetections: Bool { get }

    /// After the last frame: the result document's fields the every-frame stage sets.
    func finish() throws -> [String: JSONValue]
}

/// What the streamed decode gave the stages after it.
public struct DecodedInput: Sendable {
    /// The sampled frames' detections and poses; nil when the plan ran no models.
    public var sampled: SampledVision?

    public init(sampled: SampledVision?) {
        self.sampled = sampled
    }
}

extension FrameConsumer {
    /// The detector on every sampled frame, as the plan asks.
    public var wantsDetections: Bool { true }
}
