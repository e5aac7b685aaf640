import CFFmpeg

/// How VideoDecoder decodes.
public struct DecodeOptions: Sendable {
    /// Decoder threads; 0 lets FFmpeg choose (one per core plus one).
    public var threads: Int
    /// Seconds of presentation time between frame-quality samples; 0 or less samples every frame.
    public var qualitySampleInterval: Double
    /// How sampled frames are converted to RGB.
    public var colorConversion: ColorConversion
    /// The largest picture decoded (a stream may change size mid-way) and a stop check for blocked reads.
    public var guards: MediaGuards
    /// With sampling by time (`FrameSampling.fps`), leave undecoded the frames that no sample needs
    /// and no other frame refers to (`FrameSkipPlanner`). The frames handed on, their numbers and the
    /// report are the same either way; false decodes every frame (to compare, or to check a whole stream).
    public var dropsUnsampledFrames: Bool

    public init(threads: Int = 0, qualitySampleInterval: Double = 0.5, colorConversion: ColorConversion = .fast,
                guards: MediaGuards = MediaGuards(), dropsUnsampledFrames: Bool = true) {
        self.threads = threads
        self.qualitySampleInterval = qualitySampleInterval
        self.colorConversion = colorConversion
        self.guards = guards
        self.dropsUnsampledFrames = dropsUnsampledFrames
    }

    /// libswscale's YUV → RGB conversion of sampled frames.
    public enum ColorConversion: Sendable, Equatable {
        /// The fast unscaled path: each chroma sample covers its 2×2 pixels (what ffmpeg's CLI does).
        case fast
        /// Chroma interpolated to full resolution and exact rounding: closer to what JPEG
        /// libraries (libjpeg's "fancy upsampling") give, at a few ms more per 1080p frame.
        case accurate

        var swscaleFlags: Int32 {
            switch self {
            case .fast: return SWS_BILINEAR
            case .accurate: return SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
            }
        }
    }
}
