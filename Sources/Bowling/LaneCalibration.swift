import Foundation
import ReelworkCore
import SportMath

/// Image pixels ↔ lane coordinates: boards (DOMAIN: right edge 0.5, left edge 39.5, counted from the
/// right gutter as a right-hander sees it from behind) and feet past the foul line.
public struct LaneCalibration: Sendable {
    enum Model: Sendable {
        /// Seed 000's `CalibrationProfile`: no perspective, a fixed scale in each direction.
        case flat(foulLineY: Double, pixelsPerFoot: Double, leftGutterX: Double, rightGutterX: Double)
        /// Four image points of the lane's edges: `toLane` maps pixels to (board, feet).
        case perspective(toLane: Homography, toImage: Homography)
    }

    let model: Model
    /// Image points of the foul line's left and right ends (must be inside the frame).
    let foulLineEnds: [(x: Double, y: Double)]
    /// How far down the lane the calibration (and so the searched region) reaches.
    let farDistanceFt: Double

    static let pinsDistanceFt = 60.0
    static let arrowsDistanceFt = 15.0
    static let leftEdgeBoard = 39.5
    static let rightEdgeBoard = 0.5
    /// seed 003 `CalibrationValidation`.
    static let minFoulLineWidth = 50.0
    static let maxPerspectiveRatio = 3.0

    /// (board, distanceFt) of image point (x, y); nil where the calibration has no answer
    /// (beyond a perspective view's horizon).
    public func lanePoint(x: Double, y: Double) -> (board: Double, distanceFt: Double)? {
        switch model {
        case let .flat(foulLineY, pixelsPerFoot, left, right):
            return (0.5 + 39 * (right - x) / (right - left), (foulLineY - y) / pixelsPerFoot)
        case let .perspective(toLane, _):
            // Points past the horizon map to plausible-looking numbers with the wrong sign of w.
            guard toLane.w(x, y) * toLane.w(foulLineEnds[0].x, foulLineEnds[0].y) > 0,
                  let p = toLane.apply(x, y) else { return nil }
            return (p.x, p.y)
        }
    }

    /// The image pixel of lane point (board, distanceFt); nil beyond the horizon.
    public func imagePoint(board: Double, distanceFt: Double) -> (x: Double, y: Double)? {
        switch model {
        case let .flat(foulLineY, pixelsPerFoot, left, right):
            return (right - (board - 0.5) / 39 * (right - left), foulLineY - distanceFt * pixelsPerFoot)
        case let .perspective(toLane, toImage):
            guard let p = toImage.apply(board, distanceFt), toLane.w(p.x, p.y) * toLane.w(foulLineEnds[0].x, foulLineEnds[0].y) > 0
            else { return nil }
            return p
        }
    }

    /// A bowling ball's radius (4.25 in, DOMAIN) in boards: boards are 41.5 / 39 in wide.
    static let ballRadiusBoards = 4.25 / (41.5 / 39)

    /// The image radius in pixels of a ball touching the lane at image point (x, y): the lane's
    /// horizontal scale there times the ball's size. Nil beyond the horizon, and for a flat
    /// calibration: it describes a view without perspective, where the ball keeps one size and the
    /// blob's own radius serves.
    func ballRadiusPixels(x: Double, y: Double) -> Double? {
        if case .flat = model { return nil }
        guard let lane = lanePoint(x: x, y: y),
              let left = imagePoint(board: lane.board + Self.ballRadiusBoards, distanceFt: lane.distanceFt),
              let right = imagePoint(board: lane.board - Self.ballRadiusBoards, distanceFt: lane.distanceFt) else { return nil }
        return ((left.x - right.x) * (left.x - right.x) + (left.y - right.y) * (left.y - right.y)).squareRoot() / 2
    }

    /// Throws `.needsPerson` ("Foul line not visible…") unless both foul line ends are inside a
    /// `width` × `height` frame.
    func checkVisible(width: Int, height: Int) throws {
        let inside = foulLineEnds.allSatisfy { p in
            p.x >= -1 && p.x <= Double(width) + 1 && p.y >= -1 && p.y <= Double(height) + 1
        }
        if !inside { throw ReelworkError.needsPerson(BowlingMessages.foulLineNotVisible) }
    }
}

