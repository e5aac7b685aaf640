import ReelworkCore

/// Per image row, the columns to scan: the calibrated lane polygon (convex) clipped to the frame,
/// or the whole frame without calibration. Computed once per job so the scan does no geometry.
final class SearchRegion {
    let width: Int
    let height: Int
    /// First and last column of row y, inclusive; start > end for rows outside the polygon.
    let starts: FixedBuffer<Int32>
    let ends: FixedBuffer<Int32>
    /// The polygon (nil for the whole frame), kept for tests and diagnostics.
    let polygon: [(x: Double, y: Double)]?

    init(width: Int, height: Int, polygon: [(x: Double, y: Double)]?) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        self.polygon = polygon
        // Rows outside the polygon: start > end.
        starts = FixedBuffer(count: self.height, repeating: 1)
        ends = FixedBuffer(count: self.height, repeating: 0)
        for y in 0..<self.height {
            var lo = 0.0, hi = Double(self.width - 1)
            if let polygon {
                (lo, hi) = Self.span(of: polygon, atY: Double(y))
                lo = max(lo.rounded(.up), 0)
                hi = min(hi.rounded(.down), Double(self.width - 1))
            }
            if lo <= hi, lo.isFinite, hi.isFinite {
                starts[y] = Int32(lo); ends[y] = Int32(hi)
            }
        }
    }

    /// Where the horizontal line at `y` crosses a convex polygon; (inf, -inf) when it misses.
    static func span(of polygon: [(x: Double, y: Double)], atY y: Double) -> (Double, Double) {
        var lo = Double.infinity, hi = -Double.infinity
        guard polygon.count >= 3 else { return (lo, hi) }
        for i in 0..<polygon.count {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            let (top, bottom) = a.y <= b.y ? (a, b) : (b, a)
            guard y >= top.y, y <= bottom.y else { continue }
            let x = bottom.y == top.y ? min(a.x, b.x) : top.x + (y - top.y) / (bottom.y - top.y) * (bottom.x - top.x)
            lo = min(lo, x); hi = max(hi, x)
            if bottom.y == top.y { hi = max(hi, max(a.x, b.x)) }
        }
        return (lo, hi)
    }
}
