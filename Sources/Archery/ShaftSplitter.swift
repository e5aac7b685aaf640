import Foundation
import SportMath

/// Separates the shafts in one group of foreign pixels: arrows in a tight group, seen from the side,
/// cross and touch each other, and their pixels make one group. Straight lines are taken out one
/// at a time (RANSAC: the line through two of the group's pixels that most pixels lie on, refitted
/// by least squares); each line's longest unbroken run is a shaft, and its end without a fletching
/// beside it is the impact. The shaft and its fletching are then removed and the next line sought.
enum ShaftSplitter {
    static let maximumShafts = 8
    static let tries = 160

    struct Shaft {
        var x: Double
        var y: Double
        /// 0–1: how clearly one end has the fletching and the other not.
        var confidence: Double
        var members: [(x: Double, y: Double)]
        /// The shaft's other end (working pixels): toward the nock.
        var tail: (x: Double, y: Double)
    }

    /// The shafts in `members` (working pixels); empty when no straight run is long enough.
    static func shafts(in members: [(x: Double, y: Double)], radiusPx: Double, arrowRadiusPx: Double) -> [Shaft] {
        let tolerance = max(1.5, arrowRadiusPx + 1)
        let fletchingReach = max(4, 5 * arrowRadiusPx + 2)
        // Only long runs: a short arrow seen nearly end on is its fletching and a stub, and a line
        // through the fletching would be taken for a second shaft.
        let minimumRun = max(10, 0.15 * radiusPx)
        // Ring-line bands cut a shaft into pieces, far apart where it runs along a line: the same
        // gap `ArrowFinder.joinCollinear` bridges.
        let maximumGap = ArrowFinder.collinearGap * radiusPx
        var remaining = members
        var found = [Shaft]()
        // The same tries on every run, so a photo always scores the same.
        var random = SeededRandom(seed: UInt64(members.count))
        while found.count < maximumShafts, Double(remaining.count) >= minimumRun {
            guard let line = bestLine(remaining, tolerance: tolerance, minimumSpan: minimumRun / 2, random: &random) else { break }
            // Inliers sorted along the line; the longest run without a wide gap.
            let along = remaining.compactMap { p -> Double? in
                let (t, s) = line.coordinates(p)
                return abs(s) <= tolerance ? t : nil
            }.sorted()
            guard let first = along.first else { break }
            var best = (start: first, end: first), start = first, previous = first
            for t in along.dropFirst() {
                if t - previous > maximumGap { start = t }
                previous = t
                if t - start > best.end - best.start { best = (start, t) }
            }
            guard best.end - best.start >= minimumRun else { break }
            // The fletched end has pixels well off the line beside it.
            func fletching(at end: Double) -> Int {
                members.reduce(0) { count, p in
                    let (t, s) = line.coordinates(p)
                    return count + (abs(t - end) <= 3 * fletchingReach && abs(s) > tolerance + 1 && abs(s) <= fletchingReach + 2 ? 1 : 0)
                }
            }
            let low = fletching(at: best.start), high = fletching(at: best.end)
            let impactAtStart = low <= high
            let tip = impactAtStart ? best.start - 0.5 : best.end + 0.5
            let point = line.point(tip)
            let contrast = Double(max(low, high) - min(low, high)) / Double(max(1, max(low, high)))
            let shaftMembers = remaining.filter { p in
                let (t, s) = line.coordinates(p)
                return t >= best.start - 2 && t <= best.end + 2 && abs(s) <= fletchingReach + 2
            }
            found.append(Shaft(x: point.x, y: point.y, confidence: 0.55 + 0.4 * contrast, members: shaftMembers,
                               tail: line.point(impactAtStart ? best.end : best.start)))
            remaining = remaining.filter { p in
                let (t, s) = line.coordinates(p)
                return !(t >= best.start - 2 && t <= best.end + 2 && abs(s) <= fletchingReach + 2)
            }
        }
        return found
    }

    struct Line {
        var ox, oy, dx, dy: Double
        /// Along and across the line.
        @inline(__always) func coordinates(_ p: (x: Double, y: Double)) -> (Double, Double) {
            let px = p.x - ox, py = p.y - oy
            return (px * dx + py * dy, -px * dy + py * dx)
        }
        func point(_ t: Double) -> (x: Double, y: Double) { (ox + t * dx, oy + t * dy) }
    }

    static func bestLine(_ points: [(x: Double, y: Double)], tolerance: Double, minimumSpan: Double, random: inout SeededRandom) -> Line? {
        var best: (line: Line, count: Int)?
        let n = points.count
        guard n >= 2 else { return nil }
        for _ in 0..<tries {
            let a = points[Int(random.next() % UInt64(n))], b = points[Int(random.next() % UInt64(n))]
            let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
            guard length >= minimumSpan else { continue }
            let line = Line(ox: a.x, oy: a.y, dx: dx / length, dy: dy / length)
            var count = 0
            for p in points where abs(line.coordinates(p).1) <= tolerance { count += 1 }
            if count > (best?.count ?? 0) { best = (line, count) }
        }
        guard let rough = best?.line else { return nil }
        // Least squares through the inliers.
        let inliers = points.filter { abs(rough.coordinates($0).1) <= tolerance }
        let fit = PrincipalAxis(inliers)
        return Line(ox: fit.centre.x, oy: fit.centre.y, dx: fit.axis.x, dy: fit.axis.y)
    }
}
