/// A camera beside the court, square to the line from the shooter to the hoop: world feet
/// (x: horizontal distance from the rim's centre toward the shooter, y: height above the floor) map
/// to image pixels by one scale, so the rim, the ball and the release point lie in one plane, as the
/// analysis assumes. The hoop is at the right, the shooter to its left.
public struct CourtView: Sendable {
    public let width: Int
    public let height: Int
    /// Pixels per foot: 3% of the width, so a 24 ft shot and its 16 ft apex fit a 16:9 frame.
    public let scale: Double
    let rimCentreX: Double
    let floorY: Double

    public init(width: Int, height: Int) {
        (self.width, self.height) = (width, height)
        scale = 0.03 * Double(width)
        rimCentreX = 0.82 * Double(width)
        floorY = Double(height) - 0.05 * Double(height)
    }

    public func image(x: Double, y: Double) -> (x: Double, y: Double) {
        (rimCentreX - x * scale, floorY - y * scale)
    }

    /// The rim's two ends in the image: what a person would give as the `hoop` option.
    public var rimLeft: (x: Double, y: Double) { image(x: Court.rimHalfWidth, y: Court.rimHeight) }
    public var rimRight: (x: Double, y: Double) { image(x: -Court.rimHalfWidth, y: Court.rimHeight) }
}

/// Court and ball sizes in feet.
public enum Court {
    public static let rimHeight = 10.0
    public static let rimHalfWidth = 0.75
    public static let ballRadius = 9.4 / 12 / 2
    /// The board's face, behind the rim (a rim's centre is 15 in from the board).
    static let boardX = -1.25
    static let boardBottom = 9.5
    static let boardTop = 13.0
    static let netDepth = 1.5
    static let netBottomHalfWidth = 0.45
    /// FIBA's three-point distance, the analysis's default.
    public static let threePointDistanceFt = 22.15
}
