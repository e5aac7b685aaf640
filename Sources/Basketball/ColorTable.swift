import ReelworkCore
import SportMath

/// Which 8-bit RGB colours are ball, rim orange or backboard white, computed once per job so the
/// per-pixel test is one table load instead of an HSV conversion (Bowling's ColorLookupTable:
/// 6 bits a channel, each bin judged by its centre colour).
final class ColorTable {
    static var ballBit: UInt8 { 1 }
    static var rimBit: UInt8 { 2 }
    static var whiteBit: UInt8 { 4 }
    static var entries: Int { 1 << 18 }
    /// Rims are painted orange; the finder looks for this whatever the ball's colour is.
    static let rimOrange = HSVColor(h: 18, s: 80, v: 75)

    let bits = FixedBuffer<UInt8>(count: ColorTable.entries, repeating: 0)

    init(ball: HSVColor, hueTolerance: Double) {
        for index in 0..<Self.entries {
            let color = HSVColor(red: UInt8(((index >> 12) & 63) << 2 | 2), green: UInt8(((index >> 6) & 63) << 2 | 2),
                                 blue: UInt8((index & 63) << 2 | 2))
            var value: UInt8 = 0
            if color.isBallColor(ball, hueTolerance: hueTolerance) { value |= Self.ballBit }
            if color.matches(Self.rimOrange, hueTolerance: 20) { value |= Self.rimBit }
            if color.isWhite { value |= Self.whiteBit }
            bits[index] = value
        }
    }

    /// Masking shifts (&>>, &<<): Swift's plain shifts check the amount on every pixel.
    @inline(__always) func lookup(_ pixel: UnsafePointer<UInt8>) -> UInt8 {
        bits[Int(truncatingIfNeeded: pixel[0] &>> 2) &<< 12 | Int(truncatingIfNeeded: pixel[1] &>> 2) &<< 6
            | Int(truncatingIfNeeded: pixel[2] &>> 2)]
    }
}

private extension HSVColor {
    /// The backboard: bright and nearly grey.
    var isWhite: Bool { s <= 25 && v >= 70 }

    /// The ball's colour under the light of any hall: the hue stays, but the ball's shaded half,
    /// a dim gym and a phone's exposure lower the value far more than any light raises it, and
    /// highlights and compression wash some saturation out. A dark pixel's hue is less sure (a
    /// step of noise in a small channel turns it far), so the hue may stray further as the value
    /// falls; below a floor of saturation and value a hue means nothing. Scenery of this colour is
    /// left out by the blob finder's motion test, not here.
    func isBallColor(_ ball: HSVColor, hueTolerance: Double) -> Bool {
        let darkness = max(0, min(1, (Self.darkValue - v) / (Self.darkValue - Self.valueFloor)))
        return hueDistance(to: ball) <= hueTolerance * (1 + darkness) && s >= max(30, ball.s - 45)
            && v >= max(Self.valueFloor, 0.2 * ball.v)
    }

    /// Below this value a pixel's hue begins to stray; at `valueFloor` it may stray twice as far.
    static var darkValue: Double { 40 }
    static var valueFloor: Double { 12 }
}
