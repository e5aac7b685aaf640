import Foundation
import SportKit
import SportMath

/// Someone walking or jogging across the frame, seen from the side, arms swinging: their own track,
/// crossing the player at `crossing`. In front of the player they hide the player's landmarks (and
/// the pose model may read the player's arm from theirs); behind, they are the ones hidden.
struct PasserBy {
    var torsoPixels: Double
    var hipY: Double
    /// Where and when they pass the player's rest position, and their speed in pixels per second (signed).
    var playerX: Double
    var crossing: Double
    var velocity: Double
    /// Arm swing: cycles a second and reach (torso lengths forward and back).
    var frequency: Double
    var amplitude: Double
    var inFront: Bool

    static func draw(player camera: PoseCamera, duration: Double, jogging: Bool, random r: inout SeededRandom) -> PasserBy {
        let torso = camera.torsoPixels * r.uniform(0.6...1.3)
        // Walking 1–1.7 m/s (2–3.4 torso lengths a second); jogging 2.2–3.2 m/s.
        let speed = jogging ? r.uniform(4.5...6.5) : r.uniform(2.0...3.4)
        return PasserBy(torsoPixels: torso, hipY: camera.centerY + r.uniform(-0.6...0.6) * camera.torsoPixels,
                        playerX: camera.centerX, crossing: r.uniform(0...duration),
                        velocity: (r.chance(0.5) ? 1 : -1) * speed * torso,
                        frequency: jogging ? r.uniform(1.3...1.5) : r.uniform(0.8...1.0), amplitude: r.uniform(0.3...0.45),
                        inFront: r.chance(0.5))
    }

    func hipX(_ t: Double) -> Double { playerX + velocity * (t - crossing) }

    /// Their 33 landmarks in pixels at `t` (side view, facing the way they walk).
    func points(_ t: Double) -> [(x: Double, y: Double)] {
        let camera = PoseCamera(azimuthDegrees: velocity > 0 ? 90 : -90, rollDegrees: 0, torsoPixels: torsoPixels,
                                centerX: hipX(t), centerY: hipY)
        let swing = amplitude * sin(2 * Double.pi * frequency * (t - crossing))
        let body = PoseSkeleton.points(turnDegrees: 0, leftWrist: SIMD3(-0.35, 0.1, -swing), rightWrist: SIMD3(0.35, 0.1, swing))
        return body.map { camera.project($0) }
    }

    /// Whether they are within the frame (the tracker follows them only there).
    func inFrame(_ t: Double, width: Double) -> Bool {
        let x = hipX(t)
        return x >= 0.02 * width && x <= 0.98 * width
    }

    /// Whether they overlap the player at `t` (hips closer than about a shoulder width each).
    func overlaps(playerX x: Double, playerTorso: Double, at t: Double) -> Bool {
        abs(hipX(t) - x) < 0.45 * (playerTorso + torsoPixels)
    }

    /// Their own track: every frame they are in, with the sequence's noise; hidden landmarks unsure
    /// while they walk behind the player.
    func track(times: [Double], frameWidth: Double, noise: Double, seed: UInt64, stream: Int,
               player: (Double) -> Double, playerTorso: Double) -> [SampledVision.PoseSample] {
        times.enumerated().compactMap { k, t -> SampledVision.PoseSample? in
            guard inFrame(t, width: frameWidth) else { return nil }
            var r = SeededRandom(seed: seed &+ UInt64(stream) &* 0x1000_0001, stream: k)
            let hidden = !inFront && overlaps(playerX: player(t), playerTorso: playerTorso, at: t)
            return SampledVision.PoseSample(time: t, landmarks: points(t).map { p in
                let sd = noise * torsoPixels
                let visibility = hidden && r.chance(0.6) ? r.uniform(0.05...0.45) : r.uniform(0.8...0.99)
                return SampledVision.Landmark(x: p.x + sd * r.gaussian(), y: p.y + sd * r.gaussian(), visibility: visibility)
            })
        }
    }
}
