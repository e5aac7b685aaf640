import Foundation
import Pictures
import ReelworkCore
import TestSupport
import XCTest

/// Results with known geometry over a clip whose every frame differs (a test pattern whose hue
/// turns 120° a second), so a picture drawn over the wrong frame cannot pass for the right one.
enum PictureFixtures {
    static let width = 640, height = 360

    static func makeClip(in directory: ScratchDirectory) throws -> String {
        let path = directory.path("pattern.mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=\(width)x\(height):rate=10:duration=3,hue=h=t*120",
                         "-pix_fmt", "yuv420p", "-c:v", "libx264", "-crf", "12", path])
        return path
    }

    /// A bowling shot starting at 0.5 s: eleven points up the frame, 6 ft apart.
    static let shotPath: [(x: Double, y: Double)] = (0...10).map { i -> (x: Double, y: Double) in
        let step = Double(i)
        return (320 + 40 * sin(step / 10 * Double.pi), 340 - 28 * step)
    }

    static func bowlingShot(number: Int = 1, start: Double = 0.5) -> JSONValue {
        .object([
            "shotNumber": .number(Double(number)), "startTime": .number(start), "endTime": .number(start + 1),
            "launchSpeed": .number(17.3), "impactSpeed": .number(15.9), "foulLineBoard": .number(20),
            "arrowBoard": .number(12.25), "breakpointBoard": .number(8.5), "breakpointDistance": .number(42),
            "pocketBoard": .number(17.5), "pocketOffset": .number(0), "entryAngle": .number(5.8), "revRate": .number(320),
            "revCategory": .string("tweener"), "strikeProbability": .number(0.91), "result": .null, "confidence": .number(0.9),
            "flags": .array([]), "unavailable": .object([:]),
            "trajectory": .array(shotPath.enumerated().map { i, p in
                .object(["t": .number(start + Double(i) * 0.1), "x": .number(p.x), "y": .number(p.y), "board": .number(20 - Double(i)),
                         "distanceFt": .number(Double(i) * 6), "phase": .string(i < 7 ? "skid" : "hook"), "interpolated": .bool(false)])
            }),
        ])
    }

    static func bowlingResult(shots: Int = 1) -> JSONValue {
        .object(["shots": .array((1...shots).map { bowlingShot(number: $0) })])
    }

    static let keyframes: [(String, Double)] = [("preparation", 0.5), ("backswing", 0.8), ("contact", 1.1), ("followThrough", 1.4),
                                                ("recovery", 1.7)]
    static let playerBox = [200.0, 60, 360, 340]

    /// The right wrist, circling the player's shoulder through the swing.
    static func wrist(at t: Double) -> (x: Double, y: Double) {
        let angle = (t - 0.4) / 1.4 * 1.5 * .pi
        return (280 + 60 * cos(angle), 200 + 60 * sin(angle))
    }

    static func tennisResult(poses: Bool = true) -> JSONValue {
        let swing: JSONValue = .object([
            "swingNumber": .number(1), "trackId": .number(1), "type": .string("forehand"), "startTime": .number(0.5), "endTime": .number(1.7),
            "confidence": .number(0.8), "keyFrameTimes": .object(Dictionary(uniqueKeysWithValues: keyframes.map { ($0.0, .number($0.1)) })),
            "metrics": .object(["peakWristSpeed": .number(9.4), "peakWristSpeedUnit": .string("torso/s"), "shoulderTurn": .number(48),
                                "contactHeight": .number(0.55), "followThrough": .number(120), "trackingQuality": .number(0.97)]),
            "unavailable": .object([:]),
        ])
        var result: [String: JSONValue] = ["swings": .array([swing])]
        if poses {
            let frames: [JSONValue] = stride(from: 0.4, through: 1.81, by: 0.1).map { t in
                var landmarks = [JSONValue](repeating: .number(0), count: 99)
                let w = wrist(at: t)
                landmarks[48] = .number(w.x); landmarks[49] = .number(w.y); landmarks[50] = .number(0.95)
                return .object(["t": .number((t * 1000).rounded() / 1000), "score": .number(0.99),
                                "box": .array(playerBox.map { .number($0) }), "landmarks": .array(landmarks)])
            }
            result["poses"] = .array([.object(["trackId": .number(1), "frames": .array(frames)])])
        }
        return .object(result)
    }

    static let artifacts = URL(fileURLWithPath: ProjectPaths.inRoot(".local/test-artifacts/pictures"))

    /// Keeps `bytes` under .local/test-artifacts/pictures/ for a person to look at.
    static func keep(_ bytes: [UInt8], as name: String) throws -> URL {
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let url = artifacts.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}

/// A test class with the pattern clip made once for all its tests, in a scratch directory.
class PatternClipTestCase: XCTestCase {
    nonisolated(unsafe) static var directory: ScratchDirectory!
    nonisolated(unsafe) static var clip = ""

    override class func setUp() {
        super.setUp()
        directory = try! ScratchDirectory(prefix: "reelwork-pictures")
        clip = try! PictureFixtures.makeClip(in: directory)
    }

    override class func tearDown() {
        directory.remove()
        super.tearDown()
    }
}
