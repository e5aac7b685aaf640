import CFFmpeg
import ReelworkCore

extension VideoFacts {
    /// The facts of video stream `index` of an open container.
    ///
    /// frameCount: the stream's nb_frames when declared, else round(duration × fps), marked as an
    /// estimate. durationSeconds: the container's duration, else the stream's. fps: avg_frame_rate,
    /// else r_frame_rate. rotation: clockwise degrees (0/90/180/270) from the display matrix.
    /// Every figure comes from the file: absurd ones are kept (clamped where they would not fit)
    /// for `InputLimits.check` to refuse, never trapped on. The size is the header's when the
    /// probing decoder refused the picture (`MediaGuards.maxPixels`).
    init(_ demuxer: Demuxer, streamIndex index: Int32) {
        let stream = demuxer.stream(index).pointee
        let size = demuxer.pictureSize(index)
        let duration = demuxer.declaredDuration ?? Self.seconds(stream.duration, stream.time_base) ?? 0
        let fps = Self.rate(stream.avg_frame_rate) ?? Self.rate(stream.r_frame_rate) ?? 0
        let declared = stream.nb_frames > 0
        let frames = declared ? Int(stream.nb_frames) : Int(clampedRounding: duration * fps)
        self.init(durationSeconds: duration, frameCount: frames, frameCountSource: declared ? .container : .estimate, fps: fps,
                  width: size.width, height: size.height,
                  codec: Demuxer.codecName(stream.codecpar),
                  rotation: Self.clockwiseRotation(demuxer.stream(index)),
                  container: demuxer.containerName)
    }

    private static func rate(_ rational: AVRational) -> Double? {
        rational.num > 0 && rational.den > 0 ? av_q2d(rational) : nil
    }

    private static func seconds(_ ticks: Int64, _ timeBase: AVRational) -> Double? {
        ticks != FFmpegStatus.noPTS && ticks > 0 ? Double(ticks) * av_q2d(timeBase) : nil
    }

    /// av_display_rotation_get gives the counterclockwise angle in [-180, 180]; players
    /// (ffmpeg's own autorotate included) turn the picture by its negation, clockwise.
    private static func clockwiseRotation(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size) else { return 0 }
        return clockwiseRotation(displayMatrix: data, size: size)
    }

    /// A display matrix of `size` bytes at `data` as clockwise degrees; 0 when it is too short or degenerate.
    static func clockwiseRotation(displayMatrix data: UnsafeMutablePointer<UInt8>, size: Int) -> Int {
        guard size >= 9 * MemoryLayout<Int32>.size else { return 0 }
        let counterclockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard counterclockwise.isFinite else { return 0 } // a degenerate matrix gives NaN
        // Snap to the nearest quarter turn and fold into 0..<360 (the angle is within ±180°).
        let quarter = Int(clampedRounding: -counterclockwise / 90) * 90
        return ((quarter % 360) + 360) % 360
    }
}