extension LaneCalibration {
    /// `calibration` option: absent/null → nil; `{"lanePoints": …}` → perspective; otherwise seed
    /// 000's flat fields. Malformed → `.invalidInput`; geometry that cannot be a lane → `.needsPerson`.
    static func parse(_ value: JSONValue?) throws -> LaneCalibration? {
        switch value {
        case nil, .null?: return nil
        case .object(let fields)?:
            if let points = fields["lanePoints"] {
                try OptionKeys.check(value, known: ["lanePoints"], path: "calibration")
                return try parseLanePoints(points)
            }
            return try parseFlat(value ?? .null)
        default:
            throw ReelworkError.invalidInput("option calibration must be an object: seed 000's CalibrationProfile fields or {\"lanePoints\": {...}}")
        }
    }

    static func parseFlat(_ value: JSONValue) throws -> LaneCalibration {
        try OptionKeys.check(value, known: ["pixelsPerFoot", "pixelsPerBoard", "foulLineY", "arrowsY", "leftGutterX", "rightGutterX",
                                            "cameraHeightFt", "cameraAngleDeg"], path: "calibration")
        let pixelsPerFoot = try OptionReader.positive(value["pixelsPerFoot"], name: "calibration.pixelsPerFoot")
        let pixelsPerBoard = try OptionReader.positive(value["pixelsPerBoard"], name: "calibration.pixelsPerBoard")
        let foulLineY = try OptionReader.finite(value["foulLineY"], name: "calibration.foulLineY")
        let arrowsY = try OptionReader.finite(value["arrowsY"], name: "calibration.arrowsY")
        let left = try OptionReader.finite(value["leftGutterX"], name: "calibration.leftGutterX")
        let right = try OptionReader.finite(value["rightGutterX"], name: "calibration.rightGutterX")
        _ = try OptionReader.optionalFinite(value["cameraHeightFt"], name: "calibration.cameraHeightFt")
        _ = try OptionReader.optionalFinite(value["cameraAngleDeg"], name: "calibration.cameraAngleDeg")

        let width = right - left
        // The arrows lie down-lane of (above) the foul line; pixelsPerBoard must roughly agree with
        // the gutters (within a factor of two: seed 000 leaves its exact derivation open).
        let boardsScale = width / 39 / pixelsPerBoard
        guard width >= minFoulLineWidth, arrowsY < foulLineY, boardsScale > 0.5, boardsScale < 2 else {
            throw ReelworkError.needsPerson(BowlingMessages.invalidCalibration)
        }
        return LaneCalibration(model: .flat(foulLineY: foulLineY, pixelsPerFoot: pixelsPerFoot, leftGutterX: left, rightGutterX: right),
                               foulLineEnds: [(left, foulLineY), (right, foulLineY)], farDistanceFt: pinsDistanceFt)
    }

