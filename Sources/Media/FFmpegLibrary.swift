import CFFmpeg

/// Process-wide FFmpeg setup, done exactly once before the first use.
enum FFmpegLibrary {
    // A `static let` initialiser runs once, under Swift's own lock (swift_once), so
    // concurrent first calls from several threads are safe.
    /// The most FFmpeg may allocate at once. A damaged or hostile header can ask for gigabytes (a
    /// packet or picture size it declares); the largest buffer a video within the limits needs (an
    /// 8K picture at 16 bits per sample, a huge keyframe) is well under this.
    static let maxAllocationBytes = 512 << 20

    private static let ready: Void = {
        // FFmpeg logs to stderr from any thread, with no job context; every failure we care
        // about comes back as an error code that becomes a MediaError. Some decoders log
        // ordinary bad input at FATAL (mjpeg: "No JPEG data found"), so keep only PANIC,
        // the line FFmpeg prints just before aborting on an internal assertion.
        av_log_set_level(AV_LOG_PANIC)
        av_max_alloc(maxAllocationBytes)
        // Initialises the TLS library once, before threads race to do it on their first https open.
        avformat_network_init()
    }()

    /// Makes sure the one-time setup has run; cheap after the first call.
    static func prepare() { _ = ready }
}
