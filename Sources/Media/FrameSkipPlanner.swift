/// Decides, packet by packet before it is decoded, whether its frame may be left out: when the
/// frames handed on are sampled by time (`FrameSampling.fps`), most frames are decoded only to be
/// counted, and a frame that no other frame refers to (a non-reference B-frame, typically) need not
/// be decoded at all. The decoder is then told to drop the packet's frame if nothing refers to it
/// (`StreamDecoder.send(_:droppingIfUnreferenced:)`); reference frames are decoded as always, so
/// every frame that is decoded comes out exactly as before.
///
/// A frame may be dropped only when no schedule can pick it. Every schedule (the sampler, the
/// quality samples) picks the first frame of each of its slots (`slot(at:)`), deciding by whole
/// slot numbers; frames come out in timestamp order. So a frame at time t is not due when an
/// earlier frame (timestamp < t) already sent falls in the same slot of every schedule: that
/// frame, or one after it, is the first of the slot. The test looks only at frames already sent,
/// so it holds whatever order the packets come in; when it cannot tell (no timestamp, no earlier
/// frame in the same slot), the frame is decoded.
///
/// Dropped frames still count: the planner keeps the timestamps of packets sent with the drop
/// allowed; a frame coming out removes its own, and any older timestamp still waiting belongs to a
/// frame that was dropped (frames come out in timestamp order), so frame numbers and the final
/// count are the same as with every frame decoded.
///
/// It stops dropping (for the rest of the stream) when what it relies on does not hold: a frame
/// comes out with a timestamp other than its packet's, or not after the previous frame's. On a
/// damaged stream the counts can still differ from decoding every frame: a reference frame whose
/// decoding fails after its packet was accepted is counted as dropped, and a frame beside a damaged
/// one may be dropped where, with every frame decoded, it would have replaced the damaged one as
/// a sample.
struct FrameSkipPlanner {
    /// Each schedule's slot for a time in seconds.
    private let slots: [(Double) -> Int?]
    /// Seconds from the stream's start for a timestamp (as the decoder computes it for frames).
    private let seconds: (Int64) -> Double
    /// Timestamps of recent packets, ascending: enough to find an earlier frame in the same slot.
    private var recent: [Int64] = []
    private static let recentLimit = 32
    /// Timestamps of packets sent with the drop allowed whose frame has not come out yet, ascending
    /// (a few at a time; an array keeps the per-frame work free of allocations).
    private var waiting: [Int64] = []
    private var lastOut: Int64?
    private(set) var enabled: Bool
    /// Frames the decoder dropped, known so far.
    private(set) var dropped = 0

    init(slots: [(Double) -> Int?], seconds: @escaping (Int64) -> Double, enabled: Bool) {
        self.slots = slots
        self.seconds = seconds
        self.enabled = enabled
    }

    /// Whether the frame in the packet with timestamp `pts` may be dropped; call once per packet, in
    /// the order they are sent.
    mutating func mayDrop(pts: Int64?) -> Bool {
        guard enabled, let pts else { return false }
        let index = recent.firstIndex { $0 >= pts } ?? recent.count
        let earlier = index > 0 ? recent[index - 1] : nil
        if index == recent.count || recent[index] != pts { recent.insert(pts, at: index) }
        if recent.count > Self.recentLimit { recent.removeFirst() }
        guard let earlier, sameSlots(earlier, pts) else { return false }
        waiting.insert(pts, at: waiting.firstIndex { $0 > pts } ?? waiting.count)
        return true
    }

    /// The packet with timestamp `pts` was refused by the decoder: it makes no frame, dropped or not.
    mutating func refused(pts: Int64?) {
        guard let pts else { return }
        waiting.removeAll { $0 == pts }
        recent.removeAll { $0 == pts }
    }

    /// A frame came out with timestamp `pts` (its packet's) and `timestamp` (the one it is sampled
    /// by). Returns how many dropped frames came before it, to be counted before it.
    mutating func frameOut(pts: Int64?, timestamp: Int64?) -> Int {
        if enabled, pts == nil || pts != timestamp || (lastOut.map { pts! <= $0 } ?? false) {
            enabled = false
        }
        guard let pts else { return 0 }
        lastOut = max(lastOut ?? pts, pts)
        let before = waiting.firstIndex { $0 >= pts } ?? waiting.count
        waiting.removeFirst(before)
        if waiting.first == pts { waiting.removeFirst() }
        dropped += before
        return before
    }

    /// At the end of the stream, after draining: every frame still waiting was dropped.
    mutating func finish() -> Int {
        let rest = waiting.count
        waiting.removeAll()
        dropped += rest
        return rest
    }

    private func sameSlots(_ a: Int64, _ b: Int64) -> Bool {
        let (ta, tb) = (seconds(a), seconds(b))
        return slots.allSatisfy { slot in
            guard let sa = slot(ta), let sb = slot(tb) else { return false }
            return sa == sb
        }
    }
}
