import ReelworkCore
import SportMath

/// Seed 000's `BallProfile`, the part detection needs: the ball's colour, how far pixels may stray
/// from it in hue, and the PAP marker's colour for rev rate.
public struct BallProfile: Sendable, Equatable {
    public var color: HSVColor
    /// Hue tolerance in degrees (seed 003 `hsvTolerance`).
    public var colorTolerance: Double
    public var markerColor: HSVColor?

    public init(color: HSVColor, colorTolerance: Double = 15, markerColor: HSVColor? = nil) {
        (self.color, self.colorTolerance, self.markerColor) = (color, colorTolerance, markerColor)
    }

    static func parse(_ value: JSONValue?) throws -> BallProfile {
        guard case .object? = value, let value else {
            throw ReelworkError.invalidInput("option ballProfile must be an object with color {\"h\", \"s\", \"v\"}")
        }
        try OptionKeys.check(value, known: ["color", "colorTolerance", "markerColor"], path: "ballProfile")
        let color = try HSVColor.parse(value["color"], name: "ballProfile.color")
        var tolerance = 15.0
        if let given = value["colorTolerance"], given != .null {
            // Beyond 180° every hue would match.
            tolerance = try OptionReader.number(given, name: "ballProfile.colorTolerance", in: 0...180)
        }
        var marker: HSVColor?
        if let given = value["markerColor"], given != .null {
            marker = try HSVColor.parse(given, name: "ballProfile.markerColor")
        }
        return BallProfile(color: color, colorTolerance: tolerance, markerColor: marker)
    }
}
