import Foundation
import Media
import ReelworkCore

/// The colour table's index of the RGB pixel at `pixel` (see `ColorLookupTable.index`), written
/// out so the per-pixel loops surely inline it.
@inline(__always) private func lutIndex(_ pixel: UnsafePointer<UInt8>) -> Int {
    Int(truncatingIfNeeded: pixel[0] &>> 2) &<< 12 | Int(truncatingIfNeeded: pixel[1] &>> 2) &<< 6
        | Int(truncatingIfNeeded: pixel[2] &>> 2)
}

/// One ball-like blob in a frame.
public struct BallCandidate: Sendable, Equatable {
    /// Blob centre (centroid of ball pixels and the marker pixels inside the ball), image pixels.
    public var x: Double
    public var y: Double
    /// Radius of the disc with the blob's area.
    public var radius: Double
    public var area: Double
    public var circularity: Double
    /// Angle (radians, image axes: 0 = right, π/2 = down) of the PAP marker around the centre.
    public var markerAngle: Double?

    /// Where the ball touches the lane: one radius below its centre (DOMAIN "Where the ball is").
    public var contactY: Double { y + radius }
}

/// Finds ball-coloured round blobs in a frame (seed 003 "Detection Parameters").
///
/// A coarse pass looks at every second pixel of every second row and marks the rows near any match;
/// a ball (radius ≥ 3 px after scaling) cannot hide between the samples, and most of a frame is
/// lane, so the full pass then reads only the few marked rows. It turns matching pixels into
/// horizontal runs, joined into 8-connected components with union–find over runs (far fewer than
/// pixels). All buffers are allocated once; `detect` allocates nothing.
///
/// Circularity is `area / (π · rMax²)`, with rMax the largest distance from the centroid to a blob
/// pixel's centre plus half a pixel: about 1 for a disc (0.89 for a radius of 8 px, 0.93 at seed
/// 003's smallest 1080p ball), 2/π ≈ 0.64 for a square, 0.5 for a 2:1 ellipse. Seed 003's 4πA/P² needs a
/// perimeter, and perimeters of pixel blobs are off by up to 4/π depending on direction, so small
/// discs would fail and squares would pass; this measure has neither problem.
final class BallDetector {
    static let minCircularity = 0.7
    /// With a calibrated lane, a blob's area must lie within these shares of the disc the ball
    /// should be where the blob is: the marker's pixels are not counted yet (up to about a third of
    /// a small ball), and a ball in flight or motion-blurred looks larger.
    static let expectedAreaShares = 0.3...3.0
    /// The smallest ball radius the coarse pass (every second pixel of every second row) surely hits.
    static let smallestRadius = 3.0
    /// The smallest blob kept with a calibrated lane, as a radius (px): far down the lane the
    /// ball's edge pixels blend with the lane and the pins, and a ball expected 4–5 px in radius
    /// matches the colour over a disc of 2–3 px. The coarse pass still finds it: its rows are
    /// marked from any one sampled hit.
    static let smallestBlobRadius = 2.0
    /// With a calibrated lane, the circularity a ball must have falls from `minCircularity` at this
    /// expected radius (px) and above to `smallBallCircularity` at `smallestRadius`: a ball a few
    /// pixels across loses edge pixels unevenly to 4:2:0 chroma and compression, and its marker
    /// bites a larger share out of it (rendered 720p clips measured 0.47–0.73 at 5–8 px). The
    /// expected size and the right colour then do most of the sorting.
    static let sharpBallRadius = 12.0
    static let smallBallCircularity = 0.4

    let width: Int
    let height: Int
    /// Seed 003's area bounds, scaled by frame height: used without a calibrated lane.
    let minArea: Double
    let maxArea: Double
    /// The image radius of a ball touching the lane at an image point (a calibrated lane's
    /// perspective); nil where unknown. With it the area bounds follow the ball's expected size at
    /// each distance: seed 003's one minimum, meant for a 1080p ball near the camera, would lose a
    /// ball 60 ft away in a wide 720p view long before the pins.
    let expectedRadius: ((_ x: Double, _ y: Double) -> Double?)?
    let table: ColorLookupTable
    let region: SearchRegion
    let tracksMarker: Bool

