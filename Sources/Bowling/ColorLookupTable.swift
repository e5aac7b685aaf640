import ReelworkCore
import SportMath

/// Which 8-bit RGB colours count as ball or marker, precomputed once per job so the per-pixel test
/// is one table load instead of an HSV conversion.
///
/// 2^18 entries: 6 bits per channel, each bin judged by its centre colour. Quantising to 6 bits moves
/// a colour by at most 2/255 per channel, well inside seed 003's tolerances (±15° hue, ±30 s/v).
final class ColorLookupTable {
    // Computed, not stored, and read once before a pixel loop, not in it.
    static var ballBit: UInt8 { 1 }
    static var markerBit: UInt8 { 2 }
    static var entries: Int { 1 << 18 }

    let bits = FixedBuffer<UInt8>(count: ColorLookupTable.entries, repeating: 0)

    init(profile: BallProfile) {
        for index in 0..<Self.entries {
            let red = UInt8(((index >> 12) & 63) << 2 | 2)
            let green = UInt8(((index >> 6) & 63) << 2 | 2)
            let blue = UInt8((index & 63) << 2 | 2)
            let color = HSVColor(red: red, green: green, blue: blue)
            var value: UInt8 = 0
            if color.matches(profile.color, hueTolerance: profile.colorTolerance) { value |= Self.ballBit }
            if let marker = profile.markerColor, color.matches(marker, hueTolerance: profile.colorTolerance) {
                value |= Self.markerBit
            }
            bits[index] = value
        }
    }

    @inline(__always) static func index(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        // Masking shifts (&>>, &<<): Swift's plain shifts check the shift amount on every pixel.
        Int(truncatingIfNeeded: red &>> 2) &<< 12 | Int(truncatingIfNeeded: green &>> 2) &<< 6 | Int(truncatingIfNeeded: blue &>> 2)
    }

    func lookup(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 { bits[Self.index(red, green, blue)] }
}
