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

    /// Six arrows, none within 0.015 face radii of a line: X, 9, 8, 6, 4, 1 (total 38). Their
    /// shafts show 0.55 face radii (34 cm of a 122 cm face) and lean different ways, so that from
    /// 35° no shaft lies along or across another's. The end the tests, the sample photo and the
    /// server's tests share.
    public static let sixArrows: [SceneArrow] = [
        SceneArrow(x: 0.02, y: 0.015, tiltDegrees: 10, tiltDirectionDegrees: 150, length: 0.55),
        SceneArrow(x: 0.16, y: -0.05, tiltDegrees: 12, tiltDirectionDegrees: 300, length: 0.55, fletching: ArcheryColor(230, 120, 20)),
        SceneArrow(x: -0.2, y: 0.18, tiltDegrees: 8, tiltDirectionDegrees: 120, length: 0.55),
        SceneArrow(x: 0.3, y: 0.38, tiltDegrees: 12, tiltDirectionDegrees: 20, length: 0.55, fletching: ArcheryColor(200, 40, 200)),
        SceneArrow(x: -0.45, y: -0.5, tiltDegrees: 10, tiltDirectionDegrees: 200, length: 0.55),
        SceneArrow(x: 0.55, y: -0.8, tiltDegrees: 15, tiltDirectionDegrees: 330, length: 0.55, fletching: ArcheryColor(230, 120, 20)),
    ]

    /// The shaft's axis from the impact outward (unit, +z toward the archer).
    var direction: SIMD3<Double> {
        let tilt = tiltDegrees * .pi / 180, turn = tiltDirectionDegrees * .pi / 180
        return SIMD3(sin(tilt) * cos(turn), sin(tilt) * sin(turn), cos(tilt))
    }
}
