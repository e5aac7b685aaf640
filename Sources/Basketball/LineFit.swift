import SportMath

/// A ballistic arc in image pixels: x moves uniformly, y falls with the gravity the rim's scale
/// gives (image y grows downwards). Gravity is fixed, not fitted, so a few points already predict
/// well beyond themselves.
struct BallisticFit: Sendable {
    static let gravityFeetPerSecondSquared = 32.174

    let gravity: Double
    let origin: Double
    let x: LineFit
    /// y − ½·g·τ² as a line in τ = t − origin.
    let lifted: LineFit

    init?(_ points: ArraySlice<BallPoint>, gravity: Double) {
        guard let first = points.first else { return nil }
        origin = first.t
        self.gravity = gravity
        let times = points.map { $0.t - first.t }
        guard let x = LineFit(times, points.map(\.x)),
              let lifted = LineFit(times, zip(times, points).map { τ, p in p.y - 0.5 * gravity * τ * τ }) else { return nil }
        (self.x, self.lifted) = (x, lifted)
    }

    func position(at t: Double) -> (x: Double, y: Double) {
        let τ = t - origin
        return (x.at(τ), lifted.at(τ) + 0.5 * gravity * τ * τ)
    }

    /// Image-y velocity (negative: going up).
    func verticalVelocity(at t: Double) -> Double { lifted.slope + gravity * (t - origin) }
    var horizontalVelocity: Double { x.slope }

    func residual(_ p: BallPoint) -> Double {
        let predicted = position(at: p.t)
        return max(abs(predicted.x - p.x), abs(predicted.y - p.y))
    }
}

/// A flight fitted freely: x and y each a parabola in time. A camera that is not square to the
/// shot sees the ball fly toward or away from it, so the arc's scale changes along the way: its
/// gravity in pixels is not the rim's, and x does not move uniformly. Where a fixed-gravity arc
/// drifts off a long stretch of real flight by pixels, this one follows it, and still parts from
/// the hand's push before the release.
struct FreeArc: Sendable {
    let origin: Double
    let x: QuadraticFit
    let y: QuadraticFit

    /// Needs `minimumPoints`, and a fall between `gravityRange` times the rim's gravity (a ball in
    /// flight, not a hand or a bounce).
    init?(_ points: ArraySlice<BallPoint>, gravity: Double) {
        guard points.count >= Self.minimumPoints, let first = points.first else { return nil }
        origin = first.t
        let times = points.map { $0.t - first.t }
        guard let x = QuadraticFit(times, points.map(\.x)), let y = QuadraticFit(times, points.map(\.y)),
              Self.gravityRange.contains(2 * y.a / gravity) else { return nil }
        (self.x, self.y) = (x, y)
    }

    /// A quarter of a second at 30 frames a second: enough for the curvature to mean something.
    static let minimumPoints = 8
    static let gravityRange = 0.05...2.0

    func residual(_ p: BallPoint) -> Double {
        let τ = p.t - origin
        return max(abs(x.at(τ) - p.x), abs(y.at(τ) - p.y))
    }
}
