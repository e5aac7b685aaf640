import Foundation

/// An arrow in the face, or the hole one left.
public struct SceneArrow: Sendable, Equatable {
    /// Impact in face coordinates (face radii, y up).
    public var x: Double
    public var y: Double
    /// How far the shaft leans from the face's normal, and toward which direction on the face
    /// (0° = +x, counter-clockwise).
    public var tiltDegrees: Double
    public var tiltDirectionDegrees: Double
    /// Visible shaft length, face radii.
    public var length: Double
    public var shaft: ArcheryColor
    public var fletching: ArcheryColor
    /// Only a hole: the arrow has been pulled.
    public var isHole: Bool

    public init(x: Double, y: Double, tiltDegrees: Double = 12, tiltDirectionDegrees: Double = 60, length: Double = 0.8,
                shaft: ArcheryColor = .silver, fletching: ArcheryColor = ArcheryColor(40, 200, 60), isHole: Bool = false) {
        (self.x, self.y, self.tiltDegrees, self.tiltDirectionDegrees, self.length) = (x, y, tiltDegrees, tiltDirectionDegrees, length)
        (self.shaft, self.fletching, self.isHole) = (shaft, fletching, isHole)
    }

    /// The shaft's axis from the impact outward (unit, +z toward the archer).
    var direction: SIMD3<Double> {
        let tilt = tiltDegrees * .pi / 180, turn = tiltDirectionDegrees * .pi / 180
        return SIMD3(sin(tilt) * cos(turn), sin(tilt) * sin(turn), cos(tilt))
    }
}
