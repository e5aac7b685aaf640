import Media
import ReelworkCore
import SportKit

/// Media's decoded frame is the tracker's frame as it is: rows of RGB read through a pointer and a
/// step, without a copy (the conformance is a view; no pointer leaves `withRow`).
extension RGBImage: RGBFrameRows {}

/// One run of basketball: the `shots` stage's tracker fed every decoded frame, with the detector's
/// sports-ball boxes on the frames the models looked at.
final class BasketballAnalysis: SportAnalysis, FrameConsumer {
    /// COCO's name for a ball (a custom detector names no classes: its boxes are not used).
    static let ballClass = "sports ball"

    let options: BasketballOptions
    private var tracker: BasketballTracker?

    init(options: BasketballOptions) {
        self.options = options
    }

    /// Throws `.invalidInput` when the `hoop` option lies outside this video's frame.
    func everyFrame(width: Int, height: Int, frameRate: Double) throws -> any FrameConsumer {
        tracker = try BasketballTracker(options: options, frameWidth: width, frameHeight: height, frameRate: frameRate)
        return self
    }

    func consume(_ image: RGBImage, time: Double, frameIndex: Int, detections: FrameDetections?) throws {
        let boxes = detections.map { frame in
            frame.boxes(named: Self.ballClass).map { BallBox(x1: $0.x1, y1: $0.y1, x2: $0.x2, y2: $0.y2, confidence: $0.confidence) }
        }
        try tracker!.process(image, time: time, frameIndex: frameIndex, ballBoxes: boxes)
    }

    /// The detector's boxes only where colour is not following the ball on its own.
    var wantsDetections: Bool { !(tracker?.followsBallByColour ?? false) }

    /// `result.hoop`, `result.shots`, `result.stats`, `framesSeen`, `framesWithBall`, `framesWithBallFromDetector`,
    /// `threePointDistanceFt`. A video in which no ball was ever seen needs a person (a blank
    /// video, or a ball of another colour): no made-up "0 attempts".
    func finish() throws -> [String: JSONValue] {
        let result = try tracker!.finish()
        guard result.framesWithBall > 0 else { throw ReelworkError.needsPerson(BasketballMessages.noBallSeen) }
        guard case .object(let fields) = result.json() else { preconditionFailure("BasketballResult.json() is an object") }
        return fields
    }

    func run(_ stage: StageName, on input: DecodedInput) throws -> [String: JSONValue] {
        preconditionFailure("basketball runs \(stage.rawValue) only as its every-frame stage, shots")
    }
}
