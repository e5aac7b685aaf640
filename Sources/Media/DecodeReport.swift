import ReelworkCore

/// What decoding a whole video found.
public struct DecodeReport: Sendable, Equatable {
    /// Frames the decoder produced, including those drained at the end of the stream.
    public var framesDecoded: Int
    /// Brightness of one frame every `qualitySampleInterval` seconds, in presentation order.
    public var qualitySamples: [FrameQualitySample]
    /// Packets the decoder rejected mid-stream; they were skipped and decoding went on.
    public var damagedPackets: Int
    /// Frames handed to the sampling callback (0 when decoding without one).
    public var framesSampled: Int

    public init(framesDecoded: Int, qualitySamples: [FrameQualitySample], damagedPackets: Int, framesSampled: Int = 0) {
        self.framesDecoded = framesDecoded
        self.qualitySamples = qualitySamples
        self.damagedPackets = damagedPackets
        self.framesSampled = framesSampled
    }
}
