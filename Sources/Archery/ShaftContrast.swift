/// Whether a shaft runs through a point of the working image in a given direction, judged by the
/// shaft's own colour and edges rather than by the zone's expected colour.
///
/// A shaft of about its zone's colour, or darker in its hue (a yellow shaft in the gold reads as a
/// shadow there), is not foreign in that zone: the finder sees it up to where it enters the zone
/// and takes that point, mid-shaft, for its impact. The shaft is one colour along its length
/// whatever zone it lies over, so where the strip it would cover has the colour its foreign part
/// has, and differs from the face on both sides of it, the shaft goes on. Both sides: a shadow
/// darkens one side only. A ring line crossing at a slant passes the strip before its sides, so
/// only a run of the shaft showing at least `minimumRun` long counts.
struct ShaftContrast {
    /// RGB distance between the strip and each side's mean beyond which the strip stands out: above
    /// the noise of a mean of a dozen pixels of a phone's H.264.
    static let minimumContrast = 12.0
    /// RGB distance within which the strip is the shaft's own colour (its shading along its length,
    /// a 4:2:0 photo's colour smear).
    static let colourTolerance = 40.0

    let image: WorkingImage
    /// Half the shaft's width, working pixels.
    let arrowRadiusPx: Double

    /// The shortest run (working pixels) of the shaft showing that counts: longer than a ring line
    /// crossed at a slant looks, several shafts' widths.
    var minimumRun: Double { max(6, 4 * arrowRadiusPx) }

    /// Whether at (x, y) the strip along the unit direction (ux, uy), a shaft's width across and two
    /// pixels long, is within `colourTolerance` of `shaft` and differs from both sides by at least
    /// `minimumContrast`.
    func showsShaft(x: Double, y: Double, ux: Double, uy: Double, shaft: SIMD3<Double>) -> Bool {
        // The sides: past the blur and a 4:2:0 photo's colour smear, about two pixels beyond the edge.
        let near = arrowRadiusPx + 2, far = arrowRadiusPx + 3.5
        guard let strip = strip(x: x, y: y, ux: ux, uy: uy), distance(strip, shaft) <= Self.colourTolerance,
              let left = mean(x: x, y: y, ux: ux, uy: uy, across: -far...(-near)),
              let right = mean(x: x, y: y, ux: ux, uy: uy, across: near...far) else { return false }
        return min(distance(strip, left), distance(strip, right)) >= Self.minimumContrast
    }

    /// The strip's mean colour at (x, y): the shaft's core (its edges blur into the face).
    func strip(x: Double, y: Double, ux: Double, uy: Double) -> SIMD3<Double>? {
        let core = max(0.5, arrowRadiusPx / 2)
        return mean(x: x, y: y, ux: ux, uy: uy, across: -core...core)
    }

    /// The mean colour over `across` (pixels across the direction) and two pixels along it, sampled
    /// bilinearly every half pixel; nil when any sample falls outside the image.
    private func mean(x: Double, y: Double, ux: Double, uy: Double, across: ClosedRange<Double>) -> SIMD3<Double>? {
        var sum = SIMD3<Double>(0, 0, 0), count = 0.0
        var t = -1.0
        while t <= 1 {
            var s = across.lowerBound
            while s <= across.upperBound + 1e-9 {
                guard let p = image.colour(x: x + t * ux - s * uy, y: y + t * uy + s * ux) else { return nil }
                sum += p
                count += 1
                s += 0.5
            }
            t += 0.5
        }
        return count > 0 ? sum / count : nil
    }

    private func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
}