    static func parseLanePoints(_ value: JSONValue) throws -> LaneCalibration {
        guard case .object = value else {
            throw ReelworkError.invalidInput("option calibration.lanePoints must be an object {foulLineLeft, foulLineRight, farLeft, farRight, farDistanceFt}")
        }
        try OptionKeys.check(value, known: ["foulLineLeft", "foulLineRight", "farLeft", "farRight", "farDistanceFt"], path: "calibration.lanePoints")
        let foulLeft = try OptionReader.point(value["foulLineLeft"], name: "calibration.lanePoints.foulLineLeft")
        let foulRight = try OptionReader.point(value["foulLineRight"], name: "calibration.lanePoints.foulLineRight")
        let farLeft = try OptionReader.point(value["farLeft"], name: "calibration.lanePoints.farLeft")
        let farRight = try OptionReader.point(value["farRight"], name: "calibration.lanePoints.farRight")
        var far = pinsDistanceFt
        if let given = value["farDistanceFt"], given != .null {
            far = try OptionReader.number(given, name: "calibration.lanePoints.farDistanceFt", in: 1...100)
        }
        let invalid = ReelworkError.needsPerson(BowlingMessages.invalidCalibration)

        let foulWidth = hypot(foulRight.x - foulLeft.x, foulRight.y - foulLeft.y)
        // Left is left, and the far line lies up the image from the foul line.
        guard foulWidth >= minFoulLineWidth, foulLeft.x < foulRight.x, farLeft.x < farRight.x,
              farLeft.y < foulLeft.y, farRight.y < foulRight.y else { throw invalid }
        // A convex, uncrossed quadrilateral: every turn along its edges has the same sign.
        let corners = [foulLeft, foulRight, farRight, farLeft]
        var turns = [Double]()
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4], c = corners[(i + 2) % 4]
            turns.append((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x))
        }
        guard turns.allSatisfy({ $0 > 0 }) || turns.allSatisfy({ $0 < 0 }) else { throw invalid }

        let lane: [(x: Double, y: Double)] = [(leftEdgeBoard, 0), (rightEdgeBoard, 0), (rightEdgeBoard, far), (leftEdgeBoard, far)]
        guard let toLane = Homography.fitting(from: corners, to: lane), let toImage = toLane.inverse else { throw invalid }
        let calibration = LaneCalibration(model: .perspective(toLane: toLane, toImage: toImage),
                                          foulLineEnds: [foulLeft, foulRight], farDistanceFt: far)

        // Seed 003's maxPerspectiveRatio is a "width ratio far/near". With four lane points we read
        // it as the lane's image width at the foul line over its image width at the arrows (15 ft):
        // a camera far off to the side or too low squeezes the arrows, pushing the ratio past 3.
        // A far end wider than the near end cannot be a lane seen from behind the bowler.
        guard let arrowLeft = calibration.imagePoint(board: leftEdgeBoard, distanceFt: arrowsDistanceFt),
              let arrowRight = calibration.imagePoint(board: rightEdgeBoard, distanceFt: arrowsDistanceFt) else { throw invalid }
        let arrowsWidth = hypot(arrowRight.x - arrowLeft.x, arrowRight.y - arrowLeft.y)
        guard arrowsWidth > 0 else { throw invalid }
        let ratio = foulWidth / arrowsWidth
        guard ratio >= 0.95 else { throw invalid }
        guard ratio <= maxPerspectiveRatio else { throw ReelworkError.needsPerson(BowlingMessages.extremeCameraAngle) }
        return calibration
    }
}

extension LaneCalibration {
    /// A ball's diameter, 8.5 in, in boards (41.5/39 in each).
    static let ballDiameterBoards = 8.5 / (41.5 / 39)

    /// The image polygon searched for the ball: the lane from just behind the foul line to the far
    /// line, widened by a ball radius (≈ 4 boards) at each gutter so a ball riding the edge is still
    /// seen, and raised at the far end by one and a half ball diameters (as wide as the lane shows a
    /// ball there), because the ball's blob sits above its contact point and, seen from a low camera,
    /// a ball near the pins covers many feet of lane.
    func searchPolygon() -> [(x: Double, y: Double)] {
        let margin = 4.5
        let left = LaneCalibration.leftEdgeBoard + margin, right = LaneCalibration.rightEdgeBoard - margin
        guard let nearLeft = imagePoint(board: left, distanceFt: -1), let nearRight = imagePoint(board: right, distanceFt: -1),
              let farLeft = imagePoint(board: left, distanceFt: farDistanceFt),
              let farRight = imagePoint(board: right, distanceFt: farDistanceFt),
              let ballLeft = imagePoint(board: 20 + LaneCalibration.ballDiameterBoards / 2, distanceFt: farDistanceFt),
              let ballRight = imagePoint(board: 20 - LaneCalibration.ballDiameterBoards / 2, distanceFt: farDistanceFt)
        else { return [] }
        let raise = 1.5 * ((ballRight.x - ballLeft.x) * (ballRight.x - ballLeft.x) + (ballRight.y - ballLeft.y) * (ballRight.y - ballLeft.y)).squareRoot()
        return [nearLeft, nearRight, (farRight.x, farRight.y - raise), (farLeft.x, farLeft.y - raise)]
    }
}
