import CFFmpeg
import ReelworkCore

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

    /// Clockwise degrees (0, 90, 180, 270) the picture's own display matrix turns it (a JPEG's
    /// EXIF orientation); 0 without one.
    var clockwiseRotation: Int {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_DISPLAYMATRIX) else { return 0 }
        return VideoFacts.clockwiseRotation(displayMatrix: side.pointee.data, size: Int(side.pointee.size))
    }

    /// The pts of the packet the frame came from, as the decoder passed it on; nil when it had none.
    var packetTimestamp: Int64? {
        let pts = pointer.pointee.pts
        return pts != FFmpegStatus.noPTS ? pts : nil
    }
}
