import ReelworkCore

/// A colour as the bowling options give one (seed 000): hue 0–360, saturation and value 0–100.
public struct BallColor: Sendable, Equatable {
    public var h: Double
    public var s: Double
    public var v: Double

    public init(h: Double, s: Double, v: Double) { (self.h, self.s, self.v) = (h, s, v) }

    /// 8-bit RGB to HSV, in the same scales.
    init(red: UInt8, green: UInt8, blue: UInt8) {
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

    /// Bowling's match (seed 003): hue within `hueTolerance` degrees the short way round,
    /// saturation and value within 30 points.
    func matches(_ other: BallColor, hueTolerance: Double) -> Bool {
        let rawHue = abs(h - other.h).truncatingRemainder(dividingBy: 360)
        let hueDistance = min(rawHue, 360 - rawHue)
        return hueDistance <= hueTolerance && abs(s - other.s) <= 30 && abs(v - other.v) <= 30
    }

    /// The backboard: bright and nearly grey.
    var isWhite: Bool { s <= 25 && v >= 70 }

    /// Reads `{h, s, v}` at option path `name`, or throws `.invalidInput` naming the bad part.
    static func parse(_ value: JSONValue?, name: String) throws -> BallColor {
        guard case .object? = value, let value else {
            throw ReelworkError.invalidInput("option \(name) must be an object {\"h\": 0-360, \"s\": 0-100, \"v\": 0-100}")
        }
        return BallColor(h: try OptionReader.number(value["h"], name: "\(name).h", in: 0...360),
                         s: try OptionReader.number(value["s"], name: "\(name).s", in: 0...100),
                         v: try OptionReader.number(value["v"], name: "\(name).v", in: 0...100))
    }
}
