import ReelworkCore

/// A colour as the options give one (seed 000): hue 0–360, saturation and value 0–100. Bowling's
/// ball profile and basketball's ball colour use the same scales, conversion and match, so a colour
/// means the same in both sports' options.
public struct HSVColor: Sendable, Equatable {
    public var h: Double
    public var s: Double
    public var v: Double

    public init(h: Double, s: Double, v: Double) {
        (self.h, self.s, self.v) = (h, s, v)
    }

    /// 8-bit RGB to HSV, in the same scales as seed 000.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
        let maxC = max(r, g, b), minC = min(r, g, b), delta = maxC - minC
        var hue = 0.0
        if delta > 0 {
            if maxC == r { hue = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6) }
            else if maxC == g { hue = 60 * ((b - r) / delta + 2) }
            else { hue = 60 * ((r - g) / delta + 4) }
        }
        if hue < 0 { hue += 360 }
        self.init(h: hue, s: maxC > 0 ? delta / maxC * 100 : 0, v: maxC * 100)
    }

    /// Seed 003's match: hue within `hueTolerance` degrees (the short way round the circle, so 355
    /// matches 5), saturation and value within 30 points.
    public func matches(_ other: HSVColor, hueTolerance: Double) -> Bool {
        hueDistance(to: other) <= hueTolerance && abs(s - other.s) <= Self.saturationValueTolerance
            && abs(v - other.v) <= Self.saturationValueTolerance
    }

    /// Degrees between the two hues round the colour wheel, 0–180.
    public func hueDistance(to other: HSVColor) -> Double {
        let raw = abs(h - other.h).truncatingRemainder(dividingBy: 360)
        return min(raw, 360 - raw)
    }

    /// How far saturation and value may differ in a match (seed 003), in points of 0–100.
    public static let saturationValueTolerance = 30.0

    /// Reads `{h, s, v}` at option path `name`, or throws `.invalidInput` naming the bad part.
    public static func parse(_ value: JSONValue?, name: String) throws -> HSVColor {
        guard case .object? = value, let value else {
            throw ReelworkError.invalidInput("option \(name) must be an object {\"h\": 0-360, \"s\": 0-100, \"v\": 0-100}")
        }
        try OptionKeys.check(value, known: ["h", "s", "v"], path: name)
        return HSVColor(h: try OptionReader.number(value["h"], name: "\(name).h", in: 0...360),
                        s: try OptionReader.number(value["s"], name: "\(name).s", in: 0...100),
                        v: try OptionReader.number(value["v"], name: "\(name).v", in: 0...100))
    }
}
