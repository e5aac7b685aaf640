import Foundation
import ReelworkCore
import SportKit
import SportMath

/// The player's track as a pose model would give it: the body plan through the camera, then what
/// goes wrong in real footage: noise on every landmark, frames with no pose (scattered, and one
/// run of them), unsure landmarks thrown off, the racket wrist blurred when it moves fast, ankles
/// out of the frame, and a passer-by in front hiding landmarks or lending the player their arm.
struct PoseRenderer {
    let camera: PoseCamera
    let conditions: PoseConditions
    let hand: Hand
    let plan: BodyPlan
    let seed: UInt64
    /// The run of missing frames, if any.
    let burst: ClosedRange<Double>?

    /// The racket wrist counts as blurred above this image speed, torso lengths a second.
    static let blurSpeed = 8.0

    init(camera: PoseCamera, conditions: PoseConditions, hand: Hand, plan: BodyPlan, seed: UInt64, duration: Double) {
        (self.camera, self.conditions, self.hand, self.plan, self.seed) = (camera, conditions, hand, plan, seed)
        var r = SeededRandom(seed: seed, stream: -1)
        let start = r.uniform(0...max(0, duration - conditions.dropBurst))
        burst = conditions.dropBurst > 0 ? start...(start + conditions.dropBurst) : nil
    }

    /// +1 when the racket hand is the player's right.
    private var handSign: Double { hand == .right ? 1 : -1 }

    /// The body's 33 points at `t`, body coordinates with the hips' displacement.
    func body(_ t: Double) -> [SIMD3<Double>] {
        let mirror = SIMD3<Double>(handSign, 1, 1)
        let racket = plan.wrist.position(t) * mirror, other = plan.otherWristPosition(t) * mirror
        let points = PoseSkeleton.points(turnDegrees: plan.turn.position(t).x * handSign,
                                         leftWrist: hand == .right ? other : racket, rightWrist: hand == .right ? racket : other)
        let hips = plan.hips.position(t) * mirror
        return points.map { $0 + hips }
    }

    func hipX(_ t: Double) -> Double { camera.project(plan.hips.position(t) * SIMD3(handSign, 1, 1)).x }

    /// The racket wrist's speed in the image at `t`, torso lengths a second.
    func imageWristSpeed(_ t: Double) -> Double {
        let index = hand == .right ? 16 : 15, dt = 0.005
        let a = camera.project(body(t - dt)[index]), b = camera.project(body(t + dt)[index])
        return hypot(b.x - a.x, b.y - a.y) / (2 * dt) / camera.torsoPixels
    }

    func track(times: [Double], passers: [PasserBy]) -> [SampledVision.PoseSample] {
        let c = conditions, torso = camera.torsoPixels
        let racketArm: [Int] = hand == .right ? [14, 16, 18, 20, 22] : [13, 15, 17, 19, 21]
        return times.enumerated().compactMap { k, t -> SampledVision.PoseSample? in
            var r = SeededRandom(seed: seed &+ 0x7E44_15, stream: k)
            if r.chance(c.dropRate) || burst?.contains(t) == true { return nil }
            var points = body(t).map { camera.project($0) }
            var visibility = points.map { _ in r.uniform(0.8...0.99) }
            let blurred = imageWristSpeed(t) > Self.blurSpeed && r.chance(c.blurRate)
            for i in points.indices {
                points[i].x += c.noise * torso * r.gaussian()
                points[i].y += c.noise * torso * r.gaussian()
                if r.chance(c.glitchRate) {
                    points[i].x += r.uniform(-1...1) * torso
                    points[i].y += r.uniform(-1...1) * torso
                    visibility[i] = r.uniform(0.05...0.45)
                }
                if c.anklesHidden && i >= 27 { visibility[i] = r.uniform(0.05...0.4) }
                if blurred && racketArm.dropFirst().contains(i) {
                    points[i].x += 0.2 * torso * r.gaussian()
                    points[i].y += 0.2 * torso * r.gaussian()
                    visibility[i] = r.uniform(0.1...0.49)
                }
            }
            for passer in passers where passer.inFront && passer.overlaps(playerX: hipX(t), playerTorso: torso, at: t) {
                let theirs = passer.points(t)
                for i in points.indices where r.chance(0.5) {
                    points[i].x += 0.3 * torso * r.gaussian()
                    points[i].y += 0.3 * torso * r.gaussian()
                    visibility[i] = r.uniform(0.05...0.45)
                }
                if r.chance(c.swapRate) {
                    for i in racketArm {
                        points[i] = theirs[i]
                        visibility[i] = r.uniform(0.5...0.85)
                    }
                }
            }
            return SampledVision.PoseSample(time: t, landmarks: points.indices.map {
                SampledVision.Landmark(x: points[$0].x, y: points[$0].y, visibility: visibility[$0])
            })
        }
    }
}
