import Foundation
import ReelworkCore
import Tennis
import TestSupport
import Vision
import XCTest

/// Reads the analysis document's `result.poses` and `result.detections` into the Tennis module's input.
enum VisionResult {
    /// COCO classes the detector reports.
    static let sportsBall = 32, tennisRacket = 38

    static func numbers(_ value: JSONValue?) -> [Double] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
    }

    /// Each track's frames (`t`, `landmarks` [x, y, visibility] × 33), by track id.
    static func tracks(_ result: JSONValue) -> [[PoseFrame]] {
        guard case .array(let tracks)? = result["poses"] else { return [] }
        return tracks.map { track in
            guard case .array(let frames)? = track["frames"] else { return [] }
            return frames.compactMap { frame in
                guard case .number(let t)? = frame["t"] else { return nil }
                let v = numbers(frame["landmarks"])
                guard v.count == 33 * 3 else { return nil }
                return PoseFrame(time: t, landmarks: (0..<33).map { Landmark(x: v[3 * $0], y: v[3 * $0 + 1], visibility: v[3 * $0 + 2]) })
            }
        }
    }

    /// Balls and rackets per sampled frame (boxes are [classId, confidence, x1, y1, x2, y2]).
    static func objects(_ result: JSONValue) -> [ObjectFrame] {
        guard case .array(let frames)? = result["detections"] else { return [] }
        return frames.compactMap { frame in
            guard case .number(let t)? = frame["t"], case .array(let boxes)? = frame["boxes"] else { return nil }
            var balls: [Box] = [], rackets: [Box] = []
            for value in boxes {
                let b = numbers(value)
                guard b.count == 6 else { continue }
                let box = Box(x1: b[2], y1: b[3], x2: b[4], y2: b[5], confidence: b[1])
                if Int(b[0]) == sportsBall { balls.append(box) }
                if Int(b[0]) == tennisRacket { rackets.append(box) }
            }
            return ObjectFrame(time: t, balls: balls, rackets: rackets)
        }
    }
}

/// A real photo of a person (person.jpg's standing man) swept along an arc over a background,
/// made with ffmpeg: 640×360, 30 fps, 3.6 s.
enum SweptPersonClip {
    /// The cut-out's left edge is at x = 250 + 150 · tanh((t − peak) / 0.12): still, then a sweep of
    /// 300 px whose speed peaks at `peak` (1250 px/s, ≈ 14 torso lengths/s for a ~90 px torso),
    /// then still again; it rises 30 px along the way and comes back down (an arc).
    static let peak = 1.8

    /// Makes the clip at `path`; `encoder` adds to libx264's defaults (e.g. `-bf 0`).
    static func make(at path: String, encoder: [String] = []) throws -> String {
        let p = peak
        try Tool.ffmpeg(["-f", "lavfi", "-i", "color=c=0x6a7a5a:size=640x360:rate=30,noise=alls=8:allf=t",
                         "-loop", "1", "-i", ProjectPaths.photo("person.jpg"),
                         "-filter_complex", "[1:v]crop=120:320:170:75[p];[0:v][p]overlay="
                             + "x='250+150*tanh((t-\(p))/0.12)':y='38-30/pow(cosh((t-\(p))/0.25),2)':shortest=1",
                         "-t", "3.6", "-c:v", "libx264", "-pix_fmt", "yuv420p"] + encoder + [path])
        return path
    }
}
