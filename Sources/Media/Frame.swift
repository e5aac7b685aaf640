import CFFmpeg

/// One decoded picture (AVFrame), reused for every frame. Freed in deinit.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws {
        guard let frame = av_frame_alloc() else { throw MediaError.outOfMemory("a frame") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The frame's timestamp in stream time-base units: FFmpeg's best guess, else the pts.
    var timestamp: Int64? {
        let best = pointer.pointee.best_effort_timestamp
        if best != FFmpegStatus.noPTS { return best }
        let pts = pointer.pointee.pts
        return pts != FFmpegStatus.noPTS ? pts : nil
    }

    /// The pts of the packet the frame came from, as the decoder passed it on; nil when it had none.
    var packetTimestamp: Int64? {
        let pts = pointer.pointee.pts
        return pts != FFmpegStatus.noPTS ? pts : nil
    }
}
