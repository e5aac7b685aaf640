/// The detector's boxes on one decoded frame it looked at, handed to a sport's every-frame
/// consumer together with that frame (`FrameConsumer.consume`), so a tracker can weigh them with
/// what it sees in the pixels (basketball's ball: colour, motion and the sports-ball class).
/// Only the classes the run keeps (`SampledVision.classNames`); pixels in the displayed frame.
public struct FrameDetections: Sendable {
    public var boxes: [SampledVision.Box]
    /// The detector's class names by id; nil: a custom detector whose classes are unknown.
    public var classNames: [Int: String]?

    public init(boxes: [SampledVision.Box], classNames: [Int: String]?) {
        (self.boxes, self.classNames) = (boxes, classNames)
    }

    /// The boxes of the class called `name` (COCO's "sports ball"); none with unnamed classes.
    public func boxes(named name: String) -> [SampledVision.Box] {
        guard let classNames else { return [] }
        return boxes.filter { classNames[$0.classId] == name }
    }
}
