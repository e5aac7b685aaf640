import Foundation
import SportMath

/// Everything the player's body does over the clip, in the racket hand's coordinates (x towards
/// the racket hand's side, y up, z forward; torso lengths): the racket wrist, the other wrist, the
/// shoulders' turn and the hips' own displacement (steps, walks, hops).
struct BodyPlan {
    var wrist = BodyPath(rest: StrokeShape.ready)
    var otherWrist = BodyPath(rest: SIMD3(-0.3, 0.2, 0.35))
    /// Degrees in x (positive: the racket hand's shoulder goes back).
    var turn = BodyPath(rest: .zero)
    var hips = BodyPath(rest: .zero)
    /// Times when the other hand holds the racket too (a two-handed backhand).
    var twoHanded: [ClosedRange<Double>] = []

    /// Where the other hand sits on the grip, from the racket wrist.
    static let gripOffset = SIMD3<Double>(-0.1, 0.06, 0)
    /// How long the other hand takes to reach the grip or let go, seconds.
    static let gripBlend = 0.15

    mutating func add(_ stroke: StrokeShape, kind: String, contact: Double, twoHanded: Bool, random r: inout SeededRandom) {
        wrist.moves += stroke.wrist
        turn.moves += stroke.turn
        if kind == "backhand" && twoHanded { self.twoHanded.append(stroke.start...(contact + 0.35)) }
        if kind == "serve" {
            // The ball toss: the other arm rises to full reach, and comes down as the racket swings up.
            otherWrist.moves += [BodyMove(time: contact - 0.9, tau: 0.18, by: SIMD3(0.1, 1.9, 0)),
                                 BodyMove(time: contact + 0.1, tau: 0.2, by: SIMD3(-0.1, -1.9, 0))]
        } else if r.chance(0.6) {
            // A step into the shot moves the whole body a little just before contact.
            hips.moves.append(BodyMove(time: contact - r.uniform(0.15...0.35), tau: r.uniform(0.1...0.2),
                                       by: SIMD3(r.uniform(-0.4...0.4), 0, r.uniform(0...0.4))))
        }
    }

    /// The other wrist at `t`, on the grip (smoothly) while a two-handed backhand holds it.
    func otherWristPosition(_ t: Double) -> SIMD3<Double> {
        var weight = 0.0
        for window in twoHanded {
            let w = min(t - window.lowerBound, window.upperBound - t) / Self.gripBlend
            weight = max(weight, min(1, max(0, w)))
        }
        let smooth = weight * weight * (3 - 2 * weight)
        return (1 - smooth) * otherWrist.position(t) + smooth * (wrist.position(t) + Self.gripOffset)
    }

    /// Fills the quiet stretches (≥ 1 s clear of any stroke) with motions that are not swings, each
    /// with a chance of 3 in 4: bouncing the ball, walking, a split step, or a slow shadow swing.
    mutating func addIdleMotions(between contacts: [Double], duration: Double, random r: inout SeededRandom) -> [IdleMotion] {
        var gaps: [ClosedRange<Double>] = []
        var from = 0.0
        for c in contacts {
            if c - 1.0 - from >= 1.0 { gaps.append(from...(c - 1.0)) }
            from = c + 1.1
        }
        if duration - from >= 1.0 { gaps.append(from...duration) }
        var motions: [IdleMotion] = []
        for gap in gaps where r.chance(0.75) {
            let length = gap.upperBound - gap.lowerBound
            switch r.integer(0...3) {
            case 0:
                let f = r.uniform(1.2...2.5)
                let cycles = max(1, min(r.integer(2...5), Int(length * f)))
                let start = gap.lowerBound + r.uniform(0...max(0, length - Double(cycles) / f))
                let bounce = Oscillation(start: start, cycles: cycles, frequency: f, amplitude: r.uniform(0.15...0.4),
                                         direction: SIMD3(0, -1, 0))
                if r.chance(0.5) { wrist.oscillations.append(bounce) } else { otherWrist.oscillations.append(bounce) }
                motions.append(IdleMotion(kind: "ball bounce", start: start, end: bounce.end))
            case 1:
                let tau = min(r.uniform(0.25...0.5), length / 4)
                let centre = gap.lowerBound + 2 * tau + r.uniform(0...max(0, length - 4 * tau))
                let heading = r.uniform(0...(2 * Double.pi))
                let distance = 2 * tau * r.uniform(1.2...3.0)
                hips.moves.append(BodyMove(time: centre, tau: tau, by: SIMD3(distance * cos(heading), 0, distance * sin(heading))))
                let f = r.uniform(0.8...1.0), cycles = max(1, Int(4 * tau * f)), amplitude = r.uniform(0.2...0.35)
                let start = centre - Double(cycles) / (2 * f)
                wrist.oscillations.append(Oscillation(start: start, cycles: cycles, frequency: f, amplitude: amplitude, direction: SIMD3(0, 0, 1)))
                otherWrist.oscillations.append(Oscillation(start: start + 0.5 / f, cycles: cycles, frequency: f, amplitude: amplitude,
                                                           direction: SIMD3(0, 0, 1)))
                motions.append(IdleMotion(kind: "walk", start: centre - 2 * tau, end: centre + 2 * tau))
            case 2:
                let hop = Oscillation(start: gap.lowerBound + r.uniform(0...max(0, length - 0.5)), cycles: 1, frequency: r.uniform(2...3),
                                      amplitude: r.uniform(0.08...0.15), direction: SIMD3(0, 1, 0))
                hips.oscillations.append(hop)
                motions.append(IdleMotion(kind: "split step", start: hop.start, end: hop.end))
            default:
                guard length >= 1.8 else { continue }
                let contact = gap.lowerBound + 0.9 + r.uniform(0...(length - 1.8))
                let shadow = StrokeShape.make(r.chance(0.5) ? "forehand" : "backhand", contact: contact, speed: r.uniform(2.5...4.5), random: &r)
                wrist.moves += shadow.wrist
                turn.moves += shadow.turn
                motions.append(IdleMotion(kind: "shadow swing", start: shadow.start, end: shadow.end))
            }
        }
        return motions
    }
}
