import Foundation

/// A point in lane coordinates, in feet: `x` across the lane from its right edge (board 0.5 side, as
/// seen from behind the bowler) toward the left edge, `y` up from the lane surface, `z` down-lane from
/// the foul line. This is the frame the renderer's ground truth is defined in.
public struct LaneCoordinate: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point on the lane surface (y = 0) on `board` at `distanceFt` past the foul line.
    public static func onLane(board: Double, distanceFt: Double, height: Double = 0) -> LaneCoordinate {
        LaneCoordinate(x: LaneGeometry.x(ofBoard: board), y: height, z: distanceFt)
    }

    static func - (a: LaneCoordinate, b: LaneCoordinate) -> LaneCoordinate {
        LaneCoordinate(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z)
    }

    func dot(_ other: LaneCoordinate) -> Double { x * other.x + y * other.y + z * other.z }

    func cross(_ o: LaneCoordinate) -> LaneCoordinate {
        LaneCoordinate(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
    }

    var normalized: LaneCoordinate {
        let length = dot(self).squareRoot()
        return LaneCoordinate(x: x / length, y: y / length, z: z / length)
    }
}

/// A point in the image, in pixels: pixel column i / row j has its centre at (i, j), y grows downward.
/// (Centres on integers, so the mean of a blob's pixel indices lands on the projected centre.)
public struct ImagePoint: Equatable, Sendable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Encoded as `[x, y]`, the shape the bowling options' `lanePoints` use.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}

/// The bowling lane's dimensions (DOMAIN.md, "Bowling") and the board ↔ feet conversion.
public enum LaneGeometry {
    /// 41.5 in wide, edges on boards 0.5 (right) and 39.5 (left): 39 boards across.
    public static let widthFt = 41.5 / 12
    public static let boardWidthFt = widthFt / 39
    public static let rightEdgeBoard = 0.5
    public static let leftEdgeBoard = 39.5
    public static let gutterWidthFt = 9.25 / 12
    /// How far a ball in the gutter channel sits below a ball on the lane.
    public static let gutterDepthFt = 1.875 / 12
    public static let arrowDistanceFt = 15.0
    public static let arrowBoards: [Double] = [5, 10, 15, 20, 25, 30, 35]
    public static let pinsDistanceFt = 60.0
    /// Where the pin deck ends and the pit begins.
    public static let pinDeckEndFt = 63.2
    /// A ball's radius (8.5 in diameter); its centre rides this far above the lane.
    public static let ballRadiusFt = 4.25 / 12

    public static func x(ofBoard board: Double) -> Double { (board - rightEdgeBoard) * boardWidthFt }
    public static func board(atX x: Double) -> Double { rightEdgeBoard + x / boardWidthFt }

    /// The board of the gutter channel's middle on the right (board 0.5) or left side.
    public static func gutterCentreBoard(rightSide: Bool) -> Double {
        let halfGutterBoards = gutterWidthFt / 2 / boardWidthFt
        return rightSide ? rightEdgeBoard - halfGutterBoards : leftEdgeBoard + halfGutterBoards
    }

    /// The ten pin spots (board, distance): head pin on board 20 at 60 ft, rows 10.39 in apart,
    /// pins 12 in apart across.
    public static let pinSpots: [(board: Double, distanceFt: Double)] = {
        let spacingBoards = 1.0 / boardWidthFt  // 12 in
        let rowDepthFt = 10.392 / 12
        var spots: [(Double, Double)] = []
        for row in 0..<4 {
            for k in 0...row {
                let board = 20 + (Double(k) - Double(row) / 2) * spacingBoards
                spots.append((board, pinsDistanceFt + Double(row) * rowDepthFt))
            }
        }
        return spots
    }()
}
