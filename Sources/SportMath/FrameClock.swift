/// A decoded frame's time as a tracker uses it: the decoder's timestamp while timestamps run
/// forward, and frame index / frame rate from the first one that goes backwards or is not finite
/// (a damaged file; seed 003 "Frame Timestamp Errors") to the end, so that a path never mixes two
/// clocks. Equal timestamps (a duplicated frame) are not "backwards".
public struct FrameClock: Sendable {
    public let frameRate: Double
    private var lastTime = -Double.infinity
    /// Timestamps went wrong once: every time since is frame index / frame rate.
    public private(set) var countsFrames = false

    public init(frameRate: Double) {
        self.frameRate = frameRate
    }

    /// Frame `index`'s time on the frame-count clock.
    public func time(ofFrame index: Int) -> Double {
        Double(index) / frameRate
    }

    /// The time to use for this frame. On the frame where the clock changes, `retime` is handed the
    /// frame-count clock, to re-time the points already held.
    public mutating func time(_ time: Double, frameIndex: Int, retime: ((Int) -> Double) -> Void) -> Double {
        if !countsFrames, !(time.isFinite && time >= lastTime) {
            countsFrames = true
            let rate = frameRate
            retime { Double($0) / rate }
        }
        let corrected = countsFrames ? self.time(ofFrame: frameIndex) : time
        lastTime = corrected
        return corrected
    }
}
