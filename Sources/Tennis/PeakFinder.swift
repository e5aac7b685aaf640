/// Wrist-speed peaks that can be swings.
enum PeakFinder {
    /// Indices of samples whose speed is a local maximum within their segment, at least
    /// `threshold`, and at least `minSeparation` seconds from any higher peak (the higher one wins;
    /// on equal speeds the earlier). In time order.
    static func peaks(in samples: [TrackKinematics.Sample], threshold: Double, minSeparation: Double) -> [Int] {
        var local: [Int] = []
        for (i, sample) in samples.enumerated() {
            guard let speed = sample.speed, speed >= threshold else { continue }
            // On a plateau only its last sample counts, so a flat top is one peak.
            let previous = i > 0 && samples[i - 1].segment == sample.segment ? samples[i - 1].speed : nil
            let next = i + 1 < samples.count && samples[i + 1].segment == sample.segment ? samples[i + 1].speed : nil
            if speed >= (previous ?? 0), speed > (next ?? 0) { local.append(i) }
        }
        let strongestFirst = local.sorted { a, b in
            let (sa, sb) = (samples[a].speed ?? 0, samples[b].speed ?? 0)
            return sa != sb ? sa > sb : a < b
        }
        var kept: [Int] = []
        for candidate in strongestFirst
        where kept.allSatisfy({ abs(samples[$0].time - samples[candidate].time) >= minSeparation }) {
            kept.append(candidate)
        }
        return kept.sorted()
    }
}
