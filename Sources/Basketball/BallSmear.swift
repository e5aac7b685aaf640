/// A ball blurred by its own motion while the shutter was open: a disc of `diameter` swept along a
/// straight line of length `sweep`. Phones in dim halls expose for up to a frame's time, so a shot
/// at 30 frames a second can smear the ball over a diameter or more; the blob is then a capsule,
/// not a disc.
struct BallSmear: Equatable {
    var diameter: Double
    var sweep: Double

    /// Longest smear taken for a ball, in its diameters: a 60 ft/s ball over a whole 1/30 s frame
    /// sweeps about two and a half.
    static let maxSweepDiameters = 3.0
    static let cellSlack = 1.1

    /// The capsule with this bounding box and area: the box is the sweep's extent plus one diameter
    /// each way, the area the swept band plus one disc. nil when no capsule fits (a blob fuller
    /// than a disc, or a sweep longer than `maxSweepDiameters`).
    init?(boxWidth width: Double, boxHeight height: Double, area: Double) {
        let short = min(width, height)
        guard short > 0, area > 0, area.isFinite, width.isFinite, height.isFinite else { return nil }
        // The capsule's area grows with its diameter over 0…short (the box fixed), so bisect.
        func capsuleArea(_ d: Double) -> Double {
            let sx = width - d, sy = height - d
            return d * (sx * sx + sy * sy).squareRoot() + Double.pi / 4 * d * d
        }
        // A blob counted in cells covers a little more than its box's continuous capsule (the box
        // spans the outer cells' centres): up to `cellSlack` more is still that capsule.
        guard area <= Self.cellSlack * capsuleArea(short) else { return nil }
        var low = 0.0, high = short
        for _ in 0..<30 {
            let mid = (low + high) / 2
            if capsuleArea(mid) < area { low = mid } else { high = mid }
        }
        let d = (low + high) / 2
        let sx = width - d, sy = height - d
        let sweep = (sx * sx + sy * sy).squareRoot()
        guard d > 0, sweep <= Self.maxSweepDiameters * d else { return nil }
        (diameter, self.sweep) = (d, sweep)
    }
}
