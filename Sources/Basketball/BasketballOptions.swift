import ReelworkCore
import SportMath

/// A job's basketball options: `hoop` {`rimLeft`: [x, y], `rimRight`: [x, y]} (optional: found in the
/// first frames when absent), `ballColor` {h 0–360, s 0–100, v 0–100} (default an orange ball),
/// `ballColorTolerance` (hue degrees, default 15), `threePointDistanceFt` (default 22.15, FIBA).
public struct BasketballOptions: Sendable, Equatable {
    public static let defaultBallColor = HSVColor(h: 22, s: 80, v: 80)
    public static let defaultThreePointDistanceFt = 22.15

    public var hoop: RimLine?
    public var ballColor: HSVColor
    public var ballColorTolerance: Double
    public var threePointDistanceFt: Double

    public init(hoop: RimLine? = nil, ballColor: HSVColor = defaultBallColor, ballColorTolerance: Double = 15,
                threePointDistanceFt: Double = defaultThreePointDistanceFt) {
        (self.hoop, self.ballColor, self.ballColorTolerance, self.threePointDistanceFt) =
            (hoop, ballColor, ballColorTolerance, threePointDistanceFt)
    }

    /// FIBA 22.15 ft, NBA 23.75, US high school 19.75; outside this range it is a typing mistake (metres, inches).
    static let threePointRange = 15.0...30.0

    /// Throws `ReelworkError.invalidInput` naming the option and the problem (tennis's conventions:
    /// every number finite and in range, every message naming the option). Whether the hoop lies
    /// inside the frame is checked when the tracker is created (the frame size is known then).
    public static func parse(_ options: JSONValue) throws -> BasketballOptions {
        switch options {
        case .object, .null: break
        default: throw ReelworkError.invalidInput("basketball options must be an object")
        }
        try OptionKeys.check(options, known: ["hoop", "ballColor", "ballColorTolerance", "threePointDistanceFt"], sport: .basketball)
        var parsed = BasketballOptions()
        if let hoop = options["hoop"], hoop != .null { parsed.hoop = try parseHoop(hoop) }
        if let color = options["ballColor"], color != .null { parsed.ballColor = try HSVColor.parse(color, name: "ballColor") }
        if let tolerance = options["ballColorTolerance"], tolerance != .null {
            // Beyond 90° the rim's orange, the skin and the wood all match.
            parsed.ballColorTolerance = try OptionReader.number(tolerance, name: "ballColorTolerance", in: 1...90)
        }
        if let distance = options["threePointDistanceFt"], distance != .null {
            parsed.threePointDistanceFt = try OptionReader.number(distance, name: "threePointDistanceFt", in: threePointRange)
        }
        return parsed
    }

    static func parseHoop(_ value: JSONValue) throws -> RimLine {
        guard case .object = value else {
            throw ReelworkError.invalidInput("option hoop must be an object {\"rimLeft\": [x, y], \"rimRight\": [x, y]}")
        }
        try OptionKeys.check(value, known: ["rimLeft", "rimRight"], path: "hoop")
        let left = try OptionReader.point(value["rimLeft"], name: "hoop.rimLeft")
        let right = try OptionReader.point(value["rimRight"], name: "hoop.rimRight")
        for (name, p) in [("rimLeft", left), ("rimRight", right)] where p.x < 0 || p.y < 0 || p.x > Double(InputBounds.maxSide) || p.y > Double(InputBounds.maxSide) {
            throw ReelworkError.invalidInput("option hoop.\(name) must be inside the frame, not [\(CSV.number(p.x)), \(CSV.number(p.y))]")
        }
        let rim = RimLine(left: FramePoint(x: left.x, y: left.y), right: FramePoint(x: right.x, y: right.y))
        guard rim.widthPixels >= RimLine.minimumWidthPixels else {
            throw ReelworkError.invalidInput("option hoop: rimLeft and rimRight must be at least \(Int(RimLine.minimumWidthPixels)) pixels apart (the rim's two ends)")
        }
        // A rim seen from the side-ish is a flat ellipse: its ends are nearly level.
        guard abs(rim.right.y - rim.left.y) <= (rim.right.x - rim.left.x) else {
            throw ReelworkError.invalidInput("option hoop: rimLeft and rimRight must be the rim's left and right ends (nearly level), not points above each other")
        }
        return rim
    }
}
