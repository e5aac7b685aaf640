import Media
import ReelworkCore
import SportKit

/// One run of archery: the `scoring` stage fed the decoded frames.
///
/// A photo is one frame: it is scored on its own (`ArcheryAnalyzer.analyze`). A video is looked at
/// `scoredFramesPerSecond` times a second (the first frame at or after each tick), not at every
/// frame: an end changes when an arrow lands, and finding the face and the arrows in a 1080p frame
/// costs far more than decoding it, so four looks a second give each arrow's arrival to a quarter
/// of a second at a fraction of the cost (a 2-minute end at 30 fps: 480 frames scored of 3600).
/// Those frames go through `ArcheryVideoScorer`, which keeps only steady views of the whole face.
///
/// Result fields: the end's (`ArcheryResult.json()`: `face`, `arrows[]`, `total`, `xCount`, `tens`,
/// and `expectedArrowCount`, `missingArrows`, `message` when arrows are missing), `arrows[].arrowNumber`
/// (1-based, the rows' number), `input` (`photo` or `video`); from a video also `arrows[].arrivalTime`,
/// `framesSeen` (frames scored), `steadyFrames` and `scoredFramesPerSecond`.
final class ArcheryAnalysis: SportAnalysis, FrameConsumer {
    /// Frames of a video scored per second of video.
    static let scoredFramesPerSecond = 4.0

    let options: ArcheryOptions
    /// The first frame looked at, held until a second one shows the input is a video.
    private var first: (time: Double, image: ArcheryImage)?
    private var scorer: ArcheryVideoScorer
    private var looked = 0
    private var nextTime = -Double.infinity

    init(options: ArcheryOptions) {
        self.options = options
        scorer = ArcheryVideoScorer(options: options)
    }

    func everyFrame(width: Int, height: Int, frameRate: Double) throws -> any FrameConsumer {
        self
    }

    func consume(_ image: RGBImage, time: Double, frameIndex: Int, detections: FrameDetections?) throws {
        // The first frame always; then the first frame at or after each tick of a fixed grid (0,
        // 0.25, 0.5 … s), so the ticks do not drift with the frame rate. A frame without a usable
        // time is skipped.
        guard looked == 0 || (time.isFinite && time >= nextTime - 1e-6) else { return }
        if time.isFinite { nextTime = ((time * Self.scoredFramesPerSecond + 1e-6).rounded(.down) + 1) / Self.scoredFramesPerSecond }
        // A copy (the decoder reuses its buffer): at most 4 a second, each far cheaper than scoring it.
        let frame = try ArcheryImage(width: image.width, height: image.height, pixels: image.packedPixels())
        looked += 1
        if looked == 1 {
            first = (time, frame)
            return
        }
        if let held = first {
            scorer.add(time: held.time, image: held.image)
            first = nil
        }
        scorer.add(time: time, image: frame)
    }

    func finish() throws -> [String: JSONValue] {
        if looked == 1, let photo = first {
            first = nil
            return Self.fields(try ArcheryAnalyzer.analyze(photo.image, options: options).json(), input: "photo")
        }
        guard looked > 1 else {
            throw ReelworkError.invalidInput("the file holds no picture to score: send a photo or a video of the target face")
        }
        var fields = Self.fields(try scorer.finish().json(), input: "video")
        fields["scoredFramesPerSecond"] = .number(Self.scoredFramesPerSecond)
        return fields
    }

    func run(_ stage: StageName, on input: DecodedInput) throws -> [String: JSONValue] {
        preconditionFailure("archery has no stage after the decode (\(stage.rawValue))")
    }

    /// The end's document as the result's fields, each arrow numbered from 1 (the typed rows' key).
    static func fields(_ document: JSONValue, input: String) -> [String: JSONValue] {
        guard case .object(var fields) = document else { return ["input": .string(input)] }
        if case .array(let arrows)? = fields["arrows"] {
            fields["arrows"] = .array(arrows.enumerated().map { index, arrow in
                guard case .object(var a) = arrow else { return arrow }
                a["arrowNumber"] = .number(Double(index + 1))
                return .object(a)
            })
        }
        fields["input"] = .string(input)
        return fields
    }
}