    private let runCapacity: Int
    private let runY: FixedBuffer<Int32>
    private let runStart: FixedBuffer<Int32>
    private let runEnd: FixedBuffer<Int32>
    private let parent: FixedBuffer<Int32>
    // Per-component sums, indexed by the component's root run.
    private let area: FixedBuffer<Double>
    private let sumX: FixedBuffer<Double>
    private let sumY: FixedBuffer<Double>
    private let maxDistanceSquared: FixedBuffer<Double>
    /// Per component: its area with each row filled from its leftmost to its rightmost pixel, and
    /// the row being filled (its y, first and last x).
    private let filledArea: FixedBuffer<Double>
    private let fillRow: FixedBuffer<Int32>
    private let fillStart: FixedBuffer<Int32>
    private let fillEnd: FixedBuffer<Int32>
    private var runCount = 0
    /// Rows the coarse pass found worth a full scan (1) or not (0).
    private let activeRows: FixedBuffer<UInt8>
    /// Rows marked above and below a coarse match: covers the sampling step and a disc's thin top and bottom.
    static let activeRowMargin = 3

    /// The last frame's blobs that passed every test, reused between frames.
    private(set) var candidates: [BallCandidate] = []
    /// Share of the last frame's searched pixels that matched the ball colour (from the coarse sample).
    private(set) var matchedShare = 0.0
    /// Pixels the coarse pass sampled.
    private(set) var searchedPixels = 0

    init(profile: BallProfile, width: Int, height: Int, searchPolygon: [(x: Double, y: Double)]?,
         expectedRadius: ((_ x: Double, _ y: Double) -> Double?)? = nil) {
        self.expectedRadius = expectedRadius
        self.width = max(width, 0)
        self.height = max(height, 0)
        // Seed 003's areas are for 1080p frames.
        let scale = pow(Double(self.height) / 1080, 2)
        minArea = max(500 * scale, 4)
        maxArea = max(50000 * scale, minArea)
        table = ColorLookupTable(profile: profile)
        region = SearchRegion(width: self.width, height: self.height, polygon: searchPolygon)
        tracksMarker = profile.markerColor != nil
        runCapacity = max(1 << 14, self.height * 16)
        runY = FixedBuffer(count: runCapacity, repeating: 0)
        runStart = FixedBuffer(count: runCapacity, repeating: 0)
        runEnd = FixedBuffer(count: runCapacity, repeating: 0)
        parent = FixedBuffer(count: runCapacity, repeating: 0)
        area = FixedBuffer(count: runCapacity, repeating: 0)
        sumX = FixedBuffer(count: runCapacity, repeating: 0)
        sumY = FixedBuffer(count: runCapacity, repeating: 0)
        maxDistanceSquared = FixedBuffer(count: runCapacity, repeating: 0)
        filledArea = FixedBuffer(count: runCapacity, repeating: 0)
        fillRow = FixedBuffer(count: runCapacity, repeating: 0)
        fillStart = FixedBuffer(count: runCapacity, repeating: 0)
        fillEnd = FixedBuffer(count: runCapacity, repeating: 0)
        activeRows = FixedBuffer(count: self.height, repeating: 0)
        candidates.reserveCapacity(64)
    }

