// How a swing is found (DOMAIN.md, "Tennis (seed 004)"):
//   TrackKinematics   confident frames only; landmarks smoothed in time; torso length (local median);
//                     the dominant wrist's speed in torso lengths per second (time-aware differences)
//   PeakFinder        speed peaks ≥ SwingTuning.peakThreshold, ≥ 0.6 s apart (the higher one wins)
//   SwingPhases       the window and keyframes around each peak
//   ContactFinder     contact from the racket–ball closest approach, when both are detected
//   SwingClassifier   serve / forehand / backhand from the body at contact
//   SwingMeasurer     seed 004 SegmentMetrics, confidence, reasons for what cannot be measured
//   SwingJSON         `result.swings[i]`

public enum SwingDetector {
    /// The `swings` stage for one player's track (frames in time order).
    public static func detect(track: [PoseFrame], objects: [ObjectFrame], options: TennisOptions) -> [SwingCandidate] {
        SwingCandidateFinder.find(track: track, objects: objects, options: options)
    }
}
