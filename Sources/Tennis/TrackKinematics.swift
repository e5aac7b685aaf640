import ReelworkCore

/// One player's track prepared for swing analysis: the confident frames, their smoothed landmarks,
/// torso length, and the dominant wrist's speed in torso lengths per second.
///
/// Frames with an unsure dominant wrist are left out entirely: they neither get a speed nor lend
/// their (possibly wild) position to a neighbour's, so a tracking glitch cannot create a swing.
/// Within a kept frame, any other unsure landmark (a shoulder or hip hidden by someone walking in
/// front, by the net, by the frame's edge) is carried over from its confident neighbours rather than
/// smoothed in, and the torso length comes from the frames whose shoulders and hips were all seen:
/// the wrist's speed needs only the wrist, so a swing is not lost because a hip was. Speeds are only
/// taken between confident frames of one `segment` (no gap longer than `SwingTuning.maxGap`).
struct TrackKinematics {
    struct Sample {
        var time: Double
        /// Which run of closely spaced confident frames this sample belongs to.
        var segment: Int
        /// All 33 landmarks, smoothed in time (within the segment).
        var points: [PixelPoint]
        var visibility: [Double]
        /// Torso length in pixels: the local median (see `SwingTuning.torsoMedianRadius`).
        var torso: Double
        /// The dominant wrist's speed, torso lengths per second; nil in a one-frame segment.
        var speed: Double?
        /// Seconds between the two frames `speed` was differenced over: two sampling intervals,
        /// or more where unsure or missing frames lie between them (`SwingTuning.peakThreshold(span:)`).
        var span: Double = 0
        /// The dominant wrist's speed as `speed`, but from its positions as the pose gave them, not
        /// smoothed: the smoothing that steadies `speed` for finding swings also moves a peak whose
        /// rise and fall differ, so the contact's time is read from this one (`PeakFinder.refinedTime`).
        var unsmoothedSpeed: Double?
    }

    let hand: Hand
    /// Confident frames, in time order.
    let samples: [Sample]
    /// Times of every usable frame of the track, confident or not (for tracking quality).
    let frameTimes: [Double]
    /// The track's usual sampling interval (median time step), seconds.
    let interval: Double

    /// `within`: only confident frames in this time range become samples (a swing's metrics need
    /// only its window plus `margin(around:)`); sampling interval and frame times still come from
    /// the whole track, so every sample inside the range is the same as without it.
    init(track: [PoseFrame], hand: Hand, within range: ClosedRange<Double>? = nil) {
        self.hand = hand
        // Usable frames: finite, increasing times and all 33 landmarks.
        var frames: [PoseFrame] = []
        for frame in track where frame.time.isFinite && frame.landmarks.count >= BodyLandmark.count {
            if let last = frames.last, frame.time <= last.time { continue }
            frames.append(frame)
        }
        frameTimes = frames.map(\.time)
        interval = Statistics.median(zip(frameTimes.dropFirst(), frameTimes).map { $0 - $1 }) ?? 0.1

        let wrist = BodyLandmark.side(hand).wrist
        let confident = frames.filter { frame in
            (range?.contains(frame.time) ?? true) && Self.isConfident(frame.landmarks[wrist])
        }
        samples = Self.prepare(confident, hand: hand, maxGap: max(SwingTuning.maxGap, 2.5 * interval))
    }

