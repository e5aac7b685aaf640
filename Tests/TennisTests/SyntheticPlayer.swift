import Foundation
import ReelworkCore
import Tennis

/// One smooth move of the wrist: it travels (du, dv) torso lengths along a tanh profile centred on
/// `time`, so its speed peaks there at |(du, dv)| / (2 · tau) torso lengths per second.
struct WristMove {
    var time: Double
    var tau: Double
    var du: Double
    var dv: Double

    /// Share of the move done at `t`, 0 → 1.
    func progress(_ t: Double) -> Double { 0.5 * (1 + tanh((t - time) / tau)) }
}

/// A synthetic 33-landmark BlazePose skeleton standing at a place and scale, whose dominant wrist
/// follows a path of `WristMove`s.
///
/// Body coordinates are in torso lengths (shoulder midpoint to hip midpoint = 1), from the hip
/// midpoint: `u` towards the player's dominant side, `v` up. Nose at v = 1.4, shoulders at 1.0,
/// hips at 0, ankles at −1.8; so the top of the head (as the metrics estimate it) is at 1.8 and the
/// body is 3.6 torso lengths tall.
struct SyntheticPlayer {
    var hand: Hand = .right
    /// Where the hip midpoint is in the frame, pixels.
    var hipX = 320.0
    var hipY = 250.0
    /// Torso length in pixels (the camera's distance).
    var torso = 60.0
    /// Camera behind the player (their right side is towards larger x), as tennis is often filmed.
    var facingAway = true
    /// Where the dominant wrist rests before the first move, body coordinates.
    var rest = (u: 0.4, v: 0.2)
    var moves: [WristMove] = []
    /// Shoulder line rotation in the image plane, degrees, over time.
    var shoulderAngle: (Double) -> Double = { _ in 0 }

    /// +1 when the player's own right is towards larger x.
    var rightDirection: Double { facingAway ? 1 : -1 }
    /// +1 when the dominant side is towards larger x.
    var dominantDirection: Double { hand == .right ? rightDirection : -rightDirection }

    /// The dominant wrist in body coordinates at `t`.
    func wrist(_ t: Double) -> (u: Double, v: Double) {
        moves.reduce(rest) { p, move in (p.u + move.du * move.progress(t), p.v + move.dv * move.progress(t)) }
    }

    /// Body coordinates (u towards the player's own RIGHT, v up) to frame pixels.
    private func pixel(right u: Double, up v: Double) -> (x: Double, y: Double) {
        (hipX + u * torso * rightDirection, hipY - v * torso)
    }

    func landmarks(at t: Double, visibility: Double = 0.99) -> [Landmark] {
        // Each landmark's place with u towards the player's own right.
        var body = Array(repeating: (u: 0.0, v: 0.0), count: 33)
        for i in 1...10 { body[i] = (i % 2 == 0 ? 0.06 : -0.06, i >= 9 ? 1.3 : 1.45) }
        body[0] = (0, 1.4)
        let angle = shoulderAngle(t) * .pi / 180
        let half = (u: 0.45 * cos(angle), v: 0.45 * sin(angle))
        body[12] = (half.u, 1.0 + half.v)
        body[11] = (-half.u, 1.0 - half.v)
        body[13] = (-0.55, 0.55); body[14] = (0.55, 0.55)
        body[15] = (-0.5, 0.1); body[16] = (0.5, 0.1)
        body[23] = (-0.3, 0); body[24] = (0.3, 0)
        body[25] = (-0.3, -0.9); body[26] = (0.3, -0.9)
        body[27] = (-0.3, -1.8); body[28] = (0.3, -1.8)
        body[29] = (-0.35, -1.85); body[30] = (0.35, -1.85)
        body[31] = (-0.2, -1.9); body[32] = (0.2, -1.9)

        // The dominant wrist follows the path (u towards the dominant side → towards the right side).
        let w = wrist(t)
        let sign = hand == .right ? 1.0 : -1.0
        let (wristIndex, elbowIndex, shoulderIndex) = hand == .right ? (16, 14, 12) : (15, 13, 11)
        body[wristIndex] = (w.u * sign, w.v)
        body[elbowIndex] = ((body[shoulderIndex].u + body[wristIndex].u) / 2, (body[shoulderIndex].v + body[wristIndex].v) / 2)
        for i in [17, 19, 21] where hand == .left { body[i] = body[15] }
        for i in [18, 20, 22] where hand == .right { body[i] = body[16] }

        return body.map { b in
            let p = pixel(right: b.u, up: b.v)
            return Landmark(x: p.x, y: p.y, visibility: visibility)
        }
    }

    /// The dominant wrist in frame pixels at `t`.
    func wristPixel(_ t: Double) -> (x: Double, y: Double) {
        let w = wrist(t)
        return (hipX + w.u * torso * dominantDirection, hipY - w.v * torso)
    }

    /// The dominant shoulder in frame pixels at `t`.
    func dominantShoulderPixel(_ t: Double) -> (x: Double, y: Double) {
        let l = landmarks(at: t)[hand == .right ? 12 : 11]
        return (l.x, l.y)
    }

    /// Frames from 0 to `duration` at `fps`.
    func track(duration: Double, fps: Double = 10) -> [PoseFrame] {
        sampleTimes(duration: duration, fps: fps).map { PoseFrame(time: $0, landmarks: landmarks(at: $0)) }
    }
}

func sampleTimes(duration: Double, fps: Double) -> [Double] {
    (0...Int((duration * fps).rounded())).map { Double($0) / fps }
}

/// Typical strokes, in dominant-side body coordinates, with their fastest moment at `peak`.
enum Strokes {
    /// Take-back to the dominant side behind the body (slow), then the forward swing across it
    /// (fast, ≈ 9 torso/s measured at 10 fps), passing the dominant side at the peak.
    static func forehand(peak: Double) -> (rest: (u: Double, v: Double), moves: [WristMove]) {
        ((0.4, 0.2), [WristMove(time: peak - 0.45, tau: 0.12, du: 1.1, dv: 0.1),
                      WristMove(time: peak, tau: 0.08, du: -2.2, dv: 0.2)])
    }

    /// The mirror image: taken back on the other side, swung through it.
    static func backhand(peak: Double) -> (rest: (u: Double, v: Double), moves: [WristMove]) {
        ((-0.4, 0.2), [WristMove(time: peak - 0.45, tau: 0.12, du: -1.1, dv: 0.1),
                       WristMove(time: peak, tau: 0.08, du: 2.2, dv: 0.2)])
    }

    /// From behind the head up to full reach above it, passing above the nose at the peak.
    static func serve(peak: Double) -> (rest: (u: Double, v: Double), moves: [WristMove]) {
        ((0.6, 1.1), [WristMove(time: peak, tau: 0.06, du: -0.4, dv: 1.5)])
    }
}

extension SyntheticPlayer {
    init(hand: Hand = .right, torso: Double = 60, hipX: Double = 320, hipY: Double = 250, facingAway: Bool = true,
         stroke: (rest: (u: Double, v: Double), moves: [WristMove])) {
        self.init(hand: hand, hipX: hipX, hipY: hipY, torso: torso, facingAway: facingAway, rest: stroke.rest, moves: stroke.moves)
    }
}
