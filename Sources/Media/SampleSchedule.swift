import ReelworkCore

/// Decides which frames get a quality sample: the first frame, then the first frame at or
/// after each multiple of `interval` seconds. A non-positive interval samples every frame.
struct SampleSchedule {
    let interval: Double
    /// The index k of the next due time k × interval.
    private var nextSlot = Int.min

    init(interval: Double) { self.interval = interval }

    /// The multiple of `interval` at or before `time`: the schedule picks at most one frame per slot.
    /// Decisions compare these whole numbers, so `FrameSkipPlanner` can tell ahead, with the same
    /// arithmetic, that a frame is not due. Nil when every frame is due.
    func slot(at time: Double) -> Int? {
        // Aligning to multiples of the interval (not "time + interval") keeps samples from
        // drifting later when frames do not land exactly on the interval.
        interval > 0 ? Int(clampedRounding: time / interval, .down) : nil
    }

    /// True when the frame at `time` seconds should be sampled; advances the schedule.
    mutating func isDue(at time: Double) -> Bool {
        guard let slot = slot(at: time) else { return true }
        guard slot >= nextSlot else { return false }
        nextSlot = slot.checkedAdding(1) ?? .max
        return true
    }
}
