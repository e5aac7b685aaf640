import SportMath

/// The wrist's path through one stroke in the dominant side's coordinates (x towards the racket
/// hand's side, y up, z forward; torso lengths from the hip midpoint), and the shoulders' turn.
///
/// Take-back from the ready position to the back of the swing, then the forward swing along a
/// curve through the contact point to the finish (a `BodyMove`, fastest at contact), then a slow
/// walk of the wrist back to the ready position. A forehand meets the ball in front of the body on
/// the racket hand's side, a backhand on the other side, a serve above the head: the places
/// Sources/Tennis/SwingClassifier reads.
struct StrokeShape {
    var wrist: [BodyMove]
    /// Shoulder turn moves (degrees in x; positive: the racket hand's shoulder goes back).
    var turn: [BodyMove]
    /// When the take-back starts and the recovery ends (the stroke's extent).
    var start: Double
    var end: Double

    /// The ready position the wrist leaves from and comes back to.
    static let ready = SIMD3<Double>(0.3, 0.25, 0.35)

    /// `speed`: the wrist's speed at contact, torso lengths per second.
    static func make(_ kind: String, contact: Double, speed: Double, random r: inout SeededRandom) -> StrokeShape {
        func jitter(_ p: SIMD3<Double>, _ amount: Double) -> SIMD3<Double> {
            p + SIMD3(r.uniform(-amount...amount), r.uniform(-amount...amount), r.uniform(-amount...amount))
        }
        let back: SIMD3<Double>, through: SIMD3<Double>, finish: SIMD3<Double>, lead: Double, takeBackTau: Double, turnBack: Double
        switch kind {
        case "serve":
            // Up from behind the back, over the top at full reach (contact, the wrist's highest
            // point: the chord is level, so the arc's middle is its top), down in front; the
            // recovery then brings the wrist down to the ready position.
            back = jitter(SIMD3(0.25, 0.9, -0.55), 0.1)
            through = jitter(SIMD3(0.15, 2.25, 0.35), 0.1)
            var end = jitter(SIMD3(-0.45, 0.9, 0.55), 0.12)
            end.y = back.y
            finish = end
            lead = r.uniform(0.55...0.8); takeBackTau = r.uniform(0.12...0.2); turnBack = r.uniform(30...60)
        case "backhand":
            back = jitter(SIMD3(-0.95, 0.5, -0.4), 0.12)
            through = jitter(SIMD3(-0.5, 0.35, 0.6), 0.1)
            finish = jitter(SIMD3(0.8, 1.0, 0.2), 0.15)
            lead = r.uniform(0.35...0.6); takeBackTau = r.uniform(0.12...0.2); turnBack = -r.uniform(40...75)
        default:
            back = jitter(SIMD3(1.0, 0.55, -0.45), 0.12)
            through = jitter(SIMD3(0.5, 0.35, 0.6), 0.1)
            finish = jitter(SIMD3(-0.6, 0.9, 0.3), 0.15)
            lead = r.uniform(0.35...0.6); takeBackTau = r.uniform(0.12...0.2); turnBack = r.uniform(40...75)
        }
        // The forward swing: an arc from the back of the swing through (about) the contact point to
        // the finish, at the drawn speed when the wrist passes contact.
        var forward = BodyMove(time: contact, tau: 1, end: finish - back, through: through - back)
        forward.tau = forward.length / (2 * speed)
        let recoveryTime = contact + r.uniform(0.5...0.9), recoveryTau = r.uniform(0.15...0.3)
        let forwardTurn = -(turnBack + (turnBack >= 0 ? 1 : -1) * r.uniform(20...40))
        return StrokeShape(
            wrist: [BodyMove(time: contact - lead, tau: takeBackTau, by: back - ready),
                    forward,
                    BodyMove(time: recoveryTime, tau: recoveryTau, by: ready - finish)],
            turn: [BodyMove(time: contact - lead, tau: takeBackTau, by: SIMD3(turnBack, 0, 0)),
                   BodyMove(time: contact, tau: 1.5 * forward.tau, by: SIMD3(forwardTurn, 0, 0)),
                   BodyMove(time: recoveryTime, tau: recoveryTau, by: SIMD3(-(turnBack + forwardTurn), 0, 0))],
            start: contact - lead - 3 * takeBackTau, end: recoveryTime + 3 * recoveryTau)
    }
}
