import ReelworkCore

/// The rim as seen: the image pixels of its two ends. A rim is 18 in across (DOMAIN.md), so the
/// distance between the ends is the scale in the rim's plane.
public struct RimLine: Sendable, Equatable {
    public static let rimWidthFt = 1.5
    /// A basketball is about 9.4 in across: 0.26 of the rim's width in radius.
    static let ballRadiusOverRimWidth = 9.4 / 18 / 2
    /// Shorter rims cannot give a usable scale (a 2 px error would be 25%).
    public static let minimumWidthPixels = 8.0

    public var left: FramePoint
    public var right: FramePoint

    public init(left: FramePoint, right: FramePoint) {
        // The left end is the one with the smaller x, whichever way round the option gave them.
        if left.x <= right.x { (self.left, self.right) = (left, right) } else { (self.left, self.right) = (right, left) }
    }

    public var centre: FramePoint { FramePoint(x: (left.x + right.x) / 2, y: (left.y + right.y) / 2) }
    public var widthPixels: Double { ((right.x - left.x) * (right.x - left.x) + (right.y - left.y) * (right.y - left.y)).squareRoot() }
    public var pixelsPerFoot: Double { widthPixels / Self.rimWidthFt }
    var expectedBallRadius: Double { widthPixels * Self.ballRadiusOverRimWidth }

    /// The rim's height (image y) at column `x`, on the line through both ends.
    func y(atX x: Double) -> Double {
        let dx = right.x - left.x
        guard dx > 0 else { return centre.y }
        return left.y + (x - left.x) / dx * (right.y - left.y)
    }

    /// Throws `.invalidInput` naming `hoop` when an end lies outside a `width` × `height` frame.
    func checkInside(width: Int, height: Int) throws {
        for (name, point) in [("rimLeft", left), ("rimRight", right)] {
            guard point.x >= 0, point.y >= 0, point.x <= Double(width - 1), point.y <= Double(height - 1) else {
                throw ReelworkError.invalidInput("option hoop.\(name) [\(CSV.number(point.x)), \(CSV.number(point.y))] is outside the \(width)×\(height) frame")
            }
        }
    }
}

/// Bounds on sizes from outside: no frame side beyond this is analysed (the buffers are per cell).
enum InputBounds {
    static let maxSide = 16384
}
