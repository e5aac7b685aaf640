import ReelworkCore

/// A serve's (or smash's) contact from the wrist alone: the sampled frame where the dominant wrist
/// is highest, near the speed peak, when it is above the head there.
///
/// A serve meets the ball at full reach, the wrist's highest point. Its image speed, though, often
/// peaks a few frames before (the arm rising straight up is all in the picture plane, the swing
/// over the top goes partly towards or away from the camera), so the peak alone puts contact early.
enum OverheadContact {
    /// The sample in `window`, within `SwingTuning.overheadReach` seconds of the peak, where the
    /// dominant wrist is highest, if it is above head level there (`SwingClassifier.headLevel`).
    static func contact(near peak: Int, in window: ClosedRange<Int>, samples: [TrackKinematics.Sample], hand: Hand) -> Int? {
        let wrist = BodyLandmark.side(hand).wrist
        let peakTime = samples[peak].time
        let near = window.filter { abs(samples[$0].time - peakTime) <= SwingTuning.overheadReach && samples[$0].segment == samples[peak].segment }
        guard let highest = near.min(by: { samples[$0].points[wrist].y < samples[$1].points[wrist].y }) else { return nil }
        let sample = samples[highest]
        let shoulderMid = sample.points[BodyLandmark.leftShoulder].midpoint(sample.points[BodyLandmark.rightShoulder])
        return sample.points[wrist].y < SwingClassifier.headLevel(sample, shoulderMid: shoulderMid) ? highest : nil
    }
}
