import ReelworkCore

/// A wrist fast only because the whole body travels: someone walking or jogging through the
/// picture, whose wrist speed (the arm's swing on top of the body's own speed) can pass the swing
/// threshold with no stroke at all.
///
/// A peak is travel when the hips keep moving around it (their median speed within
/// `SwingTuning.travelReach` seconds is at least `SwingTuning.travelShare` of the wrist's peak) and
/// the wrist, seen from the hips, is slow (below `SwingTuning.travelRelativeShare` of the swing
/// threshold). A stroke played on the run still moves the wrist fast around the body; a still
/// figure swept across the picture in one short move (the README's samples) has hips that are
/// still a quarter of a second either side, so it is not travel.
enum BodyTravel {
    static func isTravel(peak: Int, samples: [TrackKinematics.Sample], hand: Hand) -> Bool {
        guard let speed = samples[peak].speed, speed > 0 else { return false }
        let segment = samples[peak].segment, peakTime = samples[peak].time
        var hipSpeeds: [Double] = []
        var i = peak
        while i > 0, samples[i - 1].segment == segment, peakTime - samples[i - 1].time <= SwingTuning.travelReach { i -= 1 }
        while i < samples.count, samples[i].segment == segment, samples[i].time - peakTime <= SwingTuning.travelReach {
            if let v = TrackKinematics.velocity(at: i, samples: samples, of: hips) { hipSpeeds.append(v.length / samples[i].torso) }
            i += 1
        }
        guard let travel = Statistics.median(hipSpeeds), travel >= SwingTuning.travelShare * speed else { return false }
        let wrist = BodyLandmark.side(hand).wrist
        guard let relative = TrackKinematics.velocity(at: peak, samples: samples, of: { $0.points[wrist] - hips($0) }) else { return false }
        return relative.length / samples[peak].torso < SwingTuning.travelRelativeShare * SwingTuning.peakThreshold(span: samples[peak].span)
    }

    private static func hips(_ sample: TrackKinematics.Sample) -> PixelPoint {
        sample.points[BodyLandmark.leftHip].midpoint(sample.points[BodyLandmark.rightHip])
    }
}
