import Foundation
import ReelworkCore

/// The `metrics` stage for one swing: seed 004's `SegmentMetrics` from the smoothed track.
/// A metric that cannot be measured is nil, with the reason in `unavailable`. The body at contact
/// (shoulder turn, contact height, the follow-through's start) is the sampled frame nearest the
/// contact's time, which may itself lie between frames (`SwingPhases.keyFrameTimes(in:)`).
enum SwingMeasurer {
    /// Times within this of a window edge count as inside (they are the same sampled frame).
    private static let timeTolerance = 1e-6

    static func measure(_ candidate: SwingCandidate, track: [PoseFrame], options: TennisOptions) -> Swing {
        let finite = candidate.startTime.isFinite && candidate.endTime.isFinite
        let relevant = finite ? TrackKinematics.margin(around: candidate.startTime...max(candidate.startTime, candidate.endTime)) : nil
        let kinematics = TrackKinematics(track: track, hand: options.dominantHand, within: relevant)
        let samples = kinematics.samples
        let start = candidate.startTime - timeTolerance, end = candidate.endTime + timeTolerance
        let inWindow = samples.indices.filter { samples[$0].time >= start && samples[$0].time <= end }
        // Frames the whole measurement could use: racket wrist, shoulders and hips all seen.
        let required = BodyLandmark.required(for: options.dominantHand)
        let seen = inWindow.filter { i in required.allSatisfy { samples[i].visibility[$0] >= BodyLandmark.confidentVisibility } }
        let quality = trackingQuality(confident: seen.count, kinematics: kinematics, from: start, to: end)
        let unit: SpeedUnit = options.playerHeight == nil ? .torsoLengthsPerSecond : .metresPerSecond
        var metrics = SwingMetrics(peakWristSpeed: nil, peakWristSpeedUnit: unit, shoulderTurn: nil, contactHeight: nil,
                                   followThrough: nil, trackingQuality: quality)
        var unavailable: [String: String] = [:]

        let keyframes = candidate.keyFrameTimes
        guard let first = inWindow.first, let last = inWindow.last,
              let backswing = nearest(keyframes.backswing, in: first...last, samples),
              let contact = nearest(keyframes.contact, in: first...last, samples) else {
            let reason = "the player is not tracked confidently during the swing"
            for name in ["peakWristSpeed", "shoulderTurn", "contactHeight", "followThrough"] { unavailable[name] = reason }
            return swing(candidate, metrics: metrics, unavailable: unavailable, confidence: 0)
        }

        if let peak = inWindow.compactMap({ samples[$0].speed }).max() {
            metrics.peakWristSpeed = options.playerHeight.map { peak * SwingTuning.torsoShareOfHeight * $0 } ?? peak
        } else {
            unavailable["peakWristSpeed"] = "the wrist is tracked in too few consecutive frames to measure its speed"
        }

        if backswing == contact {
            unavailable["shoulderTurn"] = "backswing and contact fall on the same sampled frame; sample more frames per second"
        } else {
            metrics.shoulderTurn = Angles.between(shoulderLine(samples[backswing]), shoulderLine(samples[contact]))
        }

        switch contactHeight(samples[contact], hand: options.dominantHand) {
        case .success(let height): metrics.contactHeight = height
        case .failure(let reason): unavailable["contactHeight"] = reason.message
        }

        if contact < last {
            metrics.followThrough = arcAroundShoulder(samples: Array(samples[contact...last]), hand: options.dominantHand)
        } else {
            unavailable["followThrough"] = "no tracked frames after contact"
        }

        let (review, missing) = reasons(candidate, kinematics: kinematics)
        var measured = swing(candidate, metrics: metrics, unavailable: unavailable,
                             confidence: SwingConfidence.value(missingAtContact: missing, review: review))
        measured.review = review
        measured.missingAtContact = missing
        return measured
    }

    /// What a person should look at (`SwingReview`): the racket wrist missing in two or more frames
    /// around contact, the clip's edge close to contact, a peak speed close to the threshold; and
    /// how many frames around contact lack the racket wrist.
    static func reasons(_ candidate: SwingCandidate, kinematics: TrackKinematics) -> (review: [SwingReview], missing: Int) {
        var review: [SwingReview] = [], missing = 0
        let contact = candidate.keyFrameTimes.contact, interval = kinematics.interval
        if let first = kinematics.frameTimes.first, let last = kinematics.frameTimes.last, interval > 0 {
            // The frames two sampling intervals either side of contact that lie within the track.
            let reach = SwingTuning.reviewContactFrames
            let expected = (-reach...reach).filter { k in
                let t = contact + Double(k) * interval
                return t >= first - interval / 2 && t <= last + interval / 2
            }.count
            let seen = kinematics.samples.filter { abs($0.time - contact) <= (Double(reach) + 0.5) * interval }.count
            missing = max(0, expected - seen)
            if missing >= 2 { review.append(.landmarksMissing(seen: seen, of: expected)) }
            let before = contact - first, after = last - contact
            if before < SwingTuning.reviewEdgeBefore || after < SwingTuning.reviewEdgeAfter {
                review.append(.atClipEdge(before: before < SwingTuning.reviewEdgeBefore ? before : nil,
                                          after: after < SwingTuning.reviewEdgeAfter ? after : nil))
            }
        }
        if candidate.peakSpeed < SwingTuning.reviewNearThreshold * candidate.peakThreshold {
            review.append(.nearThreshold(speed: candidate.peakSpeed, threshold: candidate.peakThreshold))
        }
        return (review, missing)
    }

