/// How VideoDecoder decodes.
public struct DecodeOptions: Sendable {
    /// Decoder threads; 0 lets FFmpeg choose (one per core plus one).
    public var threads: Int
    /// Seconds of presentation time between frame-quality samples; 0 or less samples every frame.
    public var qualitySampleInterval: Double

    public init(threads: Int = 0, qualitySampleInterval: Double = 0.5) {
        self.threads = threads
        self.qualitySampleInterval = qualitySampleInterval
    }
}
