/// The square region of a frame the pose model sees: centred on a person's box, its side 1.25 ×
/// the box's larger side (tools/models/README.md's rule). Not rounded; may reach outside the frame,
/// where the crop is black.
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
}
