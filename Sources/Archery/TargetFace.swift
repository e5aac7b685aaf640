import SportMath

/// The target face found in a photo.
public struct TargetFace: Sendable, Equatable {
    /// Image pixels of the face's true centre (the homography's, not an ellipse's centre).
    public var centerX: Double
    public var centerY: Double
    /// The face's radius in pixels as if seen straight on: √(area of the face's image / π).
    public var radiusPx: Double
    /// How many of the five colour boundaries (gold/red, red/blue, blue/black, black/white, the
    /// white's outer edge) were traced and fitted.
    public var ringsFound: Int
    /// Image pixels → normalised face coordinates (centre 0, face radius 1, x right, y down, as seed
    /// 002's screen coordinates), row-major, h[8] = 1. The face's "up" (−y) is the direction that
    /// looks straight up in the photo at the centre.
    public var homography: [Double]
    /// Root-mean-square distance of the fitted boundary points from their rings, in pixels.
    public var fitErrorPx: Double

    public init(centerX: Double, centerY: Double, radiusPx: Double, ringsFound: Int, homography: [Double], fitErrorPx: Double) {
        (self.centerX, self.centerY, self.radiusPx, self.ringsFound) = (centerX, centerY, radiusPx, ringsFound)
        (self.homography, self.fitErrorPx) = (homography, fitErrorPx)
    }

    /// Normalised face coordinates of an image point; nil on the horizon of the face's plane.
    public func faceCoordinates(pixelX: Double, pixelY: Double) -> (x: Double, y: Double)? {
        Homography(h: homography).apply(pixelX, pixelY)
    }

    /// How far from the face's centre an image point lies, in face radii; nil on the horizon.
    public func radius(pixelX: Double, pixelY: Double) -> Double? {
        faceCoordinates(pixelX: pixelX, pixelY: pixelY).map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
    }

    /// The image point of a point in normalised face coordinates; nil when it has no image.
    public func pixel(faceX: Double, faceY: Double) -> (x: Double, y: Double)? {
        Homography(h: homography).inverse?.apply(faceX, faceY)
    }
}