    private static func prepare(_ frames: [PoseFrame], hand: Hand, maxGap: Double) -> [Sample] {
        guard !frames.isEmpty else { return [] }
        let times = frames.map(\.time)
        // Segments: runs of frames with no gap above maxGap.
        var segments: [Range<Int>] = []
        var start = 0
        for i in 1..<max(1, frames.count) where times[i] - times[i - 1] > maxGap {
            segments.append(start..<i)
            start = i
        }
        segments.append(start..<frames.count)

        // Smooth every landmark within its segment over its confident frames (non-finite
        // coordinates of landmarks the analysis may not need are replaced by 0 so they cannot
        // poison the sums).
        var points = Array(repeating: [PixelPoint](), count: frames.count)
        for index in 0..<BodyLandmark.count {
            let raw = frames.map { f -> PixelPoint in
                let p = PixelPoint(x: f.landmarks[index].x, y: f.landmarks[index].y)
                return p.isFinite ? p : .zero
            }
            let trusted = frames.map { isConfident($0.landmarks[index]) }
            for range in segments {
                let smoothed = TimeSmoothing.smooth(raw, times: times, range: range, sigma: SwingTuning.smoothingSigma, trusted: trusted)
                for (offset, p) in smoothed.enumerated() { points[range.lowerBound + offset].append(p) }
            }
        }

        // Torso length per frame, then its local median over the frames whose shoulders and hips
        // were all seen (over every frame near one where none were).
        let torsoLandmarks = [BodyLandmark.leftShoulder, BodyLandmark.rightShoulder, BodyLandmark.leftHip, BodyLandmark.rightHip]
        let rawTorso = points.map { p in
            p[BodyLandmark.leftShoulder].midpoint(p[BodyLandmark.rightShoulder])
                .distance(to: p[BodyLandmark.leftHip].midpoint(p[BodyLandmark.rightHip]))
        }
        let torsoSeen = frames.map { f in torsoLandmarks.allSatisfy { isConfident(f.landmarks[$0]) } }
        var torso: [Double] = []
        var lo = 0, hi = 0
        for i in frames.indices {
            while times[i] - times[lo] > SwingTuning.torsoMedianRadius { lo += 1 }
            while hi < frames.count, times[hi] - times[i] <= SwingTuning.torsoMedianRadius { hi += 1 }
            let seen = (lo..<hi).filter { torsoSeen[$0] }.map { rawTorso[$0] }
            torso.append(Statistics.median(seen.isEmpty ? Array(rawTorso[lo..<hi]) : seen) ?? 0)
        }

        var samples: [Sample] = []
        let wrist = BodyLandmark.side(hand).wrist
        for (segment, range) in segments.enumerated() {
            for i in range {
                // Central difference inside the segment, one-sided at its ends.
                let before = i > range.lowerBound ? i - 1 : i
                let after = i + 1 < range.upperBound ? i + 1 : i
                var speed: Double?, unsmoothedSpeed: Double?
                let span = times[after] - times[before]
                if after > before, torso[i] > 1 {
                    speed = points[after][wrist].distance(to: points[before][wrist]) / span / torso[i]
                    // Every sample's wrist is confident, hence finite.
                    let (from, to) = (frames[before].landmarks[wrist], frames[after].landmarks[wrist])
                    unsmoothedSpeed = PixelPoint(x: to.x - from.x, y: to.y - from.y).length / span / torso[i]
                }
                samples.append(
                    Sample(
                        time: times[i], segment: segment, points: points[i],
                        visibility: frames[i].landmarks.map(\.visibility), torso: torso[i], speed: speed, span: span,
                        unsmoothedSpeed: unsmoothedSpeed))
            }
        }
        return samples
    }

    /// Pixels per second of `point` across sample `index` (a central difference within its
    /// segment, one-sided at the segment's ends); nil without a neighbour or a measured torso.
    static func velocity(at index: Int, samples: [Sample], of point: (Sample) -> PixelPoint) -> PixelPoint? {
        let segment = samples[index].segment
        let before = index > 0 && samples[index - 1].segment == segment ? index - 1 : index
        let after = index + 1 < samples.count && samples[index + 1].segment == segment ? index + 1 : index
        guard after > before, samples[index].torso > 1 else { return nil }
        return (point(samples[after]) - point(samples[before])) * (1 / (samples[after].time - samples[before].time))
    }

    /// A landmark the analysis may trust: confident and finite.
    static func isConfident(_ l: Landmark) -> Bool {
        l.visibility >= BodyLandmark.confidentVisibility && l.x.isFinite && l.y.isFinite
    }

    /// The time range around `window` whose frames decide every sample inside it: the torso median's
    /// reach plus the smoothing's, plus one sampling step for the speed's neighbours.
    static func margin(around window: ClosedRange<Double>) -> ClosedRange<Double> {
        let reach = SwingTuning.torsoMedianRadius + 3 * SwingTuning.smoothingSigma + SwingTuning.maxGap + 1
        return (window.lowerBound - reach)...(window.upperBound + reach)
    }

    /// The sample nearest in time to `time` (the earlier one on a tie); nil when there are none.
    func nearestSample(to time: Double) -> Int? {
        guard !samples.isEmpty else { return nil }
        var lo = 0, hi = samples.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if samples[mid].time < time { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0, time - samples[lo - 1].time <= samples[lo].time - time { return lo - 1 }
        return lo
    }
}

extension PixelPoint {
    func distance(to other: PixelPoint) -> Double { (self - other).length }
}
