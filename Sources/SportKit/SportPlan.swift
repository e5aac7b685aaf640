import ReelworkCore

/// A sport's part of a run: what it takes from the one streamed decode, and its stages.
/// The run's plan is `probe`, `decode`, then `stages` (`SportPlan.stages`).
public struct SportPlan: Sendable, Equatable {
    /// What the detector and the pose model look at, on the sampled frames.
    public enum Sampled: Sendable, Equatable {
        case none
        /// Detections only (`objects`).
        case objects
        /// Detections and the poses of tracked people (`objects`, `pose`).
        case objectsAndPoses
    }

    public var sampled: Sampled
    /// The sport's stage that sees every decoded frame as RGB during the decode, if any; the same
    /// whatever the options (the worker's frame counters are made per stage before any job).
    public var everyFrameStage: StageName?
    /// The sport's stages after the decode, in order.
    public var afterDecode: [StageName]

    public init(sampled: Sampled, everyFrameStage: StageName? = nil, afterDecode: [StageName] = []) {
        (self.sampled, self.everyFrameStage, self.afterDecode) = (sampled, everyFrameStage, afterDecode)
    }

    /// A sport without a plug-in: the streamed models' detections and poses, nothing of its own.
    public static let visionOnly = SportPlan(sampled: .objectsAndPoses)

    /// The streamed stages after `decode`, then the ones after it: what the run adds to `probe`, `decode`.
    public var stages: [StageName] {
        let models: [StageName] = switch sampled {
        case .none: []
        case .objects: [.objects]
        case .objectsAndPoses: [.objects, .pose]
        }
        return models + (everyFrameStage.map { [$0] } ?? []) + afterDecode
    }

    /// The stage charged with the sport's options: its first own stage (the analysis is made
    /// when that stage starts, so a bad option fails there, as it always has).
    public var optionsStage: StageName? { everyFrameStage ?? afterDecode.first }
}
