import Foundation

/// An 8-bit RGB colour as written into rgb24 frames.
public struct RGBColor: Equatable, Hashable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
}

/// A colour of the rendered scene in HSV as the bowling options give it: hue 0–360, saturation and
/// value 0–100. Encodes as `{"h", "s", "v"}`, the shape of `ballProfile.color`. (Not named HSVColor:
/// SportMath has one, and BowlingTests imports both modules.)
public struct SceneColor: Equatable, Sendable, Codable {
    public var h: Double
    public var s: Double
    public var v: Double

    public init(h: Double, s: Double, v: Double) {
        self.h = h
        self.s = s
        self.v = v
    }

    public static let deepBlue = SceneColor(h: 220, s: 80, v: 70)
    /// Hue 0: a detector must wrap hue ± tolerance around 360.
    public static let red = SceneColor(h: 0, s: 85, v: 75)
    public static let purple = SceneColor(h: 280, s: 65, v: 60)
    public static let yellow = SceneColor(h: 55, s: 90, v: 95)
    public static let white = SceneColor(h: 0, s: 0, v: 97)

    public var rgb: RGBColor {
        let hue = (h.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        let value = v / 100, chroma = value * s / 100
        let sector = hue / 60
        let second = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch Int(sector) {
        case 0: (r, g, b) = (chroma, second, 0)
        case 1: (r, g, b) = (second, chroma, 0)
        case 2: (r, g, b) = (0, chroma, second)
        case 3: (r, g, b) = (0, second, chroma)
        case 4: (r, g, b) = (second, 0, chroma)
        default: (r, g, b) = (chroma, 0, second)
        }
        let m = value - chroma
        func byte(_ c: Double) -> UInt8 { UInt8(max(0, min(255, ((c + m) * 255).rounded()))) }
        return RGBColor(byte(r), byte(g), byte(b))
    }

    public init(_ rgb: RGBColor) {
        let r = Double(rgb.r) / 255, g = Double(rgb.g) / 255, b = Double(rgb.b) / 255
        let high = max(r, g, b), low = min(r, g, b), chroma = high - low
        var hue = 0.0
        if chroma > 0 {
            if high == r { hue = 60 * ((g - b) / chroma) } else if high == g { hue = 60 * ((b - r) / chroma + 2) } else { hue = 60 * ((r - g) / chroma + 4) }
            if hue < 0 { hue += 360 }
        }
        self.init(h: hue, s: high > 0 ? chroma / high * 100 : 0, v: high * 100)
    }

    /// Hue difference in degrees on the colour wheel (0–180), wrapping at 360.
    public func hueDistance(to other: SceneColor) -> Double {
        let d = abs(h - other.h).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }
}
