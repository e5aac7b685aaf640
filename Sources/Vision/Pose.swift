/// One body landmark in source-frame pixels.
public struct Landmark: Sendable, Equatable {
    public var x: Double
    public var y: Double
    /// Relative depth in the same units as x (about 0 at the hips; smaller is nearer the camera).
    public var z: Double
    /// How likely the point is visible (not hidden by the body or something else), 0…1.
    public var visibility: Double
    /// How likely the point is inside the frame, 0…1.
    public var presence: Double

    public init(x: Double, y: Double, z: Double, visibility: Double, presence: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}

/// BlazePose's 33 landmarks of the person in one crop.
public struct Pose: Sendable, Equatable {
    /// The landmark names, in the model's order ("left" is the person's left).
    public static let landmarkNames = [
        "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye",
        "right_eye_outer", "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder",
        "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_pinky",
        "right_pinky", "left_index", "right_index", "left_thumb", "right_thumb", "left_hip",
        "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle", "left_heel",
        "right_heel", "left_foot_index", "right_foot_index",
    ]
    public static let landmarkCount = 33

    /// The model's person-presence probability for the crop (MediaPipe treats < 0.5 as nobody).
    public var score: Double
    /// The crop the landmarks came from.
    public var crop: PoseCrop
    /// `landmarkCount` landmarks, in `landmarkNames` order.
    public var landmarks: [Landmark]
    /// Where to crop this person in the next frame; nil when the model gives no alignment points.
    public var alignment: PoseAlignment?

    public init(score: Double, crop: PoseCrop, landmarks: [Landmark], alignment: PoseAlignment? = nil) {
        self.score = score
        self.crop = crop
        self.landmarks = landmarks
        self.alignment = alignment
    }

    /// The box around the landmarks with finite coordinates: where the person is when no detector
    /// ran (their tracked box); nil when there are none.
    public var landmarkBox: BoundingBox? {
        let points = landmarks.filter { $0.x.isFinite && $0.y.isFinite }
        guard let first = points.first else { return nil }
        var box = BoundingBox(x1: first.x, y1: first.y, x2: first.x, y2: first.y)
        for p in points.dropFirst() {
            box.x1 = min(box.x1, p.x); box.y1 = min(box.y1, p.y)
            box.x2 = max(box.x2, p.x); box.y2 = max(box.y2, p.y)
        }
        return box
    }

    public func landmark(_ name: String) -> Landmark? {
        Self.landmarkNames.firstIndex(of: name).map { landmarks[$0] }
    }
}
