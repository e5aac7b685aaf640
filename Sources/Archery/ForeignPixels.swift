/// The finder's foreign pixels (working image), kept to follow a shaft beyond its own group.
///
/// Where shafts cross near the centre their pixels make one group, and a shaft leaving that group
/// is found as a piece whose inner end is where the group began, not where the arrow went in. The
/// shaft goes on in a straight line: following foreign pixels along it, across gaps no wider than
/// a ring line's band, reaches its impact.
struct ForeignPixels {
    let width: Int
    let height: Int
    let mask: [Bool]

    /// From `head`, away from `tail`, the last point along the line with foreign pixels within
    /// `tolerance` across it, crossing gaps up to `maximumGap` pixels, at most `maximumLength` on.
    func shaftEnd(head: (x: Double, y: Double), tail: (x: Double, y: Double), tolerance: Double, maximumGap: Double,
                  maximumLength: Double) -> (x: Double, y: Double) {
        let dx = head.x - tail.x, dy = head.y - tail.y, length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return head }
        let ux = dx / length, uy = dy / length
        var last = 0.0, t = 0.5
        while t <= maximumLength, t - last <= maximumGap {
            if isForeignAcross(x: head.x + t * ux, y: head.y + t * uy, ux: ux, uy: uy, tolerance: tolerance) { last = t }
            t += 0.5
        }
        return (head.x + last * ux, head.y + last * uy)
    }

    private func isForeignAcross(x: Double, y: Double, ux: Double, uy: Double, tolerance: Double) -> Bool {
        var s = -tolerance
        while s <= tolerance {
            let px = Int((x - s * uy).rounded()), py = Int((y + s * ux).rounded())
            if px >= 0, py >= 0, px < width, py < height, mask[py * width + px] { return true }
            s += 0.5
        }
        return false
    }
}
