import ReelworkCore
import SportMath

/// Reads and checks the job options the basketball stages use (TennisOptionsParser's conventions:
/// every number finite and in range, every message naming the option).
enum BasketballOptionsParser {
    /// FIBA 22.15 ft, NBA 23.75, US high school 19.75; outside this range it is a typing mistake (metres, inches).
    static let threePointRange = 15.0...30.0

    static func parse(_ options: JSONValue) throws -> BasketballOptions {
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
