import Foundation
import ReelworkCore
import SportKit
import SportMath

/// Pose sequences of a tennis player, drawn by seed from wide distributions, with their truth:
/// sampling 24–60 frames a second; 1–6 forehands, backhands and serves at 10–22 torso lengths a
/// second (serves to 26) with gaps of 1.1–4 s; right- or left-handed (one in three left); the camera
/// behind or in front, up to 35° to either side, rolled up to 5°, near or far; landmark noise,
/// missing frames (scattered and in a run), unsure landmarks thrown off, the racket wrist lost to
/// motion blur, ankles out of the frame; people walking or jogging through, whose arm the pose model
/// may take for the player's while they overlap; and idle motions that are not swings (bouncing the
/// ball, walking, a split step, slow shadow swings).
///
/// Sequences only: the pose model is not run. Every draw comes from `SeededRandom(seed:)`, so a
/// seed is the same sequence on every machine.
public enum PoseSequenceGenerator {
    public static let frameWidth = 1920.0, frameHeight = 1080.0
    /// The tracks' ids: the player first, passers-by after.
    public static let playerTrackId = 1

    /// COCO's names for the classes a tennis run keeps (the detector's boxes are left empty: the
    /// detector's balls and rackets are not part of what this varies).
    static let classNames = [0: "person", 32: "sports ball", 38: "tennis racket"]

    public static func make(seed: UInt64) -> PoseSequence {
        var r = SeededRandom(seed: seed, stream: 0)
        let fps = r.uniform(24...60)
        let hand: Hand = r.chance(1.0 / 3) ? .left : .right
        let front = r.chance(0.5)
        let torsoPixels = r.uniform(35...160)
        let hipY = r.uniform(max(0.3 * frameHeight, 1.9 * torsoPixels)...min(0.72 * frameHeight, frameHeight - 2 * torsoPixels))
        let camera = PoseCamera(azimuthDegrees: (front ? 180 : 0) + r.uniform(-35...35), rollDegrees: r.uniform(-5...5),
                                torsoPixels: torsoPixels, centerX: r.uniform(0.3...0.7) * frameWidth, centerY: hipY)
        let conditions = PoseConditions(
            cameraAzimuthDegrees: camera.azimuthDegrees, cameraRollDegrees: camera.rollDegrees, torsoPixels: torsoPixels,
            noise: r.uniform(0...0.04), dropRate: r.uniform(0...0.08), dropBurst: r.chance(0.3) ? r.uniform(0.1...0.35) : 0,
            glitchRate: r.uniform(0...0.03), blurRate: r.uniform(0...0.5), anklesHidden: r.chance(0.15),
            twoHandedBackhand: r.chance(0.5), passersBy: r.chance(0.45) ? r.integer(1...2) : 0, jogging: r.chance(0.25),
            swapRate: r.uniform(0...0.5))

        // The swings: contacts 1.1–4 s apart, the first possibly so early that its take-back is cut.
        var plan = BodyPlan()
        var swings: [SwingTruth] = []
        var contact = r.uniform(0.35...2.5)
        for k in 0..<r.integer(1...6) {
            if k > 0 { contact += r.uniform(1.1...4.0) }
            let roll = r.unit()
            let kind = roll < 0.2 ? "serve" : roll < 0.6 ? "forehand" : "backhand"
            let speed = kind == "serve" ? r.uniform(12...26) : r.uniform(10...22)
            let stroke = StrokeShape.make(kind, contact: contact, speed: speed, random: &r)
            plan.add(stroke, kind: kind, contact: contact, twoHanded: conditions.twoHandedBackhand, random: &r)
            swings.append(SwingTruth(type: kind, contactTime: contact, contactFrame: Int((contact * fps).rounded()),
                                     startTime: stroke.start, endTime: stroke.end, peakSpeed: speed))
        }
        let duration = contact + r.uniform(0.4...2.5)
        let frameCount = Int((duration * fps).rounded()) + 1
        let idle = plan.addIdleMotions(between: swings.map(\.contactTime), duration: duration, random: &r)

        let times = (0..<frameCount).map { Double($0) / fps }
        let player = PoseRenderer(camera: camera, conditions: conditions, hand: hand, plan: plan, seed: seed, duration: duration)
        var passers: [PasserBy] = []
        for _ in 0..<conditions.passersBy {
            passers.append(PasserBy.draw(player: camera, duration: duration, jogging: conditions.jogging, random: &r))
        }
        var tracks = [SampledVision.Track(id: playerTrackId, poses: player.track(times: times, passers: passers))]
        for (i, passer) in passers.enumerated() {
            let poses = passer.track(times: times, frameWidth: frameWidth, noise: conditions.noise, seed: seed, stream: i + 1,
                                     player: player.hipX, playerTorso: torsoPixels)
            if !poses.isEmpty { tracks.append(SampledVision.Track(id: playerTrackId + 1 + i, poses: poses)) }
        }
        let sampled = SampledVision(classNames: classNames, frames: times.map { SampledVision.Frame(time: $0, boxes: []) },
                                    tracks: tracks)
        return PoseSequence(seed: seed, fps: fps, frameCount: frameCount, hand: hand, sampled: sampled,
                            playerTrackId: playerTrackId, swings: swings, idle: idle, conditions: conditions)
    }
}
