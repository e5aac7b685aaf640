import SportKit
import Vision

extension VisionRecorder {
    /// What was recorded, as the sports read it: landmarks back from their stored tenths of a
    /// pixel and thousandths of visibility, tracks in id order.
    func sampledVision() -> SampledVision {
        SampledVision(
            classNames: classes,
            frames: frames.map { frame in
                SampledVision.Frame(time: frame.time, boxes: frame.boxes.map { d in
                    SampledVision.Box(classId: d.classId, confidence: d.confidence, x1: d.box.x1, y1: d.box.y1, x2: d.box.x2, y2: d.box.y2)
                })
            },
            tracks: tracks.keys.sorted().map { id in
                SampledVision.Track(id: id, poses: tracks[id]!.map { frame in
                    SampledVision.PoseSample(time: frame.time, landmarks: stride(from: 0, to: frame.values.count - 2, by: 3).map { i in
                        SampledVision.Landmark(x: Double(frame.values[i]) / 10, y: Double(frame.values[i + 1]) / 10,
                                               visibility: Double(frame.values[i + 2]) / 1000)
                    })
                })
            })
    }
}