    /// Finds the frame's ball candidates (in `candidates`), reflections removed.
    func detect(_ image: RGBImage) {
        candidates.removeAll(keepingCapacity: true)
        runCount = 0
        let rows = min(image.height, region.height), lastColumn = min(image.width, region.width) - 1
        guard rows > 0, lastColumn >= 0 else {
            (searchedPixels, matchedShare) = (0, 0)
            return
        }
        let (matched, searched) = markActiveRows(image, rows: rows, lastColumn: lastColumn)
        searchedPixels = searched
        matchedShare = searched > 0 ? Double(matched) / Double(searched) : 0
        var previousRowFirst = 0, previousRowEnd = 0, previousRowY = -2
        for y in 0..<rows where activeRows[y] != 0 {
            let start = Int(region.starts[y]), end = min(Int(region.ends[y]), lastColumn)
            guard start <= end else { continue }
            let rowFirst = runCount
            scanRow(image, y: y, from: start, to: end)
            if previousRowY == y - 1 { joinRuns(rowFirst, runCount, previousRowFirst, previousRowEnd) }
            (previousRowFirst, previousRowEnd, previousRowY) = (rowFirst, runCount, y)
        }
        collectCandidates()
        removeReflections()
        if tracksMarker { addMarkers(image) }
    }

    /// Marker-coloured pixels within each candidate's disc are the PAP marker: they join the ball's
    /// area and centre (the marker is part of the ball), and their centroid gives its angle.
    private func addMarkers(_ image: RGBImage) {
        let markerBit = ColorLookupTable.markerBit
        for index in candidates.indices {
            var ball = candidates[index]
            let reach = ball.radius + 1, reachSquared = reach * reach
            let top = max(0, Int((ball.y - reach).rounded(.down))), bottom = min(image.height - 1, Int((ball.y + reach).rounded(.up)))
            let left = max(0, Int((ball.x - reach).rounded(.down))), right = min(image.width - 1, Int((ball.x + reach).rounded(.up)))
            guard top <= bottom, left <= right else { continue }
            var count = 0.0, sumX = 0.0, sumY = 0.0
            for y in top...bottom {
                let dy = Double(y) - ball.y
                image.withRow(y) { row, step in
                    var pixel = row + left * step
                    for x in left...right {
                        let dx = Double(x) - ball.x
                        if dx * dx + dy * dy <= reachSquared, table.bits[lutIndex(pixel)] & markerBit != 0,
                           table.bits[lutIndex(pixel)] & ColorLookupTable.ballBit == 0 {
                            count += 1; sumX += Double(x); sumY += Double(y)
                        }
                        pixel += step
                    }
                }
            }
            guard count > 0 else { continue }
            let area = ball.area + count
            ball.x = (ball.x * ball.area + sumX) / area
            ball.y = (ball.y * ball.area + sumY) / area
            ball.area = area
            ball.radius = (area / Double.pi).squareRoot()
            if count >= max(3, 0.005 * area) {
                let mx = sumX / count - ball.x, my = sumY / count - ball.y
                // A marker at the centre has no direction.
                if (mx * mx + my * my).squareRoot() > 0.15 * ball.radius { ball.markerAngle = atan2(my, mx) }
            }
            candidates[index] = ball
        }
    }

    /// The coarse pass: every second pixel of every second row. Marks the rows around any ball or
    /// marker match in `activeRows`; returns the sampled pixels that match the ball colour, and all sampled.
    private func markActiveRows(_ image: RGBImage, rows: Int, lastColumn: Int) -> (matched: Int, searched: Int) {
        activeRows.fill(0..<rows, with: 0)
        let keep: UInt8 = tracksMarker ? ColorLookupTable.ballBit | ColorLookupTable.markerBit : ColorLookupTable.ballBit
        let ballBit = ColorLookupTable.ballBit
        var matched = 0, searched = 0
        for y in stride(from: 0, to: rows, by: 2) {
            let start = Int(region.starts[y]), end = min(Int(region.ends[y]), lastColumn)
            guard start <= end else { continue }
            let (rowMatched, rowHits, rowSearched) = image.withRow(y) { row, step -> (Int, Int, Int) in
                var pixel = row + start * step
                let twoSteps = 2 * step
                var x = start, ball = 0, any = 0, count = 0
                while x <= end {
                    let bits = table.bits[lutIndex(pixel)] & keep
                    any |= Int(bits)
                    ball &+= Int(bits & ballBit)
                    count &+= 1
                    pixel += twoSteps
                    x &+= 2
                }
                return (ball, any, count)
            }
            matched += rowMatched
            searched += rowSearched
            if rowHits != 0 {
                let low = max(0, y - Self.activeRowMargin), high = min(rows - 1, y + Self.activeRowMargin)
                activeRows.fill(low..<high + 1, with: 1)
            }
        }
        return (matched, searched)
    }

