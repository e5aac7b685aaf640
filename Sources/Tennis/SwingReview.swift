import Foundation
import SportKit

/// Why a person should look at a swing (`result.swings[i].review`, each `{code, message}` as a
/// bowling shot's `flags`): what the detector saw too little of to be sure.
public typealias SwingReview = ReviewReason

extension SwingReview {
    /// The racket wrist is missing (no pose, or unsure) in some of the frames around contact, so
    /// contact may be off by the gap.
    static func landmarksMissing(seen: Int, of expected: Int) -> SwingReview {
        SwingReview(code: "landmarksMissingAtContact",
                    message: "the racket wrist is seen in \(seen) of the \(expected) frames around contact")
    }

    /// Another tracked person is within reach of the player around contact: the pose model may have
    /// mixed up their limbs, or the swing may be theirs.
    static func personNearby(trackId: Int) -> SwingReview {
        SwingReview(code: "personNearby", message: "another person (track \(trackId)) is next to the player around contact")
    }

    /// The clip (or the player's track) starts or ends so close to contact that part of the stroke is
    /// not in it: the swing may be cut, or a motion that only looks like one.
    static func atClipEdge(before: Double?, after: Double?) -> SwingReview {
        var parts: [String] = []
        if let before { parts.append(String(format: "the player is tracked from only %.2f s before contact", before)) }
        if let after { parts.append(String(format: "until only %.2f s after it", after)) }
        return SwingReview(code: "atClipEdge", message: parts.joined(separator: ", ") + ": part of the stroke is not in the clip")
    }

    /// The wrist's peak speed is close to the swing threshold: it may be a practice swing or a
    /// quick movement that is not a stroke.
    static func nearThreshold(speed: Double, threshold: Double) -> SwingReview {
        SwingReview(code: "nearSwingThreshold",
                    message: String(format: "the wrist's peak speed (%.1f torso lengths/s) is close to the swing threshold (%.1f)",
                                    speed, threshold))
    }
}
