/// The square region of a frame the pose model sees: centred on a person's box, its side 1.25 ×
/// the box's larger side (tools/models/README.md's rule), or, for a person followed from the last
/// sample, around their alignment points (MediaPipe's rule). Not rounded; may reach outside the
/// frame, where the crop is black. Not rotated: MediaPipe turns the crop upright along the
/// alignment points, which matters for people lying or upside down, not for players on their feet.
public struct PoseCrop: Sendable, Equatable {
    public static let scale = 1.25

    public var left: Double
    public var top: Double
    public var side: Double

    public init(left: Double, top: Double, side: Double) {
        self.left = left
        self.top = top
        self.side = side
    }

    /// The crop around `box`; nil for an empty box.
    public init?(around box: BoundingBox) {
        let side = Self.scale * max(box.x2 - box.x1, box.y2 - box.y1)
        guard side > 0 else { return nil }
        let cx = (box.x1 + box.x2) / 2, cy = (box.y1 + box.y2) / 2
        self.init(left: cx - side / 2, top: cy - side / 2, side: side)
    }

    /// The crop for the next frame of a person whose last pose had `alignment`: centred on the hips'
    /// centre, its side 2 × the body's radius × 1.25 (MediaPipe's `pose_landmarks_to_roi`); nil for
    /// a degenerate alignment.
    public init?(following alignment: PoseAlignment) {
        let side = 2 * Self.scale * alignment.bodyRadius
        guard side.isFinite, side > 1, alignment.centreX.isFinite, alignment.centreY.isFinite else { return nil }
        self.init(left: alignment.centreX - side / 2, top: alignment.centreY - side / 2, side: side)
    }

    /// The crop's square as a box.
    public var box: BoundingBox { BoundingBox(x1: left, y1: top, x2: left + side, y2: top + side) }
}