    /// Adds the row's runs of ball pixels. Marker pixels are not part of runs (a white marker would
    /// glue the ball to the white pins beside it); `addMarkers` takes those inside each ball.
    private func scanRow(_ image: RGBImage, y: Int, from start: Int, to end: Int) {
        let ballBit = ColorLookupTable.ballBit
        image.withRow(y) { row, step in
            var pixel = row + start * step
            var open = -1
            var x = start
            while x <= end {
                // Most pixels are lane: skip them in a tight loop.
                if open < 0 {
                    while x <= end && table.bits[lutIndex(pixel)] & ballBit == 0 {
                        pixel += step
                        x &+= 1
                    }
                    if x > end { break }
                    open = x
                } else if table.bits[lutIndex(pixel)] & ballBit == 0 {
                    addRun(y: y, from: open, to: x - 1)
                    open = -1
                }
                pixel += step
                x &+= 1
            }
            if open >= 0 { addRun(y: y, from: open, to: end) }
        }
    }

    @inline(__always) private func addRun(y: Int, from start: Int, to end: Int) {
        // A frame with more runs than this is noise (or the lane's own colour), not a ball: drop the rest.
        guard runCount < runCapacity else { return }
        runY[runCount] = Int32(y); runStart[runCount] = Int32(start); runEnd[runCount] = Int32(end)
        parent[runCount] = Int32(runCount)
        runCount += 1
    }

    /// Unions each run of this row with the touching (8-connected) runs of the row above; both are sorted by x.
    private func joinRuns(_ first: Int, _ end: Int, _ previousFirst: Int, _ previousEnd: Int) {
        var j = previousFirst
        for i in first..<end {
            while j < previousEnd && runEnd[j] + 1 < runStart[i] { j += 1 }
            var k = j
            while k < previousEnd && runStart[k] <= runEnd[i] + 1 {
                union(i, k)
                k += 1
            }
        }
    }

    @inline(__always) private func find(_ i: Int) -> Int {
        var i = i
        while Int(parent[i]) != i {
            parent[i] = parent[Int(parent[i])]
            i = Int(parent[i])
        }
        return i
    }

    /// The smaller index becomes the root, so a root always comes before its members.
    @inline(__always) private func union(_ a: Int, _ b: Int) {
        let rootA = find(a), rootB = find(b)
        if rootA < rootB { parent[rootB] = Int32(rootA) } else if rootB < rootA { parent[rootA] = Int32(rootB) }
    }

