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
    /// `tolerance` across it (or, given `contrast`, where the shaft shows against its sides),
    /// crossing gaps up to `maximumGap` pixels, at most `maximumLength` on.
    func shaftEnd(head: (x: Double, y: Double), tail: (x: Double, y: Double), tolerance: Double, maximumGap: Double,
                  maximumLength: Double, contrast: ShaftContrast? = nil) -> (x: Double, y: Double) {
        let dx = head.x - tail.x, dy = head.y - tail.y, length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return head }
        let ux = dx / length, uy = dy / length
        // The shaft's own colour: the median of its strip over the last pixels before the head.
        let shaft = contrast.flatMap { c -> SIMD3<Double>? in
            let strips = stride(from: 1.0, through: min(12, length - 1), by: 1).compactMap { back in
                c.strip(x: head.x - back * ux, y: head.y - back * uy, ux: ux, uy: uy)
            }
            guard strips.count >= 3 else { return nil }
            let median = { (channel: Int) in strips.map { $0[channel] }.sorted()[strips.count / 2] }
            return SIMD3(median(0), median(1), median(2))
        }
        var last = 0.0, t = 0.5
        // The run of the shaft showing by its contrast alone: where it began, where it was last seen.
        var run: (start: Double, end: Double)?
        // On while within a gap of the last shaft seen, or in a run still too short to count.
        while t <= maximumLength, t - last <= maximumGap || run.map({ t - $0.end <= 1 }) == true {
            let x = head.x + t * ux, y = head.y + t * uy
            if isForeignAcross(x: x, y: y, ux: ux, uy: uy, tolerance: tolerance) {
                last = t
            } else if let contrast, let shaft,
                      [0.0, -1, 1].contains(where: { s in contrast.showsShaft(x: x - s * uy, y: y + s * ux, ux: ux, uy: uy, shaft: shaft) }) {
                if let open = run, t - open.end <= 1 { run = (open.start, t) } else { run = (t, t) }
                if let run, run.end - run.start >= contrast.minimumRun { last = t }
            }
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
