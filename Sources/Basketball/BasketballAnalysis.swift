import Media
import ReelworkCore
import SportKit

/// Media's decoded frame is the tracker's frame as it is: rows of RGB read through a pointer and a
/// step, without a copy (the conformance is a view; no pointer leaves `withRow`).
extension RGBImage: RGBFrameRows {}

/// One run of basketball: the `shots` stage's tracker fed every decoded frame.
final class BasketballAnalysis: SportAnalysis, FrameConsumer {
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

    func consume(_ image: RGBImage, time: Double, frameIndex: Int) throws {
        try tracker!.process(image, time: time, frameIndex: frameIndex)
    }

    /// `result.hoop`, `result.shots`, `result.stats`, `framesSeen`, `framesWithBall`,
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
