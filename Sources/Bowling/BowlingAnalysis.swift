import Media
import ReelworkCore
import SportKit

/// One run of bowling: the `ball` stage's tracker fed every decoded frame, then `shot_metrics`
/// on the shots it cut.
final class BowlingAnalysis: SportAnalysis, FrameConsumer {
    let options: BowlingOptions
    private var tracker: BallTracker?
    private var tracks: BallTracks?

    init(options: BowlingOptions) {
        self.options = options
    }

    func everyFrame(width: Int, height: Int, frameRate: Double) throws -> any FrameConsumer {
        tracker = try BallTracker(options: options, frameWidth: width, frameHeight: height, frameRate: frameRate)
        return self
    }

    func consume(_ image: RGBImage, time: Double, frameIndex: Int, detections: FrameDetections?) throws {
        try tracker!.process(image, time: time, frameIndex: frameIndex)
    }

    /// The ball is found by its colour alone: the detector's boxes are never read (with the
    /// `pose` option the detector still runs for the bowler, as the pose pass needs it).
    var wantsDetections: Bool { false }

    /// `result.ball`: how many frames had a ball, and how many shots were tracked.
    func finish() throws -> [String: JSONValue] {
        let tracks = try tracker!.finish()
        self.tracks = tracks
        return ["ball": .object(["framesWithBall": .number(Double(tracks.framesWithBall)),
                                 "shotsTracked": .number(Double(tracks.shots.count))])]
    }

    func run(_ stage: StageName, on input: DecodedInput) throws -> [String: JSONValue] {
        guard stage == .shotMetrics, let tracks else { preconditionFailure("bowling runs \(stage.rawValue) only as shot_metrics, after ball") }
        return ["shots": .array(ShotMetricsCalculator.measure(tracks, options: options).map { $0.json() })]
    }
}
