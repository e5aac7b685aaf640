import ReelworkCore

/// Where two people overlap in the picture, the pose model, run on each person's box, can give one
/// of them the other's arm: the two tracks then hold the same wrist, to the pixel, and the borrowed
/// wrist jumps to the other person and back, which reads as a swing. A racket wrist that coincides
/// with a wrist or elbow of anyone else in the same frame is therefore not trusted there.
enum BorrowedLandmarks {
    /// The landmarks of another person the racket wrist is compared with.
    static let others = [BodyLandmark.leftWrist, BodyLandmark.rightWrist, BodyLandmark.leftElbow, BodyLandmark.rightElbow]

    /// `track` with the racket wrist's visibility set to 0 in each frame where it lies within
    /// `SwingTuning.borrowedLimbDistance` torso lengths of a confident wrist or elbow of another
    /// track at the same time. Frames without a measurable torso are left as they are.
    static func distrusted(_ track: [PoseFrame], among tracks: [[PoseFrame]], hand: Hand) -> [PoseFrame] {
        guard !tracks.isEmpty else { return track }
        var byTime: [Double: [[Landmark]]] = [:]
        for other in tracks {
            for frame in other where frame.landmarks.count >= BodyLandmark.count { byTime[frame.time, default: []].append(frame.landmarks) }
        }
        let wrist = BodyLandmark.side(hand).wrist
        return track.map { frame in
            guard frame.landmarks.count >= BodyLandmark.count, let people = byTime[frame.time],
                  let torso = torsoLength(frame.landmarks) else { return frame }
            let w = frame.landmarks[wrist]
            let limit = SwingTuning.borrowedLimbDistance * torso
            let borrowed = people.contains { landmarks in
                others.contains { i in
                    let o = landmarks[i]
                    return o.visibility >= BodyLandmark.confidentVisibility && PixelPoint(x: o.x, y: o.y).distance(to: PixelPoint(x: w.x, y: w.y)) <= limit
                }
            }
            guard borrowed else { return frame }
            var landmarks = frame.landmarks
            landmarks[wrist].visibility = 0
            return PoseFrame(time: frame.time, landmarks: landmarks)
        }
    }

    /// Shoulder midpoint to hip midpoint in pixels, from this frame's raw landmarks (nil when not finite or zero).
    static func torsoLength(_ l: [Landmark]) -> Double? {
        let length = midpoint(l, BodyLandmark.leftShoulder, BodyLandmark.rightShoulder)
            .distance(to: midpoint(l, BodyLandmark.leftHip, BodyLandmark.rightHip))
        return length.isFinite && length > 0 ? length : nil
    }

    /// The point halfway between landmarks `a` and `b`.
    static func midpoint(_ l: [Landmark], _ a: Int, _ b: Int) -> PixelPoint {
        PixelPoint(x: (l[a].x + l[b].x) / 2, y: (l[a].y + l[b].y) / 2)
    }
}