    /// Confident frames ÷ the frames the window should hold: the track's frames in it, or the
    /// window's length in sampling intervals when the person was not found in some frames at all.
    static func trackingQuality(confident: Int, kinematics: TrackKinematics, from start: Double, to end: Double) -> Double {
        let framesInWindow = kinematics.frameTimes.filter { $0 >= start && $0 <= end }.count
        // Times come from the video's timestamps: clamp, so an absurd gap cannot trap.
        let byDuration = kinematics.interval > 0 ? Int(clampedRounding: (end - start) / kinematics.interval).checkedAdding(1) ?? .max : 0
        let expected = max(framesInWindow, byDuration, 1)
        return min(1, Double(confident) / Double(expected))
    }

    private static func nearest(_ time: Double, in window: ClosedRange<Int>, _ samples: [TrackKinematics.Sample]) -> Int? {
        window.min { abs(samples[$0].time - time) < abs(samples[$1].time - time) }
    }

    /// The person's own left shoulder to their right shoulder.
    static func shoulderLine(_ sample: TrackKinematics.Sample) -> PixelPoint {
        sample.points[BodyLandmark.rightShoulder] - sample.points[BodyLandmark.leftShoulder]
    }

    struct Unmeasurable: Error { let message: String }

    /// (ground − wrist) / (ground − top of head), in image y. Ground: the lower confident ankle.
    /// Top of head: as far above the nose as the nose is above the shoulder midpoint (Drillis &
    /// Contini: shoulders 0.818 H, nose ≈ 0.91 H, vertex 1.0 H); without a confident nose, 0.63
    /// torso lengths above the shoulder midpoint (0.182 H / 0.288 H). Above 1 when the wrist is
    /// above the head (a serve).
    static func contactHeight(_ sample: TrackKinematics.Sample, hand: Hand) -> Result<Double, Unmeasurable> {
        let ankles = [BodyLandmark.leftAnkle, BodyLandmark.rightAnkle].filter { sample.visibility[$0] >= BodyLandmark.confidentVisibility }
        guard let ground = ankles.map({ sample.points[$0].y }).max() else {
            return .failure(Unmeasurable(message: "the ankles are not visible at contact"))
        }
        let shoulderMid = sample.points[BodyLandmark.leftShoulder].midpoint(sample.points[BodyLandmark.rightShoulder])
        let top: Double
        if sample.visibility[BodyLandmark.nose] >= BodyLandmark.confidentVisibility {
            let nose = sample.points[BodyLandmark.nose].y
            top = nose - (shoulderMid.y - nose)
        } else {
            top = shoulderMid.y - 0.63 * sample.torso
        }
        let height = ground - top
        guard height > 0 else { return .failure(Unmeasurable(message: "the body's height cannot be measured at contact")) }
        return .success((ground - sample.points[BodyLandmark.side(hand).wrist].y) / height)
    }

    /// The net angle the shoulder→wrist vector sweeps over `samples`, summing frame-to-frame changes
    /// (each wrapped to ±180°) so a sweep beyond 180° counts fully and jitter back and forth cancels.
    static func arcAroundShoulder(samples: [TrackKinematics.Sample], hand: Hand) -> Double {
        let side = BodyLandmark.side(hand)
        let angles = samples.map { ($0.points[side.wrist] - $0.points[side.shoulder]).angleDegrees }
        return abs(zip(angles.dropFirst(), angles).map { Angles.wrapped($0 - $1) }.reduce(0, +))
    }

    private static func swing(_ candidate: SwingCandidate, metrics: SwingMetrics, unavailable: [String: String],
                              confidence: Double) -> Swing {
        Swing(type: candidate.type, startTime: candidate.startTime, endTime: candidate.endTime,
              confidence: min(1, max(0, confidence)), keyFrameTimes: candidate.keyFrameTimes,
              contactSource: candidate.contactSource, metrics: metrics, unavailable: unavailable)
    }
}
