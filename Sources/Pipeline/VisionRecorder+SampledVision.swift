import SportKit
import Vision

extension VisionRecorder {
    /// What was recorded, as the sports read it: landmarks back from their stored tenths of a
    /// pixel and thousandths of visibility, tracks in id order.
    func sampledVision() -> SampledVision {
        SampledVision(
            classNames: classes,
            frames: frames.map { SampledVision.Frame(time: $0.time, boxes: Self.boxes($0)) },
            tracks: tracks.keys.sorted().map { id in
                SampledVision.Track(id: id, poses: tracks[id]!.map { frame in
                    SampledVision.PoseSample(time: frame.time, landmarks: stride(from: 0, to: frame.values.count - 2, by: 3).map { i in
                        SampledVision.Landmark(x: Double(frame.values[i]) / 10, y: Double(frame.values[i + 1]) / 10,
                                               visibility: Double(frame.values[i + 2]) / 1000)
                    })
                })
            })
    }

    /// The boxes of the frame recorded last, as a sport's every-frame consumer gets them.
    func lastFrameDetections() -> FrameDetections? {
        frames.last.map { FrameDetections(boxes: Self.boxes($0), classNames: classes) }
    }

    private static func boxes(_ frame: FrameBoxes) -> [SampledVision.Box] {
        frame.boxes.map { d in
            SampledVision.Box(classId: d.classId, confidence: d.confidence, x1: d.box.x1, y1: d.box.y1, x2: d.box.x2, y2: d.box.y2)
        }
    }
}
