import Foundation

/// One smooth move of a point (a wrist, the hips) in body coordinates, torso lengths: from where
/// the moves before it left it to `end` (relative), along a circular arc that bulges by `bulge`
/// at its middle (a straight line when the bulge is zero), at a constant speed along the arc times
/// the progress `0.5 · (1 + tanh((t − time) / tau))`. So the move is fastest exactly halfway along,
/// at `time`, at `length / (2 · tau)` torso lengths per second: the truth's contact is that moment.
public struct BodyMove: Sendable {
    public var time: Double
    public var tau: Double
    public var end: SIMD3<Double>
    /// The arc's middle minus the chord's middle; kept square to the chord.
    public var bulge: SIMD3<Double>

    public init(time: Double, tau: Double, end: SIMD3<Double>, through middle: SIMD3<Double>) {
        (self.time, self.tau, self.end) = (time, tau, end)
        let chord = end, half = end / 2
        let length2 = (chord * chord).sum()
        let off = middle - half
        bulge = length2 > 0 ? off - ((off * chord).sum() / length2) * chord : .zero
    }

    /// A straight move by `by`.
    public init(time: Double, tau: Double, by: SIMD3<Double>) {
        self.init(time: time, tau: tau, end: by, through: by / 2)
    }

    private var arc: (a: Double, b: Double, k: Double, radius: Double, halfAngle: Double)? {
        let a = ((end * end).sum()).squareRoot() / 2, b = ((bulge * bulge).sum()).squareRoot()
        guard b > 1e-9, a > 1e-9 else { return nil }
        // The circle through both ends and the bulge's tip: centre k from the chord along the bulge.
        let k = (b * b - a * a) / (2 * b)
        let radius = b - k
        return (a, b, k, radius, atan2(a, -k))
    }

    /// Where the move is at progress `s` (0…1), relative to its start.
    func point(_ s: Double) -> SIMD3<Double> {
        guard let arc else { return s * end }
        let along = end / (2 * arc.a), up = bulge / arc.b
        let angle = Double.pi / 2 + arc.halfAngle * (1 - 2 * s)
        return end / 2 + arc.k * up + arc.radius * (cos(angle) * along + sin(angle) * up)
    }

    /// The offset from the move's start at `t`.
    public func offset(_ t: Double) -> SIMD3<Double> {
        point(0.5 * (1 + tanh((t - time) / tau)))
    }

    /// The path's length, torso lengths.
    public var length: Double {
        guard let arc else { return ((end * end).sum()).squareRoot() }
        return 2 * arc.halfAngle * arc.radius
    }

    /// Its speed at `time` (the fastest moment), torso lengths per second.
    public var peakSpeed: Double { length / (2 * tau) }
}

/// A point that rests at `rest` and follows its moves (each one adds its offset), plus any
/// oscillations (a ball bounced, arms swinging while walking).
public struct BodyPath: Sendable {
    public var rest: SIMD3<Double>
    public var moves: [BodyMove] = []
    public var oscillations: [Oscillation] = []

    public init(rest: SIMD3<Double>) { self.rest = rest }

    public func position(_ t: Double) -> SIMD3<Double> {
        var p = rest
        for move in moves { p += move.offset(t) }
        for o in oscillations { p += o.offset(t) }
        return p
    }
}

/// `amplitude · sin²(π · frequency · (t − start))` along `direction` for whole cycles from `start`:
/// it starts and ends at rest with no jump in speed; fastest at `amplitude · π · frequency`.
public struct Oscillation: Sendable {
    public var start: Double
    public var cycles: Int
    public var frequency: Double
    public var amplitude: Double
    public var direction: SIMD3<Double>

    public init(start: Double, cycles: Int, frequency: Double, amplitude: Double, direction: SIMD3<Double>) {
        (self.start, self.cycles, self.frequency, self.amplitude, self.direction) = (start, cycles, frequency, amplitude, direction)
    }

    public var end: Double { start + Double(cycles) / frequency }

    public func offset(_ t: Double) -> SIMD3<Double> {
        guard t > start, t < end else { return .zero }
        let s = sin(Double.pi * frequency * (t - start))
        return amplitude * s * s * direction
    }
}
