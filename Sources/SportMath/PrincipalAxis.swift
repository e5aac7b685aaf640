import Foundation

/// The straight line that best fits a cloud of points in the plane (orthogonal least squares):
/// through their centroid, along the direction of their greatest spread. An arrow's shaft among its
/// pixels, for instance. No points give the origin and the x axis.
public struct PrincipalAxis: Sendable {
    public let centre: (x: Double, y: Double)
    /// The line's angle from the x axis, radians, in (−π/2, π/2].
    public let angle: Double

    public init(_ points: [(x: Double, y: Double)]) {
        let n = Double(max(1, points.count))
        let mx = points.reduce(0) { $0 + $1.x } / n, my = points.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in points {
            sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my)
        }
        centre = (mx, my)
        angle = 0.5 * atan2(2 * sxy, sxx - syy)
    }

    /// The unit vector along the line.
    public var axis: (x: Double, y: Double) { (cos(angle), sin(angle)) }
    /// The unit vector across it (the axis turned a quarter turn, x toward y).
    public var across: (x: Double, y: Double) { (-sin(angle), cos(angle)) }
}
