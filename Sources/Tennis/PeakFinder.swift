/// Wrist-speed peaks that can be swings.
enum PeakFinder {
    /// How far a sample's speed is over the threshold for the time it was differenced over
    /// (`SwingTuning.peakThreshold(span:)`): 1 at the threshold; nil without a speed.
    static func strength(_ sample: TrackKinematics.Sample) -> Double? {
        sample.speed.map { $0 / SwingTuning.peakThreshold(span: sample.span) }
    }

    /// Indices of samples whose strength is a local maximum within their segment, at least 1, and
    /// at least `minSeparation` seconds from any stronger peak (the stronger one wins; on equal
    /// strengths the earlier). In time order.
    static func peaks(in samples: [TrackKinematics.Sample], minSeparation: Double) -> [Int] {
        let strengths = samples.map(strength)
        var local: [Int] = []
        for (i, sample) in samples.enumerated() {
            guard let value = strengths[i], value >= 1 else { continue }
            // On a plateau only its last sample counts, so a flat top is one peak.
            let previous = i > 0 && samples[i - 1].segment == sample.segment ? strengths[i - 1] : nil
            let next = i + 1 < samples.count && samples[i + 1].segment == sample.segment ? strengths[i + 1] : nil
            if value >= (previous ?? 0), value > (next ?? 0) { local.append(i) }
        }
        let strongestFirst = local.sorted { a, b in
            let (sa, sb) = (strengths[a] ?? 0, strengths[b] ?? 0)
            return sa != sb ? sa > sb : a < b
        }
        var kept: [Int] = []
        for candidate in strongestFirst
        where kept.allSatisfy({ abs(samples[$0].time - samples[candidate].time) >= minSeparation }) {
            kept.append(candidate)
        }
        return kept.sorted()
    }

    /// The time of the wrist's fastest moment near sample `peak`, between samples. The peak was
    /// found on the smoothed speed, which lags the fastest moment where the stroke speeds up and
    /// slows down at different rates; so the fastest of the peak and its two neighbours by the
    /// unsmoothed speed is taken, and the time is the vertex of the parabola through its speed and
    /// its two neighbours' (same segment, each with a speed), kept within half a step of it. Where
    /// any speed this could use (the peak's and two samples either side) is differenced across a
    /// gap in the wrist (over `SwingTuning.referenceSpan`), unsmoothed speeds across the gap and
    /// beside it are not comparable, and the peak and its smoothed speed are used instead. The
    /// chosen sample's own time without the neighbours.
    static func refinedTime(of peak: Int, in samples: [TrackKinematics.Sample]) -> Double {
        func inSegment(_ i: Int) -> Bool { i >= 0 && i < samples.count && samples[i].segment == samples[peak].segment }
        let noGapNearby = (peak - 2...peak + 2).filter(inSegment).allSatisfy { samples[$0].span <= SwingTuning.referenceSpan }
        let speed: (TrackKinematics.Sample) -> Double? = noGapNearby ? { $0.unsmoothedSpeed } : { $0.speed }
        var fastest = peak
        for i in [peak - 1, peak + 1] where noGapNearby && inSegment(i) {
            if let s = speed(samples[i]), s > speed(samples[fastest]) ?? -.infinity { fastest = i }
        }
        let centre = samples[fastest]
        guard inSegment(fastest - 1), inSegment(fastest + 1), let s0 = speed(samples[fastest - 1]), let s1 = speed(centre),
            let s2 = speed(samples[fastest + 1])
        else { return centre.time }
        let (t0, t1, t2) = (samples[fastest - 1].time, centre.time, samples[fastest + 1].time)
        // Divided differences: s(t) = s0 + a (t − t0) + b (t − t0)(t − t1); its vertex where s' = 0.
        let a = (s1 - s0) / (t1 - t0), b = ((s2 - s1) / (t2 - t1) - a) / (t2 - t0)
        guard b < 0 else { return t1 }
        let vertex = (t0 + t1) / 2 - a / (2 * b)
        return min(max(vertex, t1 - (t1 - t0) / 2), t1 + (t2 - t1) / 2)
    }
}
