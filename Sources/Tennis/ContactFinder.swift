/// Contact from the detector's balls and rackets: the sampled frame where a ball is closest to a racket.
enum ContactFinder {
    /// The sample in `window` whose object frame has the closest ball–racket pair (centre to centre),
    /// if that pair is within `maxContactDistanceInRacketSizes` racket sizes (a ball further away
    /// is passing by, not being hit). Object frames match samples by time (within half a sampling
    /// interval). Ties go to the earlier frame.
    ///
    /// A closest approach is a minimum over time, so it needs the detector's eyes on (nearly) every
    /// sample of the window: with people followed by their landmarks the detector sees about one
    /// sample a second, and a ball held by the racket before a serve, on the one frame it saw, would
    /// pass for the hit. Below `SwingTuning.minObjectCoverage` of the window's samples, nil.
    static func contact(in window: ClosedRange<Int>, samples: [TrackKinematics.Sample], objects: [ObjectFrame],
                        interval: Double) -> Int? {
        guard let first = samples[safe: window.lowerBound], let last = samples[safe: window.upperBound] else { return nil }
        let tolerance = interval / 2
        let inWindow = objects.filter { $0.time >= first.time - tolerance && $0.time <= last.time + tolerance }
        let seen = window.filter { i in inWindow.contains { abs($0.time - samples[i].time) <= tolerance } }.count
        guard Double(seen) >= SwingTuning.minObjectCoverage * Double(window.count) else { return nil }
        var best: (distance: Double, sample: Int)?
        for frame in inWindow {
            guard let distance = closestPair(frame) else { continue }
            // The confident sample nearest this frame, if it is the same moment.
            guard let sample = window.min(by: { abs(samples[$0].time - frame.time) < abs(samples[$1].time - frame.time) }),
                  abs(samples[sample].time - frame.time) <= tolerance else { continue }
            if best.map({ distance < $0.distance || (distance == $0.distance && sample < $0.sample) }) ?? true {
                best = (distance, sample)
            }
        }
        return best?.sample
    }

    /// The smallest ball-to-racket centre distance in pixels among confident pairs within reach.
    static func closestPair(_ frame: ObjectFrame) -> Double? {
        var best: Double?
        for racket in frame.rackets where racket.confidence >= SwingTuning.minObjectConfidence && racket.isFinite {
            let size = max(racket.x2 - racket.x1, racket.y2 - racket.y1)
            guard size > 0 else { continue }
            for ball in frame.balls where ball.confidence >= SwingTuning.minObjectConfidence && ball.isFinite {
                let distance = ball.center.distance(to: racket.center)
                guard distance <= SwingTuning.maxContactDistanceInRacketSizes * size else { continue }
                best = min(best ?? distance, distance)
            }
        }
        return best
    }
}

extension Box {
    var center: PixelPoint { PixelPoint(x: (x1 + x2) / 2, y: (y1 + y2) / 2) }
    var isFinite: Bool { x1.isFinite && y1.isFinite && x2.isFinite && y2.isFinite && confidence.isFinite }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
