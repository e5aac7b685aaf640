import ReelworkCore

/// The BlazePose landmark indices the tennis analysis reads. "Left"/"right" are the person's own sides.
enum BodyLandmark {
    static let count = 33
    static let nose = 0
    static let leftShoulder = 11, rightShoulder = 12
    static let leftElbow = 13, rightElbow = 14
    static let leftWrist = 15, rightWrist = 16
    static let leftHip = 23, rightHip = 24
    static let leftAnkle = 27, rightAnkle = 28

    /// A landmark is trusted at or above this visibility (BlazePose's own cut-off for drawing is 0.5).
    static let confidentVisibility = 0.5

    /// The landmarks of one side of the body.
    struct Side {
        let shoulder: Int, elbow: Int, wrist: Int, hip: Int, ankle: Int
    }

    static func side(_ hand: Hand) -> Side {
        switch hand {
        case .right: return Side(shoulder: rightShoulder, elbow: rightElbow, wrist: rightWrist, hip: rightHip, ankle: rightAnkle)
        case .left: return Side(shoulder: leftShoulder, elbow: leftElbow, wrist: leftWrist, hip: leftHip, ankle: leftAnkle)
        }
    }

    static func otherSide(_ hand: Hand) -> Side {
        side(hand == .right ? .left : .right)
    }

    /// What a frame needs for a wrist speed in torso lengths: the dominant wrist, both shoulders, both hips.
    static func required(for hand: Hand) -> [Int] {
        [side(hand).wrist, leftShoulder, rightShoulder, leftHip, rightHip]
    }
}
