import ReelworkCore

/// Forehand, backhand or serve, from the body at contact.
///
/// - serve: the dominant wrist is above the nose (smaller y) at contact; an overhead smash counts too.
/// - forehand: otherwise, when the wrist is on the dominant side of the shoulder midline, i.e.
///   beyond the midpoint in the direction from the other shoulder to the dominant shoulder. Using
///   the shoulders' order in x makes this right whether the player faces the camera or turns their
///   back to it.
/// - backhand: on the other side.
///
/// A side-on player's shoulders overlap in x at contact; then the hips' order decides (they turn
/// less), and if they overlap too, the shoulders' usual order over the window.
enum SwingClassifier {
    /// Shoulders (or hips) closer than this share of the torso in x give no reliable order.
    static let minSeparation = 0.15

    static func classify(contact: Int, window: ClosedRange<Int>, samples: [TrackKinematics.Sample], hand: Hand) -> SwingType {
        let sample = samples[contact]
        let dominant = BodyLandmark.side(hand), other = BodyLandmark.otherSide(hand)
        let wrist = sample.points[dominant.wrist]
        let shoulderMid = sample.points[dominant.shoulder].midpoint(sample.points[other.shoulder])
        if wrist.y < headLevel(sample, shoulderMid: shoulderMid) { return .serve }

        let dominantDirection = sideDirection(contact: sample, window: window, samples: samples, hand: hand)
        return (wrist.x - shoulderMid.x) * dominantDirection >= 0 ? .forehand : .backhand
    }

    /// The nose's height, or where it would be when the nose is unsure: 0.4 torso lengths above the
    /// shoulder midpoint (nose ≈ 0.91 H, shoulders 0.818 H, torso 0.288 H).
    static func headLevel(_ sample: TrackKinematics.Sample, shoulderMid: PixelPoint) -> Double {
        if sample.visibility[BodyLandmark.nose] >= BodyLandmark.confidentVisibility { return sample.points[BodyLandmark.nose].y }
        return shoulderMid.y - 0.4 * sample.torso
    }

    /// +1 when the dominant side is towards larger x in the image, −1 when towards smaller x.
    static func sideDirection(contact sample: TrackKinematics.Sample, window: ClosedRange<Int>,
                              samples: [TrackKinematics.Sample], hand: Hand) -> Double {
        let dominant = BodyLandmark.side(hand), other = BodyLandmark.otherSide(hand)
        let minimum = minSeparation * sample.torso
        let shoulders = sample.points[dominant.shoulder].x - sample.points[other.shoulder].x
        if abs(shoulders) >= minimum { return shoulders > 0 ? 1 : -1 }
        let hips = sample.points[dominant.hip].x - sample.points[other.hip].x
        if abs(hips) >= minimum { return hips > 0 ? 1 : -1 }
        let usual = Statistics.median(window.map { samples[$0].points[dominant.shoulder].x - samples[$0].points[other.shoulder].x }) ?? 0
        return usual < 0 ? -1 : 1
    }
}
