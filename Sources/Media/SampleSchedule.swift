/// Decides which frames get a quality sample: the first frame, then the first frame at or
/// after each multiple of `interval` seconds. A non-positive interval samples every frame.
struct SampleSchedule {
    let interval: Double
    private var nextTime = -Double.infinity

    init(interval: Double) { self.interval = interval }

    /// True when the frame at `time` seconds should be sampled; advances the schedule.
    mutating func isDue(at time: Double) -> Bool {
        guard time >= nextTime else { return false }
        // Aligning to multiples of the interval (not "time + interval") keeps samples from
        // drifting later when frames do not land exactly on the interval.
        nextTime = interval > 0 ? ((time / interval).rounded(.down) + 1) * interval : -.infinity
        return true
    }
}