    private func collectCandidates() {
        guard runCount > 0 else { return }
        for i in 0..<runCount {
            let root = find(i)
            parent[i] = Int32(root)
            if root == i {
                area[root] = 0; sumX[root] = 0; sumY[root] = 0
                maxDistanceSquared[root] = -1
                filledArea[root] = 0; fillRow[root] = runY[i]; fillStart[root] = runStart[i]; fillEnd[root] = runEnd[i]
            }
            let length = Double(runEnd[i] - runStart[i] + 1), y = Double(runY[i])
            area[root] += length
            sumX[root] += length * Double(runStart[i] + runEnd[i]) / 2
            sumY[root] += length * y
            // Runs come row by row, so a component's rows come in order.
            if fillRow[root] != runY[i] {
                filledArea[root] += Double(fillEnd[root] - fillStart[root] + 1)
                fillRow[root] = runY[i]; fillStart[root] = runStart[i]; fillEnd[root] = runEnd[i]
            } else {
                fillStart[root] = min(fillStart[root], runStart[i]); fillEnd[root] = max(fillEnd[root], runEnd[i])
            }
        }
        for root in 0..<runCount where Int(parent[root]) == root {
            filledArea[root] += Double(fillEnd[root] - fillStart[root] + 1)
        }
        // The farthest pixel of a run from any point is one of its two ends.
        let smallest = expectedRadius == nil ? minArea : Double.pi * Self.smallestBlobRadius * Self.smallestBlobRadius
        for i in 0..<runCount {
            let root = Int(parent[i])
            guard area[root] >= smallest else { continue }
            let cx = sumX[root] / area[root], cy = sumY[root] / area[root], y = Double(runY[i]) - cy
            let dx = max(abs(Double(runStart[i]) - cx), abs(Double(runEnd[i]) - cx))
            maxDistanceSquared[root] = max(maxDistanceSquared[root], dx * dx + y * y)
        }
        for root in 0..<runCount where Int(parent[root]) == root {
            let a = area[root]
            guard a >= smallest else { continue }
            let expected = acceptance(x: sumX[root] / a, y: sumY[root] / a)
            guard expected.area.contains(a) else { continue }
            // A pixel centre at rMax covers the shape to about rMax + ½ along that direction.
            let reach = maxDistanceSquared[root].squareRoot() + 0.5
            // Round by its outline: the highlight, finger holes and marker inside a glossy ball
            // do not match its colour, and cut out of a small ball they halve the matched area.
            let circularity = min(1, filledArea[root] / (Double.pi * reach * reach))
            guard circularity >= expected.minCircularity else { continue }
            let cx = sumX[root] / a, cy = sumY[root] / a, radius = (a / Double.pi).squareRoot()
            if candidates.count < candidates.capacity {
                candidates.append(BallCandidate(x: cx, y: cy, radius: radius, area: a, circularity: circularity, markerAngle: nil))
            }
        }
    }

    /// The area and circularity a ball with its centre at (x, y) must have: seed 003's scaled
    /// bounds, or with a calibrated lane what the ball's expected size there allows. The lane gives
    /// the size at the point of contact, one radius below the centre: a second look from there settles it.
    private func acceptance(x: Double, y: Double) -> (area: ClosedRange<Double>, minCircularity: Double) {
        guard let expectedRadius, let first = expectedRadius(x, y), let radius = expectedRadius(x, y + first) ?? Optional(first),
              radius.isFinite, radius > 0 else { return (minArea...maxArea, Self.minCircularity) }
        let disc = Double.pi * radius * radius, smallest = Double.pi * Self.smallestBlobRadius * Self.smallestBlobRadius
        let lower = max(smallest, Self.expectedAreaShares.lowerBound * disc)
        let sharpness = min(1, max(0, (radius - Self.smallestRadius) / (Self.sharpBallRadius - Self.smallestRadius)))
        let circularity = Self.smallBallCircularity + (Self.minCircularity - Self.smallBallCircularity) * sharpness
        return (lower...max(lower, Self.expectedAreaShares.upperBound * disc), circularity)
    }

    /// A glossy lane mirrors the ball just below it; of two candidates stacked within a few radii,
    /// keep the upper one, the real ball (seed 003 "Ball Reflection Detected").
    private func removeReflections() {
        guard candidates.count > 1 else { return }
        var i = 0
        while i < candidates.count {
            let lower = candidates[i]
            let isReflection = candidates.contains { upper in
                let r = max(upper.radius, lower.radius)
                return upper.y < lower.y && lower.y - upper.y <= 4 * r && abs(upper.x - lower.x) <= r
            }
            if isReflection { candidates.remove(at: i) } else { i += 1 }
        }
    }
}
