/// What probing a video tells us. Field names are the API's (`result.video`).
public struct VideoFacts: Codable, Sendable, Equatable {
    public var durationSeconds: Double
    /// Frames as the container declares them (or duration × fps when it does not).
    public var frameCount: Int
    public var fps: Double
    /// Coded size; `rotation` says how a player would turn it.
    public var width: Int
    public var height: Int
    public var codec: String
    /// Degrees clockwise a player rotates the picture for display (0, 90, 180, 270).
    public var rotation: Int
    /// libavformat's name for the container, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var container: String

    public init(durationSeconds: Double, frameCount: Int, fps: Double, width: Int, height: Int,
                codec: String, rotation: Int, container: String) {
        self.durationSeconds = durationSeconds
        self.frameCount = frameCount
        self.fps = fps
        self.width = width
        self.height = height
        self.codec = codec
        self.rotation = rotation
        self.container = container
    }
}
