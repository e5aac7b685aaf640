import Foundation

/// A point or a vector in frame pixels (y grows downward).
struct PixelPoint: Equatable, Sendable {
    var x: Double
    var y: Double

    static let zero = PixelPoint(x: 0, y: 0)

    static func + (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(x: a.x + b.x, y: a.y + b.y) }
    static func - (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(x: a.x - b.x, y: a.y - b.y) }
    static func * (a: PixelPoint, k: Double) -> PixelPoint { PixelPoint(x: a.x * k, y: a.y * k) }

    var length: Double { (x * x + y * y).squareRoot() }
    var isFinite: Bool { x.isFinite && y.isFinite }

    func midpoint(_ other: PixelPoint) -> PixelPoint { (self + other) * 0.5 }

    /// The vector's direction in degrees, in image coordinates.
    var angleDegrees: Double { atan2(y, x) * 180 / .pi }
}

/// Angle helpers for the metrics.
enum Angles {
    /// `degrees` wrapped into (−180, 180].
    static func wrapped(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }

    /// The unsigned angle (0–180°) between two vectors.
    static func between(_ a: PixelPoint, _ b: PixelPoint) -> Double {
        abs(wrapped(b.angleDegrees - a.angleDegrees))
    }
}

/// Order statistics.
enum Statistics {
    /// The median of `values` (nil when empty); the mean of the middle two for an even count.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
