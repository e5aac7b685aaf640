/// What probing a video tells us. Field names are the API's (`result.video`).
public struct VideoFacts: Codable, Sendable, Equatable {
    public var durationSeconds: Double
    /// Frames as the container declares them, as estimated from duration × fps when it does not
    /// (fragmented MP4, MPEG-TS, AVI), or as counted by the decode stage: `frameCountSource` says which.
    public var frameCount: Int
    public var frameCountSource: FrameCountSource
    public var fps: Double
    /// Coded size; `rotation` says how a player would turn it.
    public var width: Int
    public var height: Int
    public var codec: String
    /// Degrees clockwise a player rotates the picture for display (0, 90, 180, 270).
    public var rotation: Int
    /// libavformat's name for the container, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var container: String

    /// Where a frame count comes from; only `estimate` may be off (by a frame or two, or more for
    /// variable frame rates).
    public enum FrameCountSource: String, Codable, Sendable, CaseIterable {
        /// The container's own count of the stream's frames (an MP4's sample table).
        case container
        /// Duration × frame rate: the container stores no count.
        case estimate
        /// Counted by decoding every frame.
        case decoded
    }

    public init(durationSeconds: Double, frameCount: Int, frameCountSource: FrameCountSource = .container, fps: Double,
                width: Int, height: Int, codec: String, rotation: Int, container: String) {
        self.durationSeconds = durationSeconds
        self.frameCount = frameCount
        self.frameCountSource = frameCountSource
        self.fps = fps
        self.width = width
        self.height = height
        self.codec = codec
        self.rotation = rotation
        self.container = container
    }

    enum CodingKeys: String, CodingKey {
        case durationSeconds, frameCount, frameCountSource, fps, width, height, codec, rotation, container
    }

    /// Results stored before `frameCountSource` existed decode as `container`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        durationSeconds = try c.decode(Double.self, forKey: .durationSeconds)
        frameCount = try c.decode(Int.self, forKey: .frameCount)
        frameCountSource = try c.decodeIfPresent(FrameCountSource.self, forKey: .frameCountSource) ?? .container
        fps = try c.decode(Double.self, forKey: .fps)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        codec = try c.decode(String.self, forKey: .codec)
        rotation = try c.decode(Int.self, forKey: .rotation)
        container = try c.decode(String.self, forKey: .container)
    }

    /// These facts with the frame count the decoder counted.
    public func withDecodedFrameCount(_ frames: Int) -> VideoFacts {
        var facts = self
        facts.frameCount = frames
        facts.frameCountSource = .decoded
        return facts
    }
}
