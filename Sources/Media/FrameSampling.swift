import ReelworkCore

/// Which decoded frames are handed on for analysis. Only these are converted to RGB. With `.fps`
/// the decoder may also leave out frames that no sample needs and no other frame depends on
/// (`FrameSkipPlanner`); the frames handed on are the same either way.
public enum FrameSampling: Sendable, Equatable {
    /// Every decoded frame.
    case everyFrame
    /// About `rate` frames per second of presentation time: the first frame at or after each
    /// multiple of 1/rate seconds (measured from the stream's start, from the frames' own
    /// timestamps, so variable frame rate video is sampled evenly in time). A video with fewer
    /// frames per second than `rate` has every frame sampled.
    case fps(Double)
    /// Frames 0, n, 2n, … in decoding-output (presentation) order.
    case everyNth(Int)

    /// How many frames this sampling is expected to pass on for a video of `frameCount` frames
    /// lasting `duration` seconds: exact for `everyFrame`/`everyNth`, an estimate for `fps` (used
    /// to report progress as frames done / frames planned).
    public func plannedFrames(frameCount: Int, duration: Double) -> Int {
        switch self {
        case .everyFrame:
            return frameCount
        case .everyNth(let n):
            return n > 0 ? (frameCount + n - 1) / n : frameCount
        case .fps(let rate):
            guard rate > 0, duration > 0 else { return frameCount }
            let byTime = Int(clampedRounding: duration * rate - 1e-6, .up)
            return frameCount > 0 ? min(frameCount, max(1, byTime)) : max(1, byTime)
        }
    }
}

/// Decides, frame by frame, whether a frame is due under a `FrameSampling`.
public struct FrameSampler {
    let sampling: FrameSampling
    /// For `.fps`: the index k of the next due time k / rate.
    private var nextSlot = 0
    /// Timestamps from containers are rationals turned into doubles; a frame that lands on a
    /// sampling instant must count as "at" it, not just before it.
    private static let tolerance = 1e-6

    public init(_ sampling: FrameSampling) { self.sampling = sampling }

    /// For `.fps`: the sampling instant k / rate at or before `time` (with the tolerance), as k. At
    /// most one frame per slot is due. Decisions compare these whole numbers, so `FrameSkipPlanner`
    /// can tell ahead, with the same arithmetic, that a frame is not due. Nil for the other
    /// samplings, which do not go by time.
    func slot(at time: Double) -> Int? {
        guard case .fps(let rate) = sampling, rate > 0 else { return nil }
        // The time comes from the file: past Int's range, the slot saturates.
        return Int(clampedRounding: (time + Self.tolerance) * rate, .down)
    }

    /// True when the frame at presentation `time` seconds, the `index`-th frame out of the
    /// decoder (0-based), is due. Call once per frame, in output order.
    public mutating func isDue(time: Double, index: Int) -> Bool {
        switch sampling {
        case .everyFrame:
            return true
        case .everyNth(let n):
            return n <= 1 || index % n == 0
        case .fps:
            guard let slot = slot(at: time) else { return true }
            guard slot >= nextSlot else { return false }
            // The next slot after this frame's; a gap in the video skips the slots it covers.
            nextSlot = slot.checkedAdding(1) ?? .max
            return true
        }
    }
}
