/// Who else is next to the player at a moment: a person walking past close by can lend the player
/// a limb in the pose model's eyes (`BorrowedLandmarks`), hide the racket arm, or be the one who
/// moved. A swing they are near is one a person should look at.
enum NearbyPeople {
    /// The first other track whose hip midpoint comes within `SwingTuning.reviewNearbyTorsos` of
    /// the player's torso lengths of the player's hip midpoint, in a frame within
    /// `SwingTuning.reviewNearbyReach` seconds of `time` that both were seen in.
    static func near(_ track: [PoseFrame], at time: Double, others: [(id: Int, track: [PoseFrame])]) -> Int? {
        let reach = SwingTuning.reviewNearbyReach
        var player: [Double: (hips: PixelPoint, torso: Double)] = [:]
        for frame in track where abs(frame.time - time) <= reach && frame.landmarks.count >= BodyLandmark.count {
            guard let torso = BorrowedLandmarks.torsoLength(frame.landmarks) else { continue }
            player[frame.time] = (hips(frame.landmarks), torso)
        }
        guard !player.isEmpty else { return nil }
        for other in others {
            for frame in other.track where frame.landmarks.count >= BodyLandmark.count {
                guard let mine = player[frame.time] else { continue }
                if hips(frame.landmarks).distance(to: mine.hips) <= SwingTuning.reviewNearbyTorsos * mine.torso { return other.id }
            }
        }
        return nil
    }

    private static func hips(_ l: [Landmark]) -> PixelPoint {
        BorrowedLandmarks.midpoint(l, BodyLandmark.leftHip, BodyLandmark.rightHip)
    }
}
