import ReelworkCore

/// What decoding a whole video found.
public struct DecodeReport: Sendable, Equatable {
    /// The video's frames: those the decoder produced (including those drained at the end of the
    /// stream) and those it was told to leave out (`framesDropped`).
    public var framesDecoded: Int
    /// Brightness of one frame every `qualitySampleInterval` seconds, in presentation order.
    public var qualitySamples: [FrameQualitySample]
    /// Packets the decoder rejected mid-stream; they were skipped and decoding went on.
    public var damagedPackets: Int
    /// Frames handed to the sampling callback (0 when decoding without one).
    public var framesSampled: Int
    /// Frames left undecoded because no sample needed them and no frame refers to them
    /// (`DecodeOptions.dropsUnsampledFrames`); counted in `framesDecoded`.
    public var framesDropped: Int

    public init(framesDecoded: Int, qualitySamples: [FrameQualitySample], damagedPackets: Int, framesSampled: Int = 0,
                framesDropped: Int = 0) {
        self.framesDecoded = framesDecoded
        self.qualitySamples = qualitySamples
        self.damagedPackets = damagedPackets
        self.framesSampled = framesSampled
        self.framesDropped = framesDropped
    }
}
