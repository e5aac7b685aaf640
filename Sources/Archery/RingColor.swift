/// A pixel's colour class. The zones from the centre out: gold (10, 9), red (8, 7), blue (6, 5),
/// black (4, 3), white (2, 1); `other` is anything else (the boss, a wall, a shaft).
enum RingColor: UInt8, Sendable {
    case gold = 0, red, blue, black, white, other

    /// Thresholds on value (max channel) and saturation ((max − min) / max), so a photo two stops
    /// darker or brighter keeps its labels; hue only where the saturation says there is one.
    @inline(__always) static func classify(_ r: Int, _ g: Int, _ b: Int) -> RingColor {
        let high = max(r, g, b), low = min(r, g, b)
        if high < 75 { return .black }
        let chroma = high - low
        // Saturation < 0.22 and bright: white paper under any light we accept.
        if chroma * 100 < high * 22 { return high >= 130 ? .white : .other }
        guard chroma * 100 >= high * 45 else { return .other }
        // Hue in degrees, 0..<360.
        let hue: Int
        if high == r {
            hue = (60 * (g - b) / chroma + 360) % 360
        } else if high == g {
            hue = 60 * (b - r) / chroma + 120
        } else {
            hue = 60 * (r - g) / chroma + 240
        }
        if hue < 22 || hue > 330 { return .red }
        if hue >= 36 && hue <= 72 { return .gold }
        if hue >= 175 && hue <= 255 { return .blue }
        return .other
    }
}
